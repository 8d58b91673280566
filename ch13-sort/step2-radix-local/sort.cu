/* Exercise made from solutions/ch13-sort/step2-radix-local/sort.cu by `make exercises`: fill in each TODO. `make diff STEP=ch13-sort/step2-radix-local` compares. */
/* sort.cu - ch13 step 2: section 13.4's exercise. Each block sorts its keys by
 * the iteration's bit in shared memory (a local 1-bit radix iteration), counts
 * its local buckets into the table of Fig 13.6, the table is scanned, and each
 * block writes its local buckets to their global places: consecutive threads
 * write consecutive addresses (coalesced). Three launches per iteration. */
#include "scan.h"
#include "sort.h"

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
    unsigned int numOnesTotal;
    /* TODO(1): section 13.4: a local version of Fig 13.4's destination: scan the bits in the block (block_exclusive_scan), then a zero goes to threadIdx.x - ones before, a one to (blockDim.x - ones in total) + ones before; store key and value there in shared memory */
    block_exclusive_scan(bit, &numOnesTotal, warp_sums);
    const unsigned int numZerosTotal = blockDim.x - numOnesTotal;
    s_keys[threadIdx.x] = key;
    s_values[threadIdx.x] = value;
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

/* Fig 13.6, after the table's exclusive scan: table[d * gridDim.x + b] is where
 * block b's local bucket d starts in the output. Thread t holds the t-th key
 * of its block's sorted keys; consecutive threads of one bucket write
 * consecutive addresses. */
__global__ void radix_scatter(const unsigned int *keys_local, const unsigned int *values_local, unsigned int *keys_out,
                              unsigned int *values_out, const unsigned int *table, unsigned int N, unsigned int iter)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        const unsigned int key = keys_local[i];
        const unsigned int bit = (key >> iter) & 1;
        /* TODO(2): Fig 13.6: the block's local zeros are table[b+1] - table[b] (the scanned table); a key's rank in its local bucket is threadIdx.x minus where that bucket starts locally (0 or the local zeros); add the bucket's global start table[bit * gridDim.x + blockIdx.x] */
        const unsigned int dst = i; (void)bit; (void)table;
        keys_out[dst] = key;
        if (values_local != NULL)
            values_out[dst] = values_local[i];
    }
}

/* temp: the other key (value) buffer, the locally sorted keys (values), the
 * table (2 rows of gridDim.x, plus the total) and the scan's temporaries. */
typedef struct {
    unsigned int *keys_alt, *values_alt, *keys_local, *values_local, *table;
    void *scan_temp;
} radix_temp;

static radix_temp layout(sort_ws *ws, int64_t n, int with_values, const sort_params *p)
{
    radix_temp t;
    const int64_t blocks = (n + p->block - 1) / p->block, entries = 2 * blocks;
    t.keys_alt = (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)n);
    t.values_alt = with_values ? (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)n) : NULL;
    t.keys_local = (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)n);
    t.values_local = with_values ? (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)n) : NULL;
    t.table = (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)(entries + 1));
    t.scan_temp = sort_ws_take(ws, scan_temp_bytes(entries));
    return t;
}

size_t sort_temp_bytes(int64_t n, int with_values, const sort_params *p)
{
    sort_ws ws = {0};
    if (sort_check_block(p->block, 1) != NULL || n < 0)
        return 0;
    layout(&ws, n, with_values, p);
    return (size_t)ws.at;
}

const char *sort_launch(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                        unsigned int *values_out, int64_t n, void *temp_d, const sort_params *p)
{
    const char *why = sort_check_block(p->block, 1);
    if (why != NULL)
        return why;
    if (n < 0 || n > SORT_MAX_N)
        return "n must be 0 to 2^31 - 1 (unsigned int indices, as in Fig 13.4)";
    if (n == 0)
        return NULL;
    sort_ws ws = {(uintptr_t)temp_d};
    const radix_temp t = layout(&ws, n, values_in != NULL, p);
    const unsigned int N = (unsigned int)n, grid = (unsigned int)((n + p->block - 1) / p->block);
    const size_t shared = 2 * sizeof(unsigned int) * (size_t)p->block;
    const unsigned int *src_k = keys_in, *src_v = values_in;
    for (unsigned int iter = 0; iter < 32; iter++) {
        unsigned int *dst_k = iter % 2 ? keys_out : t.keys_alt, *dst_v = iter % 2 ? values_out : t.values_alt;
        radix_local_sort<<<grid, p->block, shared>>>(src_k, src_v, t.keys_local, t.values_local, t.table, N, iter);
        CUDA_CHECK_LAUNCH();
        why = scan_exclusive(t.table, t.table, 2 * (int64_t)grid, t.scan_temp); /* Fig 13.6: scan the table */
        if (why != NULL)
            return why;
        radix_scatter<<<grid, p->block>>>(t.keys_local, t.values_local, dst_k, dst_v, t.table, N, iter);
        CUDA_CHECK_LAUNCH();
        src_k = dst_k, src_v = dst_v;
    }
    return NULL;
}

/* Added by `make exercises`: ./run and the tests print this while the TODOs are undone. */
extern "C" const char *const lab_step_todos =
    "\n  Exercise: TODOs left in ch13-sort/step2-radix-local (`make diff STEP=ch13-sort/step2-radix-local` shows the solution):\n"
    "    ch13-sort/step2-radix-local/sort.cu:28: TODO(1) section 13.4: a local version of Fig 13.4's destination: scan the bits in the block (block_exclusive_scan), then a zero goes to threadIdx.x - ones before, a one to (blockDim.x - ones in total) + ones before; store key and value there in shared memory\n"
    "    ch13-sort/step2-radix-local/sort.cu:56: TODO(2) Fig 13.6: the block's local zeros are table[b+1] - table[b] (the scanned table); a key's rank in its local bucket is threadIdx.x minus where that bucket starts locally (0 or the local zeros); add the bucket's global start table[bit * gridDim.x + blockIdx.x]\n";
