/* sort.cu - ch13 step 4: step 3 with each thread owning `coarsen` keys
 * (thread coarsening), so a block sorts a tile of blockDim.x * coarsen keys.
 * Fig 13.10 (section 13.6). Longer tiles make longer local buckets (more of
 * each write is coalesced) and fewer blocks (a shorter table to scan), at the
 * price of fewer threads. radix_local_sort reads as Fig 13.10's phases:
 * load_tile, take_keys, split_tile_by_bit (r times), store_tile, then the
 * table's column; radix_scatter: load_sorted_tile, note_bucket_starts,
 * scatter_tile. */
#include "scan.h"
#include "sort_host.h"

/* Shared-memory index with one word of padding per 32: thread t reading its
 * `coarsen` consecutive keys then hits distinct banks. */
#define PAD(x) ((x) + ((x) >> 5))

/* The block's tile, keys [base, base + valid), into shared memory, coalesced:
 * consecutive threads read consecutive keys (x = j * blockDim.x + threadIdx.x). */
static __device__ __forceinline__ void load_tile(const unsigned int *keys_in, const unsigned int *values_in,
                                                 unsigned int *s_keys, unsigned int *s_values, unsigned int base,
                                                 unsigned int valid, unsigned int coarsen)
{
    for (unsigned int j = 0; j < coarsen; j++) {
        const unsigned int x = j * blockDim.x + threadIdx.x;
        if (x < valid) {
            s_keys[PAD(x)] = keys_in[base + x];
            if (values_in != NULL)
                s_values[PAD(x)] = values_in[base + x];
        }
    }
}

/* This thread's consecutive keys first ... first + coarsen - 1 of the tile
 * into registers: key[j], value[j] (keys past the end of the tile: 0).
 * Register arrays need a compile-time size: the loop runs to
 * SORT_MAX_COARSEN and skips j >= coarsen. */
static __device__ __forceinline__ void take_keys(unsigned int *key, unsigned int *value, const unsigned int *s_keys,
                                                 const unsigned int *s_values, unsigned int first, unsigned int valid,
                                                 unsigned int coarsen, int has_values)
{
#pragma unroll
    for (unsigned int j = 0; j < SORT_MAX_COARSEN; j++)
        if (j < coarsen) {
            key[j] = first + j < valid ? s_keys[PAD(first + j)] : 0;
            value[j] = has_values && first + j < valid ? s_values[PAD(first + j)] : 0;
        }
}

/* Section 13.6: one local 1-bit split of the whole tile by bit `bit`. The
 * thread's keys key[0 .. coarsen-1] are tile positions first, first + 1, ...;
 * one block scan of each thread's count of ones gives every thread the ones
 * before its first key, and each key goes where the stable split puts it in
 * s_keys (s_values): zeros first, in tile order, then ones. Keys past the end
 * (position >= valid) count as ones, so they stay behind every real key. */
static __device__ __forceinline__ void split_tile_by_bit(const unsigned int *key, const unsigned int *value,
                                                         unsigned int *s_keys, unsigned int *s_values,
                                                         unsigned int *warp_sums, unsigned int first,
                                                         unsigned int valid, unsigned int tile, unsigned int bit_at,
                                                         unsigned int coarsen, int has_values)
{
    /* exercise: split_tile_by_bit(), section 13.6: count the ones (bit bit_at) among this thread's keys key[j], j < coarsen, at tile positions first + j (a position >= valid counts as a one), block_exclusive_scan the counts (every thread calls it), then walk the keys in order: a zero goes to its tile position - ones before, a one to zeros in total (tile - ones in total) + ones before, adding each bit to ones before as you go; store key[j] at s_keys[PAD(dst)] (and, with has_values, value[j] at s_values[PAD(dst)]) */
    /* hint: the scan of the counts gives the ones before this thread's first key; the ones before its key j add the bits of its keys 0 .. j-1, because a thread's keys are consecutive in the tile */
    /* hint: the keys past the end count as ones, so the tile is full (zeros in total is tile - ones in total) and they land after every real key, where no one reads them */
    /* hint: loop as take_keys does, to SORT_MAX_COARSEN with `if (j < coarsen)`, so key[] and value[] stay in registers; PAD spreads a thread's consecutive positions over distinct banks */
    unsigned int ones = 0;
#pragma unroll
    for (unsigned int j = 0; j < SORT_MAX_COARSEN; j++)
        if (j < coarsen)
            ones += first + j < valid ? (key[j] >> bit_at) & 1 : 1; /* past the end: a one */
    unsigned int numOnesTotal;
    unsigned int numOnesBefore = block_exclusive_scan(ones, &numOnesTotal, warp_sums);
    const unsigned int numZerosTotal = tile - numOnesTotal;
#pragma unroll
    for (unsigned int j = 0; j < SORT_MAX_COARSEN; j++)
        if (j < coarsen) {
            const unsigned int x = first + j;
            const unsigned int bit = x < valid ? (key[j] >> bit_at) & 1 : 1;
            const unsigned int dst = (bit == 0) ? (x - numOnesBefore) : (numZerosTotal + numOnesBefore);
            numOnesBefore += bit;
            s_keys[PAD(dst)] = key[j];
            if (has_values)
                s_values[PAD(dst)] = value[j];
        }
    /* end exercise */
}

/* After a split: this thread's keys are again the ones at its positions. */
static __device__ __forceinline__ void reload_keys(unsigned int *key, unsigned int *value, const unsigned int *s_keys,
                                                   const unsigned int *s_values, unsigned int first,
                                                   unsigned int coarsen, int has_values)
{
#pragma unroll
    for (unsigned int j = 0; j < SORT_MAX_COARSEN; j++)
        if (j < coarsen) {
            key[j] = s_keys[PAD(first + j)];
            if (has_values)
                value[j] = s_values[PAD(first + j)];
        }
}

/* The sorted tile back to global memory (keys_local), coalesced; on the way
 * each key notes where the run of its digit, its local bucket, starts and ends. */
static __device__ __forceinline__ void store_tile(unsigned int *keys_local, unsigned int *values_local,
                                                  const unsigned int *s_keys, const unsigned int *s_values,
                                                  unsigned int *s_start, unsigned int *s_end, unsigned int base,
                                                  unsigned int valid, unsigned int shift, unsigned int r,
                                                  unsigned int coarsen)
{
    for (unsigned int j = 0; j < coarsen; j++) {
        const unsigned int x = j * blockDim.x + threadIdx.x;
        if (x < valid) {
            const unsigned int k = s_keys[PAD(x)], d = sort_digit(k, shift, r);
            if (x == 0 || sort_digit(s_keys[PAD(x - 1)], shift, r) != d)
                s_start[d] = x;
            if (x == valid - 1 || sort_digit(s_keys[PAD(x + 1)], shift, r) != d)
                s_end[d] = x + 1;
            keys_local[base + x] = k;
            if (values_local != NULL)
                values_local[base + x] = s_values[PAD(x)];
        }
    }
}

/* Fig 13.10: block b sorts its tile by the r-bit digit at `shift` with r local
 * 1-bit splits. Thread t owns the consecutive keys t*coarsen ...
 * t*coarsen + coarsen-1 of the tile (in registers), so one block scan of
 * per-thread counts serves them all. */
__global__ void radix_local_sort(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_local,
                                 unsigned int *values_local, unsigned int *table, unsigned int N, unsigned int shift,
                                 unsigned int r, unsigned int coarsen)
{
    extern __shared__ unsigned int s_keys[]; /* PAD(tile) keys, PAD(tile) values, 2^r starts, 2^r ends */
    const unsigned int tile = blockDim.x * coarsen, base = blockIdx.x * tile;
    const unsigned int valid = min(tile, N - base); /* keys this block holds */
    unsigned int *s_values = s_keys + PAD(tile);
    unsigned int *s_start = s_values + PAD(tile), *s_end = s_start + (1u << r);
    __shared__ unsigned int warp_sums[33];
    const int has_values = values_in != NULL;
    const unsigned int first = threadIdx.x * coarsen; /* this thread's first key in the tile */
    unsigned int key[SORT_MAX_COARSEN], value[SORT_MAX_COARSEN];
    for (unsigned int d = threadIdx.x; d < (1u << r); d += blockDim.x)
        s_start[d] = s_end[d] = 0; /* an empty bucket has size 0 */
    load_tile(keys_in, values_in, s_keys, s_values, base, valid, coarsen);
    __syncthreads(); /* the whole tile is in shared memory before threads take their keys */
    take_keys(key, value, s_keys, s_values, first, valid, coarsen, has_values);
    for (unsigned int b = 0; b < r; b++) {
        split_tile_by_bit(key, value, s_keys, s_values, warp_sums, first, valid, tile, shift + b, coarsen, has_values);
        __syncthreads(); /* every key is in its new place before anyone reads */
        reload_keys(key, value, s_keys, s_values, first, coarsen, has_values);
    }
    store_tile(keys_local, values_local, s_keys, s_values, s_start, s_end, base, valid, shift, r, coarsen);
    __syncthreads();
    for (unsigned int d = threadIdx.x; d < (1u << r); d += blockDim.x) /* Fig 13.9: this block's column */
        table[d * gridDim.x + blockIdx.x] = s_end[d] - s_start[d];
}

/* The block's locally sorted tile (keys only) into shared memory, coalesced. */
static __device__ __forceinline__ void load_sorted_tile(const unsigned int *keys_local, unsigned int *s_tile,
                                                        unsigned int base, unsigned int valid, unsigned int coarsen)
{
    for (unsigned int j = 0; j < coarsen; j++) {
        const unsigned int x = j * blockDim.x + threadIdx.x;
        if (x < valid)
            s_tile[x] = keys_local[base + x];
    }
}

/* Where each local bucket starts in the sorted tile: at the first key of its digit's run. */
static __device__ __forceinline__ void note_bucket_starts(const unsigned int *s_tile, unsigned int *s_start,
                                                          unsigned int valid, unsigned int shift, unsigned int r,
                                                          unsigned int coarsen)
{
    for (unsigned int j = 0; j < coarsen; j++) {
        const unsigned int x = j * blockDim.x + threadIdx.x;
        if (x < valid) {
            const unsigned int d = sort_digit(s_tile[x], shift, r);
            if (x == 0 || sort_digit(s_tile[x - 1], shift, r) != d)
                s_start[d] = x; /* local bucket d starts here */
        }
    }
}

/* Fig 13.10's writes: the tile goes to the output bucket by bucket; thread t
 * handles keys t, t + blockDim.x, ... so consecutive threads write consecutive
 * addresses within a bucket. s_global[d]: where this block's bucket d starts
 * in the output (the scanned table); s_start[d]: where it starts in the tile. */
static __device__ __forceinline__ void scatter_tile(const unsigned int *s_tile, const unsigned int *values_local,
                                                    unsigned int *keys_out, unsigned int *values_out,
                                                    const unsigned int *s_global, const unsigned int *s_start,
                                                    unsigned int N, unsigned int base, unsigned int valid,
                                                    unsigned int shift, unsigned int r, unsigned int coarsen)
{
    /* exercise: scatter_tile(), Fig 13.10: for each of this thread's keys x = j * blockDim.x + threadIdx.x of the tile (j < coarsen, x < valid), d its digit (sort_digit(s_tile[x], shift, r)), write s_tile[x] to keys_out at the global start of its bucket (s_global[d]) plus its rank in the local bucket (x - s_start[d]), and, when values_local is not NULL, values_local[base + x] to values_out there; N is the number of keys: skip a destination >= N (never after a right local sort; a wrong one then fails the check instead of faulting) */
    /* hint: consecutive threads take consecutive x, so the keys of one bucket go to consecutive addresses: the writes are coalesced (Fig 13.10's point) */
    /* hint: s_global and s_start are both indexed by the digit: one addition and one subtraction per key give its place */
    for (unsigned int j = 0; j < coarsen; j++) {
        const unsigned int x = j * blockDim.x + threadIdx.x;
        if (x < valid) {
            const unsigned int key = s_tile[x], d = sort_digit(key, shift, r);
            const unsigned int dst = s_global[d] + x - s_start[d];
            if (dst >= N) /* never, after a correct local sort; a wrong one then fails the check, not the GPU */
                continue;
            keys_out[dst] = key;
            if (values_local != NULL)
                values_out[dst] = values_local[base + x];
        }
    }
    /* end exercise */
}

/* Fig 13.10, after the table's scan: the block's locally sorted tile goes to its buckets' places. */
__global__ void radix_scatter(const unsigned int *keys_local, const unsigned int *values_local, unsigned int *keys_out,
                              unsigned int *values_out, const unsigned int *table, unsigned int N, unsigned int shift,
                              unsigned int r, unsigned int coarsen)
{
    extern __shared__ unsigned int s_tile[]; /* the tile's keys */
    __shared__ unsigned int s_start[1u << SORT_MAX_RADIX_BITS], s_global[1u << SORT_MAX_RADIX_BITS];
    const unsigned int tile = blockDim.x * coarsen, base = blockIdx.x * tile, valid = min(tile, N - base);
    for (unsigned int d = threadIdx.x; d < (1u << r); d += blockDim.x)
        s_global[d] = table[d * gridDim.x + blockIdx.x]; /* where this block's bucket d starts in the output */
    load_sorted_tile(keys_local, s_tile, base, valid, coarsen);
    __syncthreads();
    note_bucket_starts(s_tile, s_start, valid, shift, r, coarsen);
    __syncthreads();
    scatter_tile(s_tile, values_local, keys_out, values_out, s_global, s_start, N, base, valid, shift, r, coarsen);
}

/* Shared memory of the two kernels: the padded tile's keys and values and 2^r
 * bucket bounds; the scatter's tile of keys. */
static size_t local_sort_shared(const sort_params *p)
{
    const unsigned int tile = (unsigned int)(p->block * p->coarsen);
    return sizeof(unsigned int) * (2 * (size_t)PAD(tile) + 2 * ((size_t)1 << p->radix_bits));
}

static size_t scatter_shared(const sort_params *p)
{
    return sizeof(unsigned int) * (size_t)p->block * (size_t)p->coarsen;
}

/* One iteration per digit, from the least significant, each reading the
 * last one's output (sort_run, sort_host.c). */
static const char *tile_pass(const sort_pass *pass, const sort_ws *ws, const sort_params *p)
{
    const unsigned int r = (unsigned int)p->radix_bits, shift = (unsigned int)pass->index * r;
    const unsigned int bits = min(r, 32 - shift); /* the last digit may be narrower */
    const unsigned int tile = (unsigned int)(p->block * p->coarsen), coarsen = (unsigned int)p->coarsen;
    const unsigned int N = (unsigned int)pass->n, grid = (unsigned int)sort_ceil_div(pass->n, tile);
    radix_local_sort<<<grid, p->block, local_sort_shared(p)>>>(pass->keys_in, pass->values_in, ws->keys_local,
                                                               ws->values_local, ws->table, N, shift, bits, coarsen);
    CUDA_CHECK_LAUNCH();
    const char *why = scan_exclusive(ws->table, ws->table, ((int64_t)1 << bits) * grid, ws->scan_temp); /* Fig 13.9 */
    if (why != NULL)
        return why;
    radix_scatter<<<grid, p->block, scatter_shared(p)>>>(ws->keys_local, ws->values_local, pass->keys_out,
                                                         pass->values_out, ws->table, N, shift, bits, coarsen);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* ---- what ./run and the tests ask of this step ---------------------------- */

/* Up to 16 keys and values per thread in registers, and a tile in shared
 * memory: a large block may not fit the GPU (the message says which). */
static const char *fit(int64_t n, const sort_params *p, int with_values)
{
    (void)n;
    (void)with_values;
    const char *why = lab_fit_kernel((const void *)radix_local_sort, p->block, local_sort_shared(p));
    return why != NULL ? why : lab_fit_kernel((const void *)radix_scatter, p->block, scatter_shared(p));
}

/* the other key (value) buffer, the locally sorted keys (values), and the
 * table: 2^r rows of one entry per tile */
static void workspace(int64_t n, const sort_params *p, sort_ws_need *need)
{
    need->ping_pong = 1;
    need->local_copy = 1;
    need->table = ((int64_t)1 << p->radix_bits) * sort_ceil_div(n, (int64_t)p->block * p->coarsen);
}

static void describe(const sort_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "block=%d coarsen=%d bits=%d tile=%d", p->block, p->coarsen, p->radix_bits,
             p->block * p->coarsen);
}

/* Step 4's facts: ceil(32 / r) iterations over tiles of block x coarsen keys (sort.h). */
const sort_step sort_step_info = {
    .lab = {.about = "Step 4 sorts in ceil(32 / r) iterations of an r-bit digit (--bits r, 1 to 8) over\n"
                     "tiles of block x coarsen keys (--coarsen 1 to 16); --block must be whole warps. A\n"
                     "block whose registers or shared memory do not fit the GPU is refused, saying which.\n"
                     "--example sorts Fig 13.1's keys.\n",
            .default_n = 1 << 24,
            .max_n = SORT_MAX_N,
            .max_n_why = SORT_MAX_N_WHY},
    .takes = SORT_TAKES_EVERY | SORT_TAKES_BITS | SORT_TAKES_COARSEN,
    /* 16 keys per thread: 4096-key tiles keep 256 buckets about 16 keys long */
    .defaults = {.block = 256, .coarsen = 16, .radix_bits = 8},
    .needs = {.block = LAB_BLOCK_WARPS, .workspace = workspace, .fit = fit},
    .describe = describe,
    .sorts = {.passes = sort_radix_passes, .pass = tile_pass},
};
