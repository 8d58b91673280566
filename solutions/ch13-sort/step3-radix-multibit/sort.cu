/* sort.cu - ch13 step 3: step 2 with an r-bit digit per iteration instead of
 * one bit: 2^r local buckets per block and a table of 2^r rows.
 * Figs 13.7-13.9 (section 13.5). A block sorts its keys by the digit with r
 * local 1-bit splits (sort_by_digit: step 2's radix_split_by_bit r times,
 * each its own block scan), notes where each digit's run starts and ends in its sorted
 * keys, and writes the runs' sizes as its column of the table
 * (write_table_column); 32/r iterations (rounded up) sort the keys. */
#include "radix_split.cuh" /* step 2's radix_split_by_bit (Fig 13.5, section 13.4) */
#include "sort_host.h"

/* Section 13.5: sorts the block's keys by the r-bit digit at `shift` with r
 * local 1-bit splits, from the digit's lowest bit up. Every thread brings its
 * key and value; afterwards s_keys (s_values) holds the block's keys sorted
 * and *key (*value) is the one at threadIdx.x of them. Keys past the end
 * (threadIdx.x >= valid) count as ones, so they stay behind every real key. */
static __device__ __forceinline__ void sort_by_digit(unsigned int *key, unsigned int *value, unsigned int valid,
                                                     unsigned int shift, unsigned int r, unsigned int *s_keys,
                                                     unsigned int *s_values, unsigned int *warp_sums)
{
    /* exercise: sort_by_digit(), section 13.5: r local 1-bit iterations, on bit shift + b for b = 0 .. r-1: each is step 2's radix_split_by_bit of this thread's *key and *value by that bit (a thread past the end, threadIdx.x >= valid, brings a one), then a barrier, then this thread takes the key and value now at threadIdx.x of s_keys and s_values into *key and *value */
    /* hint: split from the digit's lowest bit up: each split is stable, so it keeps the order the splits before it made, as step 1's iterations do */
    /* hint: the barrier after each split is what makes s_keys whole: without it a thread may read its new key before the thread that moves it there has stored it (the race tests catch that) */
    /* hint: the bit of a real key is bit shift + b of *key (shift right, keep the lowest bit); radix_split_by_bit's return value is not needed here */
    for (unsigned int b = 0; b < r; b++) {
        const unsigned int bit = threadIdx.x < valid ? (*key >> (shift + b)) & 1 : 1; /* past the end: a one */
        radix_split_by_bit(*key, *value, bit, s_keys, s_values, warp_sums);
        __syncthreads(); /* every key is in its new place before anyone reads */
        *key = s_keys[threadIdx.x];
        *value = s_values[threadIdx.x];
    }
    /* end exercise */
}

/* Fig 13.9: this block's column of the table: row d, at table[d * gridDim.x +
 * blockIdx.x], is the size of its local bucket d, the run of keys with digit
 * d in its sorted keys: from s_start[d] to s_end[d]. */
static __device__ __forceinline__ void write_table_column(unsigned int *table, const unsigned int *s_start,
                                                          const unsigned int *s_end, unsigned int r)
{
    /* exercise: write_table_column(), Fig 13.9: for every digit d < 2^r (the block's threads share the rows: d = threadIdx.x, threadIdx.x + blockDim.x, ...), row d of this block's column, table[d * gridDim.x + blockIdx.x], is the size of digit d's run: where it ends (s_end[d]) minus where it starts (s_start[d]) */
    /* hint: the table is laid out row by row: all blocks' buckets of digit 0, then all blocks' of digit 1, ...; its exclusive scan then gives every bucket its place in the output */
    /* hint: a digit no key of the block has keeps s_start[d] = s_end[d] = 0 from the kernel's start: its bucket has size 0, and its row still needs that 0 */
    for (unsigned int d = threadIdx.x; d < (1u << r); d += blockDim.x)
        table[d * gridDim.x + blockIdx.x] = s_end[d] - s_start[d];
    /* end exercise */
}

/* Figs 13.8-13.9: block b sorts its keys by the r-bit digit at `shift`,
 * writes them back sorted and its 2^r bucket sizes to the table. */
__global__ void radix_local_sort(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_local,
                                 unsigned int *values_local, unsigned int *table, unsigned int N, unsigned int shift,
                                 unsigned int r)
{
    extern __shared__ unsigned int s_keys[]; /* blockDim.x keys, blockDim.x values, 2^r starts, 2^r ends */
    unsigned int *s_values = s_keys + blockDim.x;
    unsigned int *s_start = s_values + blockDim.x, *s_end = s_start + (1u << r);
    __shared__ unsigned int warp_sums[33];
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int valid = min(blockDim.x, N - blockIdx.x * blockDim.x); /* keys this block holds */
    for (unsigned int d = threadIdx.x; d < (1u << r); d += blockDim.x)
        s_start[d] = s_end[d] = 0; /* an empty bucket has size 0 */
    unsigned int key = 0, value = 0;
    if (i < N) {
        key = keys_in[i];
        value = values_in != NULL ? values_in[i] : 0;
    }
    sort_by_digit(&key, &value, valid, shift, r, s_keys, s_values, warp_sums);
    if (threadIdx.x < valid) { /* the sorted keys are runs of equal digits: note where each run starts and ends */
        const unsigned int d = sort_digit(key, shift, r);
        if (threadIdx.x == 0 || sort_digit(s_keys[threadIdx.x - 1], shift, r) != d)
            s_start[d] = threadIdx.x;
        if (threadIdx.x == valid - 1 || sort_digit(s_keys[threadIdx.x + 1], shift, r) != d)
            s_end[d] = threadIdx.x + 1;
        keys_local[i] = key;
        if (values_in != NULL)
            values_local[i] = value;
    }
    __syncthreads();
    write_table_column(table, s_start, s_end, r);
}

/* Fig 13.9, after the table's scan: table[d * gridDim.x + b] is where block
 * b's bucket d starts in the output; a key's rank in its local bucket is its
 * position minus where that bucket starts in the block's sorted keys. */
__global__ void radix_scatter(const unsigned int *keys_local, const unsigned int *values_local, unsigned int *keys_out,
                              unsigned int *values_out, const unsigned int *table, unsigned int N, unsigned int shift,
                              unsigned int r)
{
    __shared__ unsigned int s_start[1u << SORT_MAX_RADIX_BITS];
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int key = 0, d = 0;
    if (i < N) {
        key = keys_local[i];
        d = sort_digit(key, shift, r);
        if (threadIdx.x == 0 || sort_digit(keys_local[i - 1], shift, r) != d)
            s_start[d] = threadIdx.x; /* local bucket d starts here */
    }
    __syncthreads();
    if (i < N) {
        const unsigned int dst = table[d * gridDim.x + blockIdx.x] + threadIdx.x - s_start[d];
        if (dst < N) { /* always, after a correct local sort; a wrong one then fails the check, not the GPU */
            keys_out[dst] = key;
            if (values_local != NULL)
                values_out[dst] = values_local[i];
        }
    }
}

/* One iteration per digit, from the least significant, each reading the
 * last one's output (sort_run, sort_host.c). */
static const char *digit_pass(const sort_pass *pass, const sort_ws *ws, const sort_params *p)
{
    const unsigned int r = (unsigned int)p->radix_bits, shift = (unsigned int)pass->index * r;
    const unsigned int bits = min(r, 32 - shift); /* the last digit may be narrower */
    const unsigned int N = (unsigned int)pass->n, grid = (unsigned int)sort_ceil_div(pass->n, p->block);
    const size_t shared = sizeof(unsigned int) * (2 * (size_t)p->block + 2 * ((size_t)1 << bits));
    radix_local_sort<<<grid, p->block, shared>>>(pass->keys_in, pass->values_in, ws->keys_local, ws->values_local,
                                                 ws->table, N, shift, bits);
    CUDA_CHECK_LAUNCH();
    const char *why = scan_exclusive(ws->table, ws->table, ((int64_t)1 << bits) * grid, ws->scan_temp); /* Fig 13.9 */
    if (why != NULL)
        return why;
    radix_scatter<<<grid, p->block>>>(ws->keys_local, ws->values_local, pass->keys_out, pass->values_out, ws->table, N,
                                      shift, bits);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* ---- what ./run and the tests ask of this step ---------------------------- */

/* the other key (value) buffer, the locally sorted keys (values), and the
 * table: 2^r rows of one entry per block */
static void workspace(int64_t n, const sort_params *p, sort_ws_need *need)
{
    need->ping_pong = 1;
    need->local_copy = 1;
    need->table = ((int64_t)1 << p->radix_bits) * sort_ceil_div(n, p->block);
}

static void describe(const sort_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "block=%d bits=%d", p->block, p->radix_bits);
}

/* Step 3's facts: ceil(32 / r) iterations of an r-bit digit, blocks of whole warps (sort.h). */
const sort_step sort_step_info = {
    .lab = {.about = "Step 3 sorts in ceil(32 / r) iterations of an r-bit digit (--bits r, 1 to 8); --block\n"
                     "must be whole warps (32, 64, ... 1024). --example sorts Fig 13.1's keys.\n",
            .default_n = 1 << 24,
            .max_n = SORT_MAX_N,
            .max_n_why = SORT_MAX_N_WHY},
    .takes = SORT_TAKES_EVERY | SORT_TAKES_BITS,
    .defaults = {.block = 256, .radix_bits = 4}, /* r = 4: 16 local buckets of about 16 keys each in a 256-key block */
    .needs = {.block = LAB_BLOCK_WARPS, .workspace = workspace},
    .describe = describe,
    .sorts = {.passes = sort_radix_passes, .pass = digit_pass},
};
