/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step2` gives graded hints. */
/* sort.cu - ch13 step 2: step 1's iteration with coalesced writes: each block
 * sorts its keys by the bit in shared memory first, then writes each of its
 * local buckets to consecutive addresses.
 * Figs 13.5, 13.6 (section 13.4, the exercise it leaves to the reader). Each
 * block splits its keys by the iteration's bit (radix_split_by_bit, radix_split.cuh),
 * counts its two local buckets into the table of Fig 13.6, the table is
 * scanned, and each block writes its buckets where the scanned table says:
 * consecutive threads, consecutive addresses. Three launches per iteration. */
#include "radix_split.cuh"
#include "sort_host.h"

/* Fig 13.5: block b sorts its blockDim.x keys by bit `iter` in shared memory,
 * writes them back sorted (keys_local) and its two bucket sizes to the table:
 * row 0 (zeros) at table[b], row 1 (ones) at table[gridDim.x + b] (Fig 13.6). */
__global__ void radix_local_sort(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_local,
                                 unsigned int *values_local, unsigned int *table, unsigned int N, unsigned int iter)
{
    extern __shared__ unsigned int s_keys[]; /* blockDim.x keys, then blockDim.x values */
    unsigned int *s_values = s_keys + blockDim.x;
    __shared__ unsigned int warp_sums[33];
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int valid = min(blockDim.x, N - blockIdx.x * blockDim.x); /* keys this block holds */
    unsigned int key = 0, value = 0, bit = 1; /* past the end: a one, so it stays behind every real key */
    if (i < N) {
        key = keys_in[i];
        value = values_in != NULL ? values_in[i] : 0;
        bit = (key >> iter) & 1;
    }
    const unsigned int numZerosTotal = radix_split_by_bit(key, value, bit, s_keys, s_values, warp_sums);
    if (threadIdx.x == 0) { /* Fig 13.6: this block's column of the table */
        table[blockIdx.x] = numZerosTotal;
        table[gridDim.x + blockIdx.x] = valid - numZerosTotal;
    }
    __syncthreads(); /* the local buckets are complete before anyone reads them */
    if (threadIdx.x < valid) {
        keys_local[i] = s_keys[threadIdx.x];
        if (values_in != NULL)
            values_local[i] = s_values[threadIdx.x];
    }
}

/* Fig 13.6, after the table's exclusive scan: table[d * gridDim.x + b] is
 * where block b's local bucket d starts in the output. Where the key at
 * threadIdx.x of this block's sorted keys goes, its bit being `bit`. */
static __device__ __forceinline__ unsigned int bucket_destination(const unsigned int *table, unsigned int bit)
{
    /* TODO(2): bucket_destination(), Fig 13.6: with b = blockIdx.x, the block's local zeros are
       table[b + 1] - table[b] (the scanned table); a key's rank in its local bucket is threadIdx.x
       minus where that bucket starts locally (0 for the zeros, the local zeros for the ones);
       return the bucket's global start table[bit * gridDim.x + b] plus that rank */
    return blockIdx.x * blockDim.x + threadIdx.x;
}

/* Thread t holds the t-th key of its block's sorted keys; consecutive threads
 * of one bucket write consecutive addresses. */
__global__ void radix_scatter(const unsigned int *keys_local, const unsigned int *values_local, unsigned int *keys_out,
                              unsigned int *values_out, const unsigned int *table, unsigned int N, unsigned int iter)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        const unsigned int key = keys_local[i];
        const unsigned int dst = bucket_destination(table, (key >> iter) & 1);
        if (dst >= N) /* never, with the right destination: a wrong one then fails the check, not the GPU */
            return;
        keys_out[dst] = key;
        if (values_local != NULL)
            values_out[dst] = values_local[i];
    }
}

/* Section 13.2's loop, one pass per bit, each reading the last one's output
 * (sort_run, sort_host.c): the local sorts, the table's scan, the scatter. */
static const char *local_sort_pass(const sort_pass *pass, const sort_ws *ws, const sort_params *p)
{
    const unsigned int N = (unsigned int)pass->n, grid = (unsigned int)sort_ceil_div(pass->n, p->block);
    const unsigned int iter = (unsigned int)pass->index;
    const size_t shared = 2 * sizeof(unsigned int) * (size_t)p->block;
    radix_local_sort<<<grid, p->block, shared>>>(pass->keys_in, pass->values_in, ws->keys_local, ws->values_local,
                                                 ws->table, N, iter);
    CUDA_CHECK_LAUNCH();
    const char *why = scan_exclusive(ws->table, ws->table, 2 * (int64_t)grid, ws->scan_temp); /* Fig 13.6 */
    if (why != NULL)
        return why;
    radix_scatter<<<grid, p->block>>>(ws->keys_local, ws->values_local, pass->keys_out, pass->values_out, ws->table, N,
                                      iter);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* ---- what ./run and the tests ask of this step ---------------------------- */

/* the other key (value) buffer, the locally sorted keys (values), and the
 * table: 2 rows of one entry per block */
static void workspace(int64_t n, const sort_params *p, sort_ws_need *need)
{
    need->ping_pong = 1;
    need->local_copy = 1;
    need->table = 2 * sort_ceil_div(n, p->block);
}

static void describe(const sort_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "block=%d bits=1", p->block);
}

/* Step 2's facts: 32 one-bit iterations, blocks of whole warps (sort.h). */
const sort_step sort_step_info = {
    .lab = {.about = "Step 2 sorts in 32 one-bit iterations; --block must be whole warps (32, 64, ... 1024):\n"
                     "the block scan of radix_split_by_bit works warp by warp. --example sorts Fig 13.1's keys.\n",
            .default_n = 1 << 24,
            .max_n = SORT_MAX_N,
            .max_n_why = SORT_MAX_N_WHY},
    .takes = SORT_TAKES_EVERY,
    .defaults = {.block = 256, .radix_bits = 1}, /* r = 1: one bit per iteration */
    .needs = {.block = LAB_BLOCK_WARPS, .workspace = workspace},
    .describe = describe,
    .sorts = {.passes = sort_radix_passes, .pass = local_sort_pass},
};
