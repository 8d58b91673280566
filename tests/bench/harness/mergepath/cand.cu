/* cand.cu - one build of tests/bench/harness/mergepath's candidates for ch13
 * step 8: the step's own sort.cu, included (never a copy), compiled with the
 * build's tile shapes (-DBLOCK_SORT_THREADS, -DMP_THREADS, -DMP_ITEMS; none:
 * the step's own) and register bounds (-DCAND_KEYS_BLOCKS, -DCAND_PAIRS_BLOCKS:
 * candidates.mk), and beside it
 * kernels made of the step's own device helpers:
 *   cand_sort_*, cand_merge_*    the step's block_sort_tile and merge_pass_body
 *                                under the build's __launch_bounds__;
 *   cand_partition_warp          the partition with a warp a tile: 32 probes
 *                                of the merge path a step, 5 steps where one
 *                                thread takes 25 (2^26 keys);
 *   cand_merge_pairs_one_tile    a pairs merge in one shared tile, as CUB's
 *                                AgentMerge: values wait in registers while
 *                                the keys merge, then go through the same tile.
 * It exports cand_build_info (cand.h), renamed per build by the Makefile. */
#include "sort.cu" /* solutions/ch13-sort/step8-merge-sort-path: its kernels, helpers and descriptor */

#include "cand.h"

#ifdef CAND_KEYS_BLOCKS /* a build's bound, for the block sort too (the builds that set it sort with MP_THREADS) */
#define CAND_SORT_KEYS_BLOCKS CAND_KEYS_BLOCKS
#else
#define CAND_KEYS_BLOCKS      KEYS_BLOCKS /* the step's */
#define CAND_SORT_KEYS_BLOCKS BLOCK_SORT_KEYS_BLOCKS
#endif
#ifndef CAND_PAIRS_BLOCKS
#define CAND_PAIRS_BLOCKS 0 /* the step's: __launch_bounds__(threads) alone */
#endif
#if CAND_PAIRS_BLOCKS > 0
#define CAND_PAIRS_BOUNDS      __launch_bounds__(MP_THREADS, CAND_PAIRS_BLOCKS)
#define CAND_SORT_PAIRS_BOUNDS __launch_bounds__(BLOCK_SORT_THREADS, CAND_PAIRS_BLOCKS)
#define CAND_ONE_TILE_BLOCKS   CAND_PAIRS_BLOCKS
#else
#define CAND_PAIRS_BOUNDS      __launch_bounds__(MP_THREADS)
#define CAND_SORT_PAIRS_BOUNDS __launch_bounds__(BLOCK_SORT_THREADS)
/* the one-tile pairs merge holds keys, values and positions: at most 64 registers, as the step's pairs */
#define CAND_ONE_TILE_BLOCKS (SORT_SM_THREADS / 2 / MP_THREADS > 0 ? SORT_SM_THREADS / 2 / MP_THREADS : 1)
#endif
#ifndef CAND_NAME
#define CAND_NAME "step"
#endif

/* ---- the step's bodies under the build's bounds ------------------------------------ */

static __global__ void __launch_bounds__(BLOCK_SORT_THREADS, CAND_SORT_KEYS_BLOCKS)
    cand_sort_keys(const unsigned int *keys_in, unsigned int *keys_out, int n, int vector_ok)
{
    block_sort_tile((const int *)keys_in, NULL, (int *)keys_out, NULL, n, 0, vector_ok);
}

static __global__ void CAND_SORT_PAIRS_BOUNDS cand_sort_pairs(const unsigned int *keys_in,
                                                              const unsigned int *values_in, unsigned int *keys_out,
                                                              unsigned int *values_out, int n, int vector_ok)
{
    block_sort_tile((const int *)keys_in, (const int *)values_in, (int *)keys_out, (int *)values_out, n, 1, vector_ok);
}

static __global__ void __launch_bounds__(MP_THREADS, CAND_KEYS_BLOCKS)
    cand_merge_keys(const unsigned int *keys, unsigned int *keys_out, int n, int width, const int *part, int vector_ok)
{
    merge_pass_body((const int *)keys, NULL, (int *)keys_out, NULL, n, width, part, 0, vector_ok);
}

static __global__ void CAND_PAIRS_BOUNDS cand_merge_pairs(const unsigned int *keys, const unsigned int *values,
                                                          unsigned int *keys_out, unsigned int *values_out, int n,
                                                          int width, const int *part, int vector_ok)
{
    merge_pass_body((const int *)keys, (const int *)values, (int *)keys_out, (int *)values_out, n, width, part, 1,
                    vector_ok);
}

/* ---- the partition, a warp a tile ----------------------------------------------------- */

/* merge_path_search by a whole warp: each step its 32 lanes test 32 evenly spaced
 * i of [lo, hi) at once (i past hi counts as past the answer) and keep the span
 * between the last that is not past and the first that is: the same answer. */
static __device__ __forceinline__ int warp_merge_path_search(int diag, const int *A, int m, const int *B, int n)
{
    const int lane = threadIdx.x & 31;
    int lo = diag > n ? diag - n : 0, hi = diag < m ? diag : m;
    while (lo < hi) {
        const int step = (hi - lo - 1) / 32 + 1;
        const int i = lo + lane * step;
        const int past = i >= hi || key_less(B[diag - 1 - i], A[i], MP_UINT);
        const unsigned int ballot = __ballot_sync(0xffffffffu, past);
        if (ballot == 0) {
            lo += 31 * step + 1;
        } else {
            const int f = __ffs(ballot) - 1; /* the first lane past the answer */
            hi = min(hi, lo + f * step);
            lo = f > 0 ? lo + (f - 1) * step + 1 : lo;
        }
    }
    return lo;
}

static __global__ void cand_partition_warp(const unsigned int *keys, int n, int width, int ntiles, int *part)
{
    const int t = (int)(((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5);
    if (t < ntiles) { /* the same for the whole warp */
        const pass_tile g = pass_tile_of(t, n, width);
        const int *A = (const int *)keys + g.pair;
        const int a = warp_merge_path_search(g.local, A, g.m, A + g.m, g.nb);
        if ((threadIdx.x & 31) == 0)
            part[t] = a;
    }
}

/* ---- the pairs merge in one shared tile (CUB's AgentMerge) ------------------------------ */

/* merge_tile with values: the values' loads are issued first and wait in
 * registers while the keys merge in S; then the values take S, the merge's
 * positions (from[]) gather them, and they go out as the keys did. */
static __device__ __forceinline__ void merge_tile_one(const int *A, const int *A_values, int m, const int *B,
                                                      const int *B_values, int n, int *C, int *C_values, int c_begin,
                                                      int c_len, const int *part, const int vector_ok)
{
    extern __shared__ int4 mp_shared[];
    int *S = (int *)mp_shared;
    const int a_begin = part[0];
    const int a_end = c_begin + c_len == m + n ? m : part[1];
    const int a_len = a_end - a_begin, b_begin = c_begin - a_begin;
    int v[MP_ITEMS];
#pragma unroll
    for (int i = 0; i < MP_ITEMS; i++) {
        const int at = i * MP_THREADS + threadIdx.x;
        v[i] = at >= c_len ? 0 : at < a_len ? A_values[a_begin + at] : B_values[b_begin + at - a_len];
    }
    load_tile(A + a_begin, NULL, B + b_begin, NULL, a_len, c_len, S, NULL, 0);
    __syncthreads();
    const int diag = min((int)threadIdx.x * MP_ITEMS, c_len);
    const int a = merge_path_search(diag, S, a_len, S + a_len, c_len - a_len, MP_UINT);
    int keys[MP_ITEMS], from[MP_ITEMS];
    merge_thread_items(S, a, a_len, a_len + diag - a, c_len, keys, from, MP_UINT);
    store_tile(keys, NULL, S, NULL, C + c_begin, NULL, c_len, 0, vector_ok);
    __syncthreads(); /* the keys are out of S */
#pragma unroll
    for (int i = 0; i < MP_ITEMS; i++) {
        const int at = i * MP_THREADS + threadIdx.x;
        if (at < c_len)
            S[at] = v[i];
    }
    __syncthreads(); /* the values sit where their keys sat */
#pragma unroll
    for (int i = 0; i < MP_ITEMS; i++)
        v[i] = S[from[i]];
    store_tile(v, NULL, S, NULL, C_values + c_begin, NULL, c_len, 0, vector_ok);
}

static __global__ void __launch_bounds__(MP_THREADS, CAND_ONE_TILE_BLOCKS)
    cand_merge_pairs_one_tile(const unsigned int *keys, const unsigned int *values, unsigned int *keys_out,
                              unsigned int *values_out, int n, int width, const int *part, int vector_ok)
{
    const pass_tile g = pass_tile_of(blockIdx.x, n, width);
    const int *A = (const int *)keys + g.pair, *A_values = (const int *)values + g.pair;
    merge_tile_one(A, A_values, g.m, A + g.m, A_values + g.m, g.nb, (int *)keys_out + g.pair,
                   (int *)values_out + g.pair, g.local, g.c_len, part + blockIdx.x, vector_ok);
}

/* ---- the host side ---------------------------------------------------------------------- */

static const char *cand_fit(int with_values)
{
    const char *why = lab_fit_kernel(with_values ? (const void *)cand_sort_pairs : (const void *)cand_sort_keys,
                                     BLOCK_SORT_THREADS, block_sort_shared_bytes(with_values));
    if (why == NULL)
        why = lab_fit_kernel(with_values ? (const void *)cand_merge_pairs : (const void *)cand_merge_keys, MP_THREADS,
                             mp_shared_bytes(with_values));
    if (why == NULL && with_values)
        why = lab_fit_kernel((const void *)cand_merge_pairs_one_tile, MP_THREADS, mp_shared_bytes(0));
    if (why == NULL) /* the step's own kernels, for sort_run */
        why = merge_sort_path_fit(1 << 20, &sort_step_info.defaults, with_values);
    return why;
}

/* "name 32r 4b": registers a thread, blocks an SM (after fit), "+Lk" when k bytes spill */
static int cand_resource(char *buf, size_t len, const char *name, const void *kernel, int threads, size_t shared)
{
    struct cudaFuncAttributes attr;
    int blocks = 0;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, shared));
    char spill[32] = "";
    if (attr.localSizeBytes > 0)
        snprintf(spill, sizeof spill, " +L%zu", (size_t)attr.localSizeBytes);
    return snprintf(buf, len, " %s %dr %db%s", name, attr.numRegs, blocks, spill);
}

static void cand_resources(char *buf, size_t len)
{
    struct {
        const char *name;
        const void *kernel;
        int threads;
        size_t shared;
    } k[] = {{"sortK", (const void *)cand_sort_keys, BLOCK_SORT_THREADS, block_sort_shared_bytes(0)},
             {"sortP", (const void *)cand_sort_pairs, BLOCK_SORT_THREADS, block_sort_shared_bytes(1)},
             {"mergeK", (const void *)cand_merge_keys, MP_THREADS, mp_shared_bytes(0)},
             {"mergeP", (const void *)cand_merge_pairs, MP_THREADS, mp_shared_bytes(1)},
             {"merge1P", (const void *)cand_merge_pairs_one_tile, MP_THREADS, mp_shared_bytes(0)},
             {"part", (const void *)partition_pass, 256, 0},
             {"partW", (const void *)cand_partition_warp, 256, 0}};
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof k / sizeof k[0] && at < len; i++)
        at += (size_t)cand_resource(buf + at, len - at, k[i].name, k[i].kernel, k[i].threads, k[i].shared);
}

static void cand_block_sort(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                            unsigned int *values_out, int n)
{
    const int ntiles = (int)sort_ceil_div(n, BLOCK_SORT_TILE);
    const int vector_ok = mp_aligned16(keys_out) && mp_aligned16(values_out);
    if (values_in != NULL)
        cand_sort_pairs<<<ntiles, BLOCK_SORT_THREADS, block_sort_shared_bytes(1)>>>(keys_in, values_in, keys_out,
                                                                                    values_out, n, vector_ok);
    else
        cand_sort_keys<<<ntiles, BLOCK_SORT_THREADS, block_sort_shared_bytes(0)>>>(keys_in, keys_out, n, vector_ok);
    CUDA_CHECK_LAUNCH();
}

static void cand_partition(const unsigned int *keys, int n, int width, int *part, int warp)
{
    const int ntiles = (int)sort_ceil_div(n, MP_TILE);
    if (warp)
        cand_partition_warp<<<(unsigned int)sort_ceil_div(ntiles, 8), 256>>>(keys, n, width, ntiles, part);
    else
        partition_pass<<<(unsigned int)sort_ceil_div(ntiles, 256), 256>>>(keys, n, width, ntiles, part);
    CUDA_CHECK_LAUNCH();
}

static void cand_merge(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                       unsigned int *values_out, int n, int width, const int *part, int one_tile)
{
    const int ntiles = (int)sort_ceil_div(n, MP_TILE);
    const int vector_ok = mp_aligned16(keys_out) && mp_aligned16(values_out);
    if (values_in == NULL)
        cand_merge_keys<<<ntiles, MP_THREADS, mp_shared_bytes(0)>>>(keys_in, keys_out, n, width, part, vector_ok);
    else if (one_tile)
        cand_merge_pairs_one_tile<<<ntiles, MP_THREADS, mp_shared_bytes(0)>>>(keys_in, values_in, keys_out, values_out,
                                                                              n, width, part, vector_ok);
    else
        cand_merge_pairs<<<ntiles, MP_THREADS, mp_shared_bytes(1)>>>(keys_in, values_in, keys_out, values_out, n, width,
                                                                     part, vector_ok);
    CUDA_CHECK_LAUNCH();
}

extern const cand_build cand_build_info; /* exported (a const is file-local in C++) */
const cand_build cand_build_info = {.name = CAND_NAME,
                                    .threads = MP_THREADS,
                                    .items = MP_ITEMS,
                                    .tile = MP_TILE,
                                    .sort_threads = BLOCK_SORT_THREADS,
                                    .sort_tile = BLOCK_SORT_TILE,
                                    .keys_blocks = CAND_KEYS_BLOCKS,
                                    .pairs_blocks = CAND_PAIRS_BLOCKS, /* 0: unbounded, as the step */
                                    .step = &sort_step_info,
                                    .fit = cand_fit,
                                    .resources = cand_resources,
                                    .block_sort = cand_block_sort,
                                    .partition = cand_partition,
                                    .merge = cand_merge};
