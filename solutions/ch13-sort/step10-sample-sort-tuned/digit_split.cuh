/* digit_split.cuh - ch13 step 10's scatter as the sort's first radix pass
 * (--split digit): a sender's share ordered by the keys' top byte, each top
 * byte's keys to their place in its bucket (digit_split_offsets, digit.c),
 * a bucket's place being in the sender's part, or for round 0 direct in its
 * receiver's. Every bucket is a run of whole top bytes, so ordering by the
 * top byte is the split, and the receivers' passes need not sort that byte
 * again. A pass of step 7 on the top byte (its tile, count, rank and
 * look-back over the sender's tiles), but each digit's run starts at its own
 * 64-bit offset from the sender's part, which may lie on another GPU.
 * Included by digit.cuh. */
#ifndef SS_DIGIT_SPLIT_CUH
#define SS_DIGIT_SPLIT_CUH

#include "runs.cuh"
#include "segments.cuh"

#define DIGIT_SHIFT 24 /* the top byte */

typedef struct {
    const unsigned int *keys, *values; /* the sender's share (values NULL: keys alone) */
    unsigned int *part_k, *part_v;     /* its part: every offset is from here */
    const int64_t *dst;                /* [DIGIT_TOPS]: where its first key of each top byte goes */
    unsigned int *status, *tile_counter;
    unsigned int n;
} digit_split_args;

/* Tile by tile in the order blocks start, as step 7's pass: the tile sorted
 * by top byte in shared memory, then each top byte's run to dst[t] plus the
 * keys of t in the sender's tiles before. Pairs rank stably (values follow
 * their keys in input order: the sort stays stable); keys alone in any order.
 * A warp's run of one top byte is counted without atomics (runs.cuh). */
static __device__ __forceinline__ void digit_split(const digit_split_args a, const int has_values)
{
    extern __shared__ unsigned int s_tile[];
    __shared__ unsigned int s_warp[ONESWEEP_WARPS * ONESWEEP_RADIX];
    __shared__ int64_t s_dst[ONESWEEP_RADIX];
    __shared__ unsigned int s_scan[ONESWEEP_RADIX / 32], s_tile_id;
    const unsigned int d = threadIdx.x;
    const int64_t dst = d < ONESWEEP_RADIX ? a.dst[d] : 0;
    const unsigned int tile = onesweep_take_tile(a.tile_counter, &s_tile_id);
    const unsigned int base = tile * ONESWEEP_TILE, valid = min((unsigned int)ONESWEEP_TILE, a.n - base);
    unsigned int key[ONESWEEP_KEYS_PER_THREAD], rank[ONESWEEP_KEYS_PER_THREAD], value[ONESWEEP_KEYS_PER_THREAD];
    onesweep_load_tile(a.keys, base, valid, key, 0xffffffffu);
    if (has_values) /* step 7's order: in flight while the keys are ranked */
        onesweep_load_tile(a.values, base, valid, value, 0);
    const unsigned int count = runs_count_digits(key, DIGIT_SHIFT, runs_of_warp(key, DIGIT_SHIFT, valid), s_warp,
                                                 has_values ? NULL : rank, valid);
    if (d < ONESWEEP_RADIX)
        onesweep_publish(a.status, tile, d,
                         (tile == 0 ? ONESWEEP_STATUS_INCLUSIVE : ONESWEEP_STATUS_AGGREGATE) | count);
    const unsigned int start = onesweep_place_digits(count, s_warp, s_scan);
    onesweep_rank_keys(key, rank, DIGIT_SHIFT, s_warp, valid, !has_values); /* keys alone: any order */
    onesweep_stage(s_tile, key, rank, !has_values);
    if (d < ONESWEEP_RADIX) /* where the tile's key i of top byte d goes: s_dst[d] + i */
        s_dst[d] = dst + onesweep_look_back(a.status, tile, d, count) - start;
    if (has_values) /* after the look-back, as step 7 */
        onesweep_stage(s_tile + ONESWEEP_TILE, value, rank, 0);
    __syncthreads();
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++) {
        const unsigned int i = u * ONESWEEP_THREADS + threadIdx.x;
        if (i < valid) {
            const unsigned int k = s_tile[i];
            const int64_t at = s_dst[k >> DIGIT_SHIFT] + i;
            a.part_k[at] = k;
            if (has_values)
                a.part_v[at] = s_tile[ONESWEEP_TILE + i];
        }
    }
}

__global__ __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS) void digit_split_keys(const digit_split_args a)
{
    digit_split(a, 0);
}

__global__ __launch_bounds__(ONESWEEP_THREADS,
                             ONESWEEP_MIN_BLOCKS_PAIRS) void digit_split_pairs(const digit_split_args a)
{
    digit_split(a, 1);
}

#endif
