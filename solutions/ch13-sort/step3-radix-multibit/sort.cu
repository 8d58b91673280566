/* sort.cu - ch13 step 3: section 13.5's multibit radix. Each iteration sorts
 * by an r-bit digit (r = 1 to 8): a block sorts its keys into 2^r local
 * buckets with r local 1-bit iterations (each its own block scan), the table
 * of Fig 13.9 has 2^r rows, and 32/r iterations (rounded up) sort the keys. */
#include "scan.h"
#include "sort.h"

/* Figs 13.8-13.9: block b sorts its keys by the r-bit digit at `shift` with r
 * local 1-bit iterations, writes them back sorted and its 2^r bucket sizes to
 * the table: row d (keys with digit d) at table[d * gridDim.x + b]. */
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
    /* exercise: section 13.5: r local 1-bit iterations, bit shift+b for b = 0..r-1, each one step 2's local sort (scan the bits, zeros to threadIdx.x - ones before, ones to zeros in total + ones before), then re-read this thread's key and value from shared memory; past the end counts as a one */
    for (unsigned int b = 0; b < r; b++) {
        const unsigned int bit = threadIdx.x < valid ? (key >> (shift + b)) & 1 : 1; /* past the end: a one */
        unsigned int numOnesTotal;
        const unsigned int numOnesBefore = block_exclusive_scan(bit, &numOnesTotal, warp_sums);
        const unsigned int numZerosTotal = blockDim.x - numOnesTotal;
        const unsigned int dst = (bit == 0) ? (threadIdx.x - numOnesBefore) : (numZerosTotal + numOnesBefore);
        s_keys[dst] = key;
        s_values[dst] = value;
        __syncthreads(); /* every key is in its new place before anyone reads */
        key = s_keys[threadIdx.x];
        value = s_values[threadIdx.x];
    }
    /* exercise stub:
    s_keys[threadIdx.x] = key;
    s_values[threadIdx.x] = value;
    __syncthreads();
    */
    /* end exercise */
    const unsigned int mask = (1u << r) - 1;
    if (threadIdx.x < valid) { /* the sorted keys are runs of equal digits: note where each run starts and ends */
        const unsigned int d = (key >> shift) & mask;
        if (threadIdx.x == 0 || ((s_keys[threadIdx.x - 1] >> shift) & mask) != d)
            s_start[d] = threadIdx.x;
        if (threadIdx.x == valid - 1 || ((s_keys[threadIdx.x + 1] >> shift) & mask) != d)
            s_end[d] = threadIdx.x + 1;
        keys_local[i] = key;
        if (values_in != NULL)
            values_local[i] = value;
    }
    __syncthreads();
    for (unsigned int d = threadIdx.x; d < (1u << r); d += blockDim.x) { /* Fig 13.9: this block's column */
        /* exercise: Fig 13.9: row d of this block's column is the size of its local bucket d (where the run of digit d ends minus where it starts) */
        table[d * gridDim.x + blockIdx.x] = s_end[d] - s_start[d];
        /* exercise stub: table[d * gridDim.x + blockIdx.x] = 0; */
        /* end exercise */
    }
}

/* Fig 13.9, after the table's scan: table[d * gridDim.x + b] is where block b's
 * bucket d starts in the output; a key's rank in its local bucket is its
 * position minus where that bucket starts in the block's sorted keys. */
__global__ void radix_scatter(const unsigned int *keys_local, const unsigned int *values_local, unsigned int *keys_out,
                              unsigned int *values_out, const unsigned int *table, unsigned int N, unsigned int shift,
                              unsigned int r)
{
    __shared__ unsigned int s_start[1u << SORT_MAX_RADIX_BITS];
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int mask = (1u << r) - 1;
    unsigned int key = 0, d = 0;
    if (i < N) {
        key = keys_local[i];
        d = (key >> shift) & mask;
        if (threadIdx.x == 0 || ((keys_local[i - 1] >> shift) & mask) != d)
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

/* temp: the other key (value) buffer, the locally sorted keys (values), the
 * table (2^r rows of gridDim.x, plus the total) and the scan's temporaries. */
typedef struct {
    unsigned int *keys_alt, *values_alt, *keys_local, *values_local, *table;
    void *scan_temp;
} radix_temp;

static radix_temp layout(sort_ws *ws, int64_t n, int with_values, const sort_params *p)
{
    radix_temp t;
    const int64_t blocks = (n + p->block - 1) / p->block, entries = ((int64_t)1 << p->radix_bits) * blocks;
    t.keys_alt = (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)n);
    t.values_alt = with_values ? (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)n) : NULL;
    t.keys_local = (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)n);
    t.values_local = with_values ? (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)n) : NULL;
    t.table = (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)(entries + 1));
    t.scan_temp = sort_ws_take(ws, scan_temp_bytes(entries));
    return t;
}

static const char *check(int64_t n, const sort_params *p)
{
    const char *why = sort_check_block(p->block, 1);
    if (why != NULL)
        return why;
    if (p->radix_bits < 1 || p->radix_bits > SORT_MAX_RADIX_BITS)
        return "radix bits r must be 1 to 8";
    if (n < 0 || n > SORT_MAX_N)
        return "n must be 0 to 2^31 - 1 (unsigned int indices, as in Fig 13.4)";
    return NULL;
}

size_t sort_temp_bytes(int64_t n, int with_values, const sort_params *p)
{
    sort_ws ws = {0};
    if (check(n, p) != NULL)
        return 0;
    layout(&ws, n, with_values, p);
    return (size_t)ws.at;
}

const char *sort_launch(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                        unsigned int *values_out, int64_t n, void *temp_d, const sort_params *p)
{
    const char *why = check(n, p);
    if (why != NULL || n == 0)
        return why;
    sort_ws ws = {(uintptr_t)temp_d};
    const radix_temp t = layout(&ws, n, values_in != NULL, p);
    const unsigned int N = (unsigned int)n, grid = (unsigned int)((n + p->block - 1) / p->block);
    const unsigned int r = (unsigned int)p->radix_bits, iters = (32 + r - 1) / r;
    const unsigned int *src_k = keys_in, *src_v = values_in;
    for (unsigned int iter = 0; iter < iters; iter++) {
        const unsigned int shift = iter * r, bits = min(r, 32 - shift); /* the last digit may be narrower */
        const int to_out = (iters - 1 - iter) % 2 == 0; /* ping-pong so that the last iteration writes keys_out */
        unsigned int *dst_k = to_out ? keys_out : t.keys_alt, *dst_v = to_out ? values_out : t.values_alt;
        const size_t shared = sizeof(unsigned int) * (2 * (size_t)p->block + 2 * ((size_t)1 << bits));
        radix_local_sort<<<grid, p->block, shared>>>(src_k, src_v, t.keys_local, t.values_local, t.table, N, shift, bits);
        CUDA_CHECK_LAUNCH();
        why = scan_exclusive(t.table, t.table, ((int64_t)1 << bits) * grid, t.scan_temp); /* Fig 13.9: scan the table */
        if (why != NULL)
            return why;
        radix_scatter<<<grid, p->block>>>(t.keys_local, t.values_local, dst_k, dst_v, t.table, N, shift, bits);
        CUDA_CHECK_LAUNCH();
        src_k = dst_k, src_v = dst_v;
    }
    return NULL;
}
