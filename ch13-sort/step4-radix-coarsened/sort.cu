/* Exercise made from solutions/ch13-sort/step4-radix-coarsened/sort.cu by `make exercises`: fill in each TODO. `make diff STEP=ch13-sort/step4-radix-coarsened` compares. */
/* sort.cu - ch13 step 4: section 13.6's thread coarsening. Step 3 with each
 * thread owning `coarsen` keys: a block's tile holds blockDim.x * coarsen keys,
 * so its local buckets are longer (more of each write is coalesced) and there
 * are fewer blocks (a shorter table to scan), at the price of fewer threads. */
#include "scan.h"
#include "sort.h"

/* Shared-memory index with one word of padding per 32: thread t reading its
 * `coarsen` consecutive keys then hits distinct banks. */
#define PAD(x) ((x) + ((x) >> 5))

/* Fig 13.10: block b sorts its tile of blockDim.x * coarsen keys by the r-bit
 * digit at `shift` with r local 1-bit iterations. Thread t owns the
 * consecutive keys t*coarsen ... t*coarsen + coarsen-1 of the tile (in
 * registers), so one block scan of per-thread counts serves them all. */
__global__ void radix_local_sort(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_local,
                                 unsigned int *values_local, unsigned int *table, unsigned int N, unsigned int shift,
                                 unsigned int r, unsigned int coarsen)
{
    extern __shared__ unsigned int s_keys[]; /* PAD(tile) keys, PAD(tile) values, 2^r starts, 2^r ends */
    const unsigned int tile = blockDim.x * coarsen;
    unsigned int *s_values = s_keys + PAD(tile);
    unsigned int *s_start = s_values + PAD(tile), *s_end = s_start + (1u << r);
    __shared__ unsigned int warp_sums[33];
    const unsigned int base = blockIdx.x * tile;
    const unsigned int valid = min(tile, N - base); /* keys this block holds */
    const int has_values = values_in != NULL;
    for (unsigned int d = threadIdx.x; d < (1u << r); d += blockDim.x)
        s_start[d] = s_end[d] = 0; /* an empty bucket has size 0 */
    for (unsigned int j = 0; j < coarsen; j++) { /* coalesced: consecutive threads, consecutive keys */
        const unsigned int x = j * blockDim.x + threadIdx.x;
        if (x < valid) {
            s_keys[PAD(x)] = keys_in[base + x];
            if (has_values)
                s_values[PAD(x)] = values_in[base + x];
        }
    }
    __syncthreads(); /* the whole tile is in shared memory before threads take their keys */
    /* registers need a compile-time size: the loops run to SORT_MAX_COARSEN and skip j >= coarsen */
    unsigned int key[SORT_MAX_COARSEN], value[SORT_MAX_COARSEN];
    const unsigned int first = threadIdx.x * coarsen; /* this thread's first key in the tile */
#pragma unroll
    for (unsigned int j = 0; j < SORT_MAX_COARSEN; j++)
        if (j < coarsen) {
            key[j] = first + j < valid ? s_keys[PAD(first + j)] : 0;
            value[j] = has_values && first + j < valid ? s_values[PAD(first + j)] : 0;
        }
    for (unsigned int b = 0; b < r; b++) {
        /* TODO(1): section 13.6: count the ones among this thread's keys (past the end counts as a one), block_exclusive_scan the counts, then walk the keys in order: a zero goes to its tile position - ones before, a one to zeros in total + ones before, adding each bit to ones before as you go */
#pragma unroll
        for (unsigned int j = 0; j < SORT_MAX_COARSEN; j++)
            if (j < coarsen) {
                s_keys[PAD(first + j)] = key[j];
                if (has_values)
                    s_values[PAD(first + j)] = value[j];
            }
        __syncthreads(); /* every key is in its new place before anyone reads */
#pragma unroll
        for (unsigned int j = 0; j < SORT_MAX_COARSEN; j++)
            if (j < coarsen) {
                key[j] = s_keys[PAD(first + j)];
                if (has_values)
                    value[j] = s_values[PAD(first + j)];
            }
    }
    const unsigned int mask = (1u << r) - 1;
    for (unsigned int j = 0; j < coarsen; j++) { /* coalesced write-back; note where each digit's run starts and ends */
        const unsigned int x = j * blockDim.x + threadIdx.x;
        if (x < valid) {
            const unsigned int k = s_keys[PAD(x)], d = (k >> shift) & mask;
            if (x == 0 || ((s_keys[PAD(x - 1)] >> shift) & mask) != d)
                s_start[d] = x;
            if (x == valid - 1 || ((s_keys[PAD(x + 1)] >> shift) & mask) != d)
                s_end[d] = x + 1;
            keys_local[base + x] = k;
            if (has_values)
                values_local[base + x] = s_values[PAD(x)];
        }
    }
    __syncthreads();
    for (unsigned int d = threadIdx.x; d < (1u << r); d += blockDim.x) /* Fig 13.9: this block's column */
        table[d * gridDim.x + blockIdx.x] = s_end[d] - s_start[d];
}

/* Fig 13.10, after the table's scan: the block's locally sorted tile goes to
 * the output bucket by bucket; thread t handles keys t, t + blockDim.x, ...
 * so consecutive threads write consecutive addresses within a bucket. */
__global__ void radix_scatter(const unsigned int *keys_local, const unsigned int *values_local, unsigned int *keys_out,
                              unsigned int *values_out, const unsigned int *table, unsigned int N, unsigned int shift,
                              unsigned int r, unsigned int coarsen)
{
    extern __shared__ unsigned int s_tile[]; /* the tile's keys */
    __shared__ unsigned int s_start[1u << SORT_MAX_RADIX_BITS], s_global[1u << SORT_MAX_RADIX_BITS];
    const unsigned int tile = blockDim.x * coarsen, base = blockIdx.x * tile, valid = min(tile, N - base);
    const unsigned int mask = (1u << r) - 1;
    for (unsigned int d = threadIdx.x; d < (1u << r); d += blockDim.x)
        s_global[d] = table[d * gridDim.x + blockIdx.x]; /* where this block's bucket d starts in the output */
    for (unsigned int j = 0; j < coarsen; j++) {
        const unsigned int x = j * blockDim.x + threadIdx.x;
        if (x < valid)
            s_tile[x] = keys_local[base + x];
    }
    __syncthreads();
    for (unsigned int j = 0; j < coarsen; j++) {
        const unsigned int x = j * blockDim.x + threadIdx.x;
        if (x < valid) {
            const unsigned int d = (s_tile[x] >> shift) & mask;
            if (x == 0 || ((s_tile[x - 1] >> shift) & mask) != d)
                s_start[d] = x; /* local bucket d starts here */
        }
    }
    __syncthreads();
    /* TODO(2): Fig 13.10: for each of this thread's keys x = j * blockDim.x + threadIdx.x of the tile, write it (and its value) to the global start of its bucket (s_global[d]) plus its rank in the local bucket (x - s_start[d]) */
    for (unsigned int j = 0; j < coarsen; j++) {
        const unsigned int x = j * blockDim.x + threadIdx.x;
        if (x < valid) {
            keys_out[base + x] = s_tile[x];
            if (values_local != NULL)
                values_out[base + x] = values_local[base + x];
        }
    }
}

/* temp: the other key (value) buffer, the locally sorted keys (values), the
 * table (2^r rows of one entry per block, plus the total) and the scan's. */
typedef struct {
    unsigned int *keys_alt, *values_alt, *keys_local, *values_local, *table;
    void *scan_temp;
} radix_temp;

static radix_temp layout(sort_ws *ws, int64_t n, int with_values, const sort_params *p)
{
    radix_temp t;
    const int64_t tile = (int64_t)p->block * p->coarsen, blocks = (n + tile - 1) / tile;
    const int64_t entries = ((int64_t)1 << p->radix_bits) * blocks;
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
    if (p->coarsen < 1 || p->coarsen > SORT_MAX_COARSEN)
        return "coarsen must be 1 to 16 keys per thread";
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
    const unsigned int tile = (unsigned int)(p->block * p->coarsen), r = (unsigned int)p->radix_bits;
    const size_t shared_sort = sizeof(unsigned int) * (2 * (size_t)PAD(tile) + 2 * ((size_t)1 << r));
    const size_t shared_scatter = sizeof(unsigned int) * (size_t)tile;
    if ((why = sort_fit_kernel((const void *)radix_local_sort, p->block, shared_sort)) != NULL ||
        (why = sort_fit_kernel((const void *)radix_scatter, p->block, shared_scatter)) != NULL)
        return why;
    sort_ws ws = {(uintptr_t)temp_d};
    const radix_temp t = layout(&ws, n, values_in != NULL, p);
    const unsigned int N = (unsigned int)n, grid = (unsigned int)((n + tile - 1) / tile), iters = (32 + r - 1) / r;
    const unsigned int *src_k = keys_in, *src_v = values_in;
    for (unsigned int iter = 0; iter < iters; iter++) {
        const unsigned int shift = iter * r, bits = min(r, 32 - shift); /* the last digit may be narrower */
        const int to_out = (iters - 1 - iter) % 2 == 0; /* ping-pong so that the last iteration writes keys_out */
        unsigned int *dst_k = to_out ? keys_out : t.keys_alt, *dst_v = to_out ? values_out : t.values_alt;
        radix_local_sort<<<grid, p->block, shared_sort>>>(src_k, src_v, t.keys_local, t.values_local, t.table, N, shift,
                                                          bits, (unsigned int)p->coarsen);
        CUDA_CHECK_LAUNCH();
        why = scan_exclusive(t.table, t.table, ((int64_t)1 << bits) * grid, t.scan_temp); /* Fig 13.9: scan the table */
        if (why != NULL)
            return why;
        radix_scatter<<<grid, p->block, shared_scatter>>>(t.keys_local, t.values_local, dst_k, dst_v, t.table, N, shift,
                                                          bits, (unsigned int)p->coarsen);
        CUDA_CHECK_LAUNCH();
        src_k = dst_k, src_v = dst_v;
    }
    return NULL;
}

/* Added by `make exercises`: ./run and the tests print this while the TODOs are undone. */
extern "C" const char *const lab_step_todos =
    "\n  Exercise: TODOs left in ch13-sort/step4-radix-coarsened (`make diff STEP=ch13-sort/step4-radix-coarsened` shows the solution):\n"
    "    ch13-sort/step4-radix-coarsened/sort.cu:50: TODO(1) section 13.6: count the ones among this thread's keys (past the end counts as a one), block_exclusive_scan the counts, then walk the keys in order: a zero goes to its tile position - ones before, a one to zeros in total + ones before, adding each bit to ones before as you go\n"
    "    ch13-sort/step4-radix-coarsened/sort.cu:114: TODO(2) Fig 13.10: for each of this thread's keys x = j * blockDim.x + threadIdx.x of the tile, write it (and its value) to the global start of its bucket (s_global[d]) plus its rank in the local bucket (x - s_start[d])\n";
