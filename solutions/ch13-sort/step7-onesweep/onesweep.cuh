/* onesweep.cuh - ch13 step 7 (beyond the book): step 4's three launches per
 * digit (local sort, table scan, scatter) become one, because each block finds
 * where its digit runs go by looking back at the blocks before it while it
 * runs, so every pass reads and writes each key once.
 *
 * Adinets and Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort
 * for GPUs" (2022), on the chained scan with decoupled look-back of Merrill and
 * Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back" (2016).
 * Our own code, in the lab's style:
 *
 *   onesweep_digit_histograms  one read of the keys counts all four 8-bit digits
 *   onesweep_plan_passes       one block: each digit's first output place per
 *                              pass, and which passes run (not those whose
 *                              digit is the same for every key)
 *   onesweep_pass              one launch per digit; each block:
 *     onesweep_take_tile         its tile comes from an atomic counter, not blockIdx.x
 *     onesweep_sort_tile         then the tile, phase by phase:
 *       onesweep_load_tile         warp w holds keys [w*32*K, (w+1)*32*K) of the tile
 *       onesweep_count_digits      the tile's count of each digit
 *       onesweep_publish           posts it (an aggregate) for the blocks after this one
 *       onesweep_place_digits      where each warp's keys of each digit start in the tile
 *       onesweep_rank_keys         each key's place in the tile sorted by digit: stable
 *                                  (onesweep_rank_tile), or in the first pass over keys alone
 *                                  in any order inside a digit (onesweep_rank_arrivals)
 *       onesweep_stage             each key to its place in shared memory
 *       onesweep_look_back         the keys of each digit in every earlier tile
 *       onesweep_scatter_tile      the sorted tile to its places, digit run by digit run
 *
 * A block's work on its tile (the load, count, place, rank and scatter) is in
 * onesweep_tile.cuh, what it learns from the tiles before it (the status
 * words, the tile numbers, the look-back) in onesweep_look_back.cuh; this
 * file holds the passes that call them and the host side, and includes both.
 * Every name they define starts with onesweep_ or ONESWEEP_: another step
 * includes this file (step 9, for its local sort) and keeps its own names free.
 *
 * The host entry points are declared in onesweep.h: onesweep_sort (input
 * kept, result in keys_out; the step's launcher in sort.cu) and
 * onesweep_sort_buffers (two buffers of the caller's, sorted in place).
 */
#ifndef ONESWEEP_CUH
#define ONESWEEP_CUH

#include "launch.h"
#include "onesweep.h"
#include "onesweep_look_back.cuh"
#include "onesweep_tile.cuh"

/* Indices and counts are unsigned int: n up to 2^31 - 1 (the inclusive prefix
 * in a status word has 31 bits). 32-bit keys only. */
#define ONESWEEP_MAX_N     2147483647LL
#define ONESWEEP_RANGE_WHY "n must be 0 to 2^31 - 1 (unsigned int indices; a status word holds a 31-bit prefix)"

/* ---- the passes' launch parameters (tests/bench/harness/onesweep measures them) ---- */
#ifndef ONESWEEP_MIN_BLOCKS /* keys: blocks per SM the registers must allow: 3 (7 % faster than 2 on an H200), */
#define ONESWEEP_MIN_BLOCKS /* or as many as the SM holds (sm_75: 2) */ \
    (LAB_SM_THREADS / ONESWEEP_THREADS < 3 ? LAB_SM_THREADS / ONESWEEP_THREADS : 3)
#endif
#ifndef ONESWEEP_MIN_BLOCKS_PAIRS
#define ONESWEEP_MIN_BLOCKS_PAIRS 2 /* pairs: their tile of keys and values is twice the shared memory */
#endif
#define ONESWEEP_HISTOGRAM_THREADS         256
#define ONESWEEP_HISTOGRAM_KEYS_PER_THREAD 16
#define ONESWEEP_HISTOGRAM_BLOCKS_PER_SM   4 /* one wave of blocks, each striding over the keys */

typedef struct {
    const unsigned int *keys_in, *values_in; /* values_in NULL: keys only */
    unsigned int *keys_out, *values_out, *keys_alt, *values_alt;
    const unsigned int *bucket_start; /* [ONESWEEP_PASSES][ONESWEEP_RADIX]: digit d's first output place in pass p */
    const unsigned int *run;          /* bit p: pass p runs (onesweep_plan_passes) */
    unsigned int *tile_counter;       /* [ONESWEEP_PASSES] */
    unsigned int *status;             /* [ONESWEEP_STATUS_TABLES][ONESWEEP_LOOKBACK_WORDS(tiles)] */
    unsigned int n, tiles;
} onesweep_args;

/* ---- the histogram pass --------------------------------------------------- */

/* All four digit histograms in one read of the keys: shared-memory counters
 * per block, added to the global ones at the end (grid-stride over tiles). */
__global__ __launch_bounds__(ONESWEEP_HISTOGRAM_THREADS,
                             ONESWEEP_HISTOGRAM_BLOCKS_PER_SM) void onesweep_digit_histograms(const unsigned int *keys,
                                                                                              int64_t n,
                                                                                              unsigned int *histogram)
{
    __shared__ unsigned int s_count[ONESWEEP_PASSES * ONESWEEP_RADIX];
    for (int i = threadIdx.x; i < ONESWEEP_PASSES * ONESWEEP_RADIX; i += ONESWEEP_HISTOGRAM_THREADS)
        s_count[i] = 0;
    __syncthreads();
    const int64_t tile = (int64_t)ONESWEEP_HISTOGRAM_THREADS * ONESWEEP_HISTOGRAM_KEYS_PER_THREAD;
    for (int64_t base = (int64_t)blockIdx.x * tile; base < n; base += (int64_t)gridDim.x * tile) {
        unsigned int key[ONESWEEP_HISTOGRAM_KEYS_PER_THREAD];
#pragma unroll
        for (int u = 0; u < ONESWEEP_HISTOGRAM_KEYS_PER_THREAD; u++) { /* all loads first: many in flight */
            const int64_t i = base + u * ONESWEEP_HISTOGRAM_THREADS + threadIdx.x;
            key[u] = i < n ? keys[i] : 0;
        }
#pragma unroll
        for (int u = 0; u < ONESWEEP_HISTOGRAM_KEYS_PER_THREAD; u++)
            if (base + u * ONESWEEP_HISTOGRAM_THREADS + threadIdx.x < n)
#pragma unroll
                for (int p = 0; p < ONESWEEP_PASSES; p++)
                    atomicAdd(&s_count[p * ONESWEEP_RADIX + onesweep_digit(key[u], p * ONESWEEP_DIGIT_BITS)], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < ONESWEEP_PASSES * ONESWEEP_RADIX; i += ONESWEEP_HISTOGRAM_THREADS)
        if (s_count[i] != 0)
            atomicAdd(&histogram[i], s_count[i]);
}

/* One block of ONESWEEP_RADIX threads, after onesweep_digit_histograms: each
 * pass's bucket starts (a scan of its histogram) and which passes run. A pass
 * whose digit is the same for every key (one bin holds all n) would only move
 * the keys, so it is skipped; sorting in place (keys_in == keys_out), the
 * passes that run must be even in number to end where they began, so one
 * skipped pass runs. */
__global__ __launch_bounds__(ONESWEEP_RADIX) void onesweep_plan_passes(const unsigned int *histogram, unsigned int n,
                                                                       int in_place, unsigned int *bucket_start,
                                                                       unsigned int *run)
{
    __shared__ unsigned int s_scan[ONESWEEP_RADIX / 32];
    unsigned int passes = 0;
    for (unsigned int p = 0; p < ONESWEEP_PASSES; p++) {
        const unsigned int count = histogram[p * ONESWEEP_RADIX + threadIdx.x];
        bucket_start[p * ONESWEEP_RADIX + threadIdx.x] = onesweep_scan_digits(count, s_scan);
        if (!__syncthreads_or(count == n))
            passes |= 1u << p;
    }
    if (in_place && __popc(passes) % 2 == 1)
        passes |= ~passes & (passes + 1); /* the lowest skipped pass */
    if (threadIdx.x == 0)
        *run = passes;
}

/* ---- one pass: a block's phases, in order (onesweep_tile.cuh, onesweep_look_back.cuh) ---- */

typedef struct {
    const unsigned int *keys_in, *values_in;
    unsigned int *keys_out, *values_out;
} onesweep_buffers;

/* The passes that run ping-pong between keys_alt and keys_out so that the last
 * one writes keys_out; the first reads keys_in. */
static __device__ __forceinline__ onesweep_buffers onesweep_pick_buffers(const onesweep_args *a, unsigned int run,
                                                                         unsigned int pass)
{
    const int before = __popc(run & ((1u << pass) - 1)), after = __popc(run >> pass >> 1);
    onesweep_buffers b;
    b.keys_out = after % 2 == 0 ? a->keys_out : a->keys_alt;
    b.values_out = after % 2 == 0 ? a->values_out : a->values_alt;
    b.keys_in = before == 0 ? a->keys_in : after % 2 == 1 ? a->keys_out : a->keys_alt; /* the last pass's output */
    b.values_in = before == 0 ? a->values_in : after % 2 == 1 ? a->values_out : a->values_alt;
    return b;
}

/* Every pass skipped (all keys equal, or n == 1) and the output elsewhere:
 * the last launch copies. */
static __device__ __forceinline__ void onesweep_copy_tile(const onesweep_args *a, unsigned int tile,
                                                          const int has_values)
{
    const unsigned int base = tile * ONESWEEP_TILE;
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++) {
        const unsigned int i = base + u * ONESWEEP_THREADS + threadIdx.x;
        if (i < a->n) {
            a->keys_out[i] = a->keys_in[i];
            if (has_values)
                a->values_out[i] = a->values_in[i];
        }
    }
}

/* Which tile a block sorts: its keys [base, base + valid) of the pass's input,
 * its place `tile` in the look-back's chain (`head`: the chain's first, with
 * nothing before it), and, thread d, where digit d's run starts in the output. */
typedef struct {
    unsigned int base, valid, tile, bucket;
    int head;
} onesweep_tile_at;

/* One tile through the pass, phase by phase, once the block knows which
 * (step 10's passes over segments call it too: a chain a segment). has_values
 * and any_order are literals: each kernel carries only its own code. */
static __device__ __forceinline__ void onesweep_sort_tile(const onesweep_buffers io, unsigned int *status,
                                                          const onesweep_tile_at at, unsigned int shift, unsigned int n,
                                                          const int has_values, const int any_order)
{
    extern __shared__ unsigned int s_tile[]; /* the tile sorted by digit: keys [ONESWEEP_TILE], then values */
    __shared__ unsigned int s_warp[ONESWEEP_WARPS * ONESWEEP_RADIX]; /* [warp][digit]: counts, then where its keys go */
    __shared__ unsigned int s_offset[ONESWEEP_RADIX], s_scan[ONESWEEP_RADIX / 32];
    const unsigned int d = threadIdx.x; /* this thread's digit, if < RADIX */
    unsigned int key[ONESWEEP_KEYS_PER_THREAD], rank[ONESWEEP_KEYS_PER_THREAD], value[ONESWEEP_KEYS_PER_THREAD];
    onesweep_load_tile(io.keys_in, at.base, at.valid, key, 0xffffffffu); /* a short tile's padding: digit 255, last */
    if (has_values) /* in flight while the keys are ranked and the look-back runs */
        onesweep_load_tile(io.values_in, at.base, at.valid, value, 0);
    unsigned int count = onesweep_count_digits(key, shift, s_warp, any_order ? rank : NULL, at.valid);
    if (!any_order && d == ONESWEEP_RADIX - 1) /* the padding is no key: a segment's next tile may follow */
        count -= ONESWEEP_TILE - at.valid;
    if (d < ONESWEEP_RADIX) /* at once: the tiles after this one may be waiting; a head's count is already a prefix */
        onesweep_publish(status, at.tile, d, (at.head ? ONESWEEP_STATUS_INCLUSIVE : ONESWEEP_STATUS_AGGREGATE) | count);
    const unsigned int start = onesweep_place_digits(count, s_warp, s_scan);
    onesweep_rank_keys(key, rank, shift, s_warp, at.valid, any_order);
    onesweep_stage(s_tile, key, rank, any_order);
    if (d < ONESWEEP_RADIX) /* the global place of the tile's key i of digit d: s_offset[d] + i */
        s_offset[d] = at.bucket + (at.head ? 0 : onesweep_look_back(status, at.tile, d, count)) - start;
    if (has_values) /* after the look-back: waiting for the values never holds it up */
        onesweep_stage(s_tile + ONESWEEP_TILE, value, rank, 0);
    __syncthreads();
    onesweep_scatter_tile(s_tile, s_tile + ONESWEEP_TILE, s_offset, shift, at.valid, n, io.keys_out, io.values_out,
                          has_values);
}

/* Pass `pass` over the tile this block takes: its buffers, its bucket starts, the
 * next pass's table cleared, then onesweep_sort_tile (tile 0 heads the chain). */
static __device__ __forceinline__ void onesweep_pass(const onesweep_args a, const unsigned int pass,
                                                     const int has_values, const int any_order)
{
    __shared__ unsigned int s_tile_id;
    const unsigned int shift = pass * ONESWEEP_DIGIT_BITS, d = threadIdx.x; /* this thread's digit, if < RADIX */
    const unsigned int run = *a.run; /* these loads are in flight while thread 0 takes the tile */
    onesweep_tile_at at;
    at.bucket = d < ONESWEEP_RADIX ? a.bucket_start[pass * ONESWEEP_RADIX + d] : 0; /* d's start */
    at.tile = onesweep_take_tile(a.tile_counter + pass, &s_tile_id);
    at.head = at.tile == 0;
    at.base = at.tile * ONESWEEP_TILE;
    if (d < ONESWEEP_RADIX) /* the next pass's table: pass p - 1 is done with it; zeroed for pass p + 1 */
        a.status[(pass + 1) % 2 * ONESWEEP_LOOKBACK_WORDS(a.tiles) + (size_t)at.tile * ONESWEEP_RADIX + d] = 0;
    if (!(run >> pass & 1)) { /* the digit is the same for every key */
        if (run == 0 && pass == ONESWEEP_PASSES - 1 && a.keys_in != a.keys_out)
            onesweep_copy_tile(&a, blockIdx.x, has_values);
        return;
    }
    at.valid = min((unsigned int)ONESWEEP_TILE, a.n - at.base);
    onesweep_sort_tile(onesweep_pick_buffers(&a, run, pass), a.status + pass % 2 * ONESWEEP_LOOKBACK_WORDS(a.tiles), at,
                       shift, a.n, has_values, any_order);
}

/* Keys only and pairs: one body, has_values a literal, so keys only carries no value code. */
__global__ __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS) void onesweep_keys(const onesweep_args a,
                                                                                       const unsigned int pass)
{
    onesweep_pass(a, pass, 0, 0);
}

/* Keys alone, pass 0: it reads the caller's keys, in an order no later pass keeps (equal keys cannot
 * be told apart), so the keys of a digit may take their places in any order: the count's atomics rank
 * them (onesweep_rank_arrivals), with no votes. Pass 0 is the first that runs, or skipped (then pass
 * 1, stable, is first: right, only slower). Pairs and the later passes rank stably. */
__global__ __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS) void onesweep_keys_first(const onesweep_args a,
                                                                                             const unsigned int pass)
{
    onesweep_pass(a, pass, 0, 1);
}

__global__ __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS_PAIRS) void onesweep_pairs(const onesweep_args a,
                                                                                              const unsigned int pass)
{
    onesweep_pass(a, pass, 1, 0);
}

/* ---- host side ------------------------------------------------------------ */

/* The tables in tables_temp: one zeroed block (the tile counters, then the
 * histograms, then the two status tables: one memset per sort), and the
 * plan (bucket starts, then the mask of passes that run). */
#define ONESWEEP_ZEROED_COUNTERS 64 /* words for the tile counters: the histograms start 256-byte aligned */

typedef struct {
    unsigned int *zeroed, *histogram, *status, *plan;
    size_t zeroed_bytes;
    unsigned int tiles;
} onesweep_tables;

static onesweep_tables onesweep_layout(uintptr_t at, int64_t n, size_t *bytes)
{
    lab_ws ws = {at};
    onesweep_tables t;
    t.tiles = (unsigned int)((n + ONESWEEP_TILE - 1) / ONESWEEP_TILE);
    t.zeroed_bytes = sizeof(unsigned int) * (ONESWEEP_ZEROED_COUNTERS + ONESWEEP_PASSES * ONESWEEP_RADIX +
                                             ONESWEEP_STATUS_TABLES * ONESWEEP_LOOKBACK_WORDS(t.tiles));
    t.zeroed = (unsigned int *)lab_ws_take(&ws, t.zeroed_bytes);
    t.histogram = t.zeroed + ONESWEEP_ZEROED_COUNTERS;
    t.status = t.histogram + ONESWEEP_PASSES * ONESWEEP_RADIX;
    t.plan = (unsigned int *)lab_ws_take(&ws, sizeof(unsigned int) * (ONESWEEP_PASSES * ONESWEEP_RADIX + 1));
    *bytes = (size_t)(ws.at - at);
    return t;
}

LAB_BEGIN_C

size_t onesweep_tables_bytes(int64_t n)
{
    size_t bytes = 0;
    if (n < 0 || n > ONESWEEP_MAX_N)
        return 0;
    onesweep_layout(0, n, &bytes);
    return bytes;
}

int onesweep_tile_keys(void)
{
    return ONESWEEP_TILE;
}

/* The shared memory of one block: the sorted tile's keys (and values). */
static size_t onesweep_shared_bytes(int with_values)
{
    return sizeof(unsigned int) * (size_t)ONESWEEP_TILE * (with_values ? 2 : 1);
}

const char *onesweep_fit(int with_values)
{
    const void *kernel = with_values ? (const void *)onesweep_pairs : (const void *)onesweep_keys;
    return lab_fit_kernel(kernel, ONESWEEP_THREADS, onesweep_shared_bytes(with_values));
}

const char *onesweep_sort(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                          unsigned int *values_out, unsigned int *keys_alt, unsigned int *values_alt, int64_t n,
                          void *tables, cudaStream_t stream)
{
    if (n < 0 || n > ONESWEEP_MAX_N)
        return ONESWEEP_RANGE_WHY;
    if (n == 0)
        return NULL;
    const int pairs = values_in != NULL;
    size_t bytes = 0;
    const onesweep_tables t = onesweep_layout((uintptr_t)tables, n, &bytes);
    onesweep_args a;
    a.keys_in = keys_in, a.values_in = values_in, a.keys_out = keys_out, a.values_out = values_out;
    a.keys_alt = keys_alt, a.values_alt = values_alt;
    a.bucket_start = t.plan, a.run = t.plan + ONESWEEP_PASSES * ONESWEEP_RADIX;
    a.tile_counter = t.zeroed, a.status = t.status;
    a.n = (unsigned int)n, a.tiles = t.tiles;

    /* the histogram pass: as many blocks as the GPU runs at once (no more: a second wave would
     * start late and end late), each striding over the keys */
    int dev = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const int64_t chunk = (int64_t)ONESWEEP_HISTOGRAM_THREADS * ONESWEEP_HISTOGRAM_KEYS_PER_THREAD;
    const int64_t chunks = (n + chunk - 1) / chunk;
    const int64_t resident = (int64_t)sms * ONESWEEP_HISTOGRAM_BLOCKS_PER_SM;
    const unsigned int histogram_blocks = (unsigned int)(chunks < resident ? chunks : resident);

    CUDA_CHECK(cudaMemsetAsync(t.zeroed, 0, t.zeroed_bytes, stream));
    onesweep_digit_histograms<<<histogram_blocks, ONESWEEP_HISTOGRAM_THREADS, 0, stream>>>(keys_in, n, t.histogram);
    CUDA_CHECK_LAUNCH();
    onesweep_plan_passes<<<1, ONESWEEP_RADIX, 0, stream>>>(t.histogram, a.n, keys_in == keys_out, t.plan,
                                                           t.plan + ONESWEEP_PASSES * ONESWEEP_RADIX);
    CUDA_CHECK_LAUNCH();
    for (unsigned int pass = 0; pass < ONESWEEP_PASSES; pass++) {
        if (pairs)
            onesweep_pairs<<<t.tiles, ONESWEEP_THREADS, onesweep_shared_bytes(1), stream>>>(a, pass);
        else if (pass == 0)
            onesweep_keys_first<<<t.tiles, ONESWEEP_THREADS, onesweep_shared_bytes(0), stream>>>(a, pass);
        else
            onesweep_keys<<<t.tiles, ONESWEEP_THREADS, onesweep_shared_bytes(0), stream>>>(a, pass);
        CUDA_CHECK_LAUNCH();
    }
    return NULL;
}

/* Sorting in place ends where it began: onesweep_plan_passes runs an even number of passes. */
const char *onesweep_sort_buffers(unsigned int *keys, unsigned int *keys_alt, unsigned int *values,
                                  unsigned int *values_alt, int64_t n, void *tables_temp, cudaStream_t stream,
                                  int *result_in_alt)
{
    *result_in_alt = 0;
    if (n < 0 || n > ONESWEEP_MAX_N)
        return ONESWEEP_RANGE_WHY;
    const char *why = n > 0 ? onesweep_fit(values != NULL) : NULL;
    if (why != NULL)
        return why;
    return onesweep_sort(keys, values, keys, values, keys_alt, values_alt, n, tables_temp, stream);
}

LAB_END_C

#endif
