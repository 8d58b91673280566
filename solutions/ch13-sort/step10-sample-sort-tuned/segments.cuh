/* segments.cuh - ch13 step 10's sort of a chunk whose keys the split has
 * already put in order of their top byte (--split digit): three of step 7's
 * passes, on the low three bytes, each keeping the keys of one top byte (a
 * segment) among themselves. Every tile holds keys of one segment; a
 * segment's first tile starts its chain with a prefix of its own, so the
 * look-back of its other tiles never crosses into another segment, and each
 * digit's run starts where the segment's histogram puts it. The first pass
 * reads the chunk as it came in (each sender's keys of a top byte apart); it
 * writes each segment whole, so the later passes read one range a segment.
 *
 *   seg_tile_ranges  each tile's range, for the tables of both kinds of pass
 *   seg_histograms   one read of the chunk: each segment's three digit histograms
 *   seg_plan         a block a segment: where each digit's run starts, per pass
 *   seg_pass         step 7's onesweep_sort_tile on the tile a segment's range
 *                    gives, not the tile its number gives
 * Three passes: the result is in the chunk's second buffer. Beyond the book:
 * the split on the top byte first is RMG sort's (Ilic et al., 2023); each
 * segment's passes are Onesweep's (Adinets and Merrill, 2022). Included by
 * digit.cuh. */
#ifndef SS_SEGMENTS_CUH
#define SS_SEGMENTS_CUH

#include "onesweep.cuh" /* step 7's */
#include "tuned.h"

#define SEG_PASSES 3 /* the low three bytes; the split sorted the top one */
#define SEG_HIST   (SEG_PASSES * ONESWEEP_RADIX)

/* A pass's tiles on the GPU (digit_ranges, digit.c), and each tile's range. */
typedef struct {
    const unsigned int *in_at, *len, *tile_at, *first, *seg;
    const unsigned int *tile_range;
} seg_table;

typedef struct {
    onesweep_buffers io;              /* step 7's: this pass's input and output */
    seg_table t;                      /* where its tiles lie */
    const unsigned int *bucket_start; /* [segment][SEG_PASSES][RADIX]: digit d's first place */
    unsigned int *status, *next_status, *tile_counter;
    unsigned int n;
} seg_pass_args;

/* Block r fills its range's tiles of tile_range. */
__global__ void seg_tile_ranges(const unsigned int *tile_at, unsigned int *tile_range)
{
    for (unsigned int t = tile_at[blockIdx.x] + threadIdx.x; t < tile_at[blockIdx.x + 1]; t += blockDim.x)
        tile_range[t] = blockIdx.x;
}

/* Tile `tile`'s first key and keys (its range's; the last tile of a range short). */
static __device__ __forceinline__ unsigned int seg_tile_keys(const seg_table *t, unsigned int r, unsigned int tile,
                                                             unsigned int *valid)
{
    const unsigned int base = t->in_at[r] + (tile - t->tile_at[r]) * ONESWEEP_TILE;
    *valid = min((unsigned int)ONESWEEP_TILE, t->in_at[r] + t->len[r] - base);
    return base;
}

/* Each block a run of tiles, in order: its segment's counts in shared memory,
 * added to the segment's histograms when the segment changes and at the end. */
__global__ __launch_bounds__(ONESWEEP_HISTOGRAM_THREADS) void seg_histograms(const unsigned int *keys, seg_table t,
                                                                             unsigned int tiles, unsigned int *hist)
{
    __shared__ unsigned int s_count[SEG_HIST];
    for (int i = threadIdx.x; i < SEG_HIST; i += blockDim.x)
        s_count[i] = 0;
    __syncthreads();
    const unsigned int per = (tiles + gridDim.x - 1) / gridDim.x, lo = blockIdx.x * per;
    const unsigned int hi = min(tiles, lo + per);
    unsigned int seg = lo < hi ? t.seg[t.tile_range[lo]] : 0;
    for (unsigned int tile = lo; tile <= hi; tile++) {
        const unsigned int r = tile < hi ? t.tile_range[tile] : 0;
        if (tile == hi || t.seg[r] != seg) { /* the block's segment changes (the same for every thread) */
            __syncthreads();
            for (int i = threadIdx.x; i < SEG_HIST; i += blockDim.x) {
                if (s_count[i] != 0)
                    atomicAdd(&hist[(size_t)seg * SEG_HIST + i], s_count[i]);
                s_count[i] = 0;
            }
            __syncthreads();
            if (tile == hi)
                break;
            seg = t.seg[r];
        }
        unsigned int valid;
        const unsigned int base = seg_tile_keys(&t, r, tile, &valid);
#pragma unroll 4
        for (unsigned int k = threadIdx.x; k < valid; k += ONESWEEP_HISTOGRAM_THREADS) {
            const unsigned int key = keys[base + k];
#pragma unroll
            for (int p = 0; p < SEG_PASSES; p++)
                atomicAdd(&s_count[p * ONESWEEP_RADIX + onesweep_digit(key, p * ONESWEEP_DIGIT_BITS)], 1u);
        }
    }
}

/* Block s: segment s's digit runs in each pass start at its own start plus the digits before. */
__global__ __launch_bounds__(ONESWEEP_RADIX) void seg_plan(const unsigned int *hist, const unsigned int *seg_out,
                                                           unsigned int *bucket_start)
{
    __shared__ unsigned int s_scan[ONESWEEP_RADIX / 32];
    const size_t at = (size_t)blockIdx.x * SEG_HIST + threadIdx.x;
    for (int p = 0; p < SEG_PASSES; p++)
        bucket_start[at + p * ONESWEEP_RADIX] =
            seg_out[blockIdx.x] + onesweep_scan_digits(hist[at + p * ONESWEEP_RADIX], s_scan);
}

/* One pass over a tile of a segment: step 7's onesweep_sort_tile, the tile
 * and the digit runs its segment's. A segment's first tile heads its chain:
 * it publishes its count as a prefix and looks back at nothing. */
static __device__ __forceinline__ void seg_pass(const seg_pass_args a, const unsigned int pass, const int has_values,
                                                const int any_order)
{
    __shared__ unsigned int s_tile_id;
    const unsigned int d = threadIdx.x;
    onesweep_tile_at at;
    at.tile = onesweep_take_tile(a.tile_counter, &s_tile_id);
    const unsigned int r = a.t.tile_range[at.tile];
    at.head = a.t.first[r] == at.tile;
    at.base = seg_tile_keys(&a.t, r, at.tile, &at.valid);
    at.bucket = d < ONESWEEP_RADIX ? a.bucket_start[(size_t)a.t.seg[r] * SEG_HIST + pass * ONESWEEP_RADIX + d] : 0;
    if (d < ONESWEEP_RADIX) /* the next pass's table, zeroed for it (step 7's way) */
        a.next_status[(size_t)at.tile * ONESWEEP_RADIX + d] = 0;
    onesweep_sort_tile(a.io, a.status, at, pass * ONESWEEP_DIGIT_BITS, a.n, has_values, any_order);
}

__global__ __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS) void seg_keys(const seg_pass_args a,
                                                                                  const unsigned int pass)
{
    seg_pass(a, pass, 0, 0);
}

/* Keys alone, the first pass: any order inside a digit, as step 7's first pass (onesweep_keys_first). */
__global__ __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS) void seg_keys_first(const seg_pass_args a,
                                                                                        const unsigned int pass)
{
    seg_pass(a, pass, 0, 1);
}

__global__ __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS_PAIRS) void seg_pairs(const seg_pass_args a,
                                                                                         const unsigned int pass)
{
    seg_pass(a, pass, 1, 0);
}

#endif
