/* sort.cu - ch13 step 8 (beyond the book): step 5's merge sort, with each
 * block sorting its tile in registers and every merge done by chapter 12
 * step 6's merge path: the merge sort at CUB's speed.
 * Beyond the book: the shape of N. Satish, M. Harris, M. Garland, "Designing
 * Efficient Sorting Algorithms for Manycore GPUs" (IPDPS 2009) (a block sort
 * of tiles, then merge passes that double the sorted runs), with the merges
 * of Green et al. and Odeh et al. (2012), as CUB's DeviceMergeSort does it:
 *   block_sort_*   a block of BLOCK_SORT_THREADS sorts one tile of
 *                  BLOCK_SORT_TILE keys: each thread sorts its MP_ITEMS keys
 *                  in registers (sort_thread_items), then
 *                  log2(BLOCK_SORT_THREADS) rounds (merge_round) merge runs of
 *                  1, 2, 4, ... threads' keys by the merge path in shared memory;
 *   each pass      partition_pass co-ranks the start of every output tile
 *                  (MP_TILE keys) in its pair of runs (merge_path_search), then
 *                  merge_pass_* merge each tile with merge_tile: all four
 *                  helpers come from
 *                  solutions/ch12-merge/step6-merge-path/merge_path.cuh,
 *                  included, not copied.
 * Keys arrive as unsigned ints in the transform's order (sort_ref.h) and
 * compare as such (MP_UINT): no conversion pass. Stable; values move with
 * their keys. Both tiles are compile-time: the shape below. */

#include "shape.h"        /* the shape: the merges' and the block sort's tiles, by the GPU built for */
#include "merge_path.cuh" /* ch12 step 6's merge path: merge_path_search, merge_thread_items, merge_tile */
#include "sort_host.h"

/* The block sort's tile, and its shared array with the slack the register merge may read (as MP_SLOTS). */
#define BLOCK_SORT_TILE  (BLOCK_SORT_THREADS * MP_ITEMS)
#define BLOCK_SORT_SLOTS ((BLOCK_SORT_TILE + MP_ITEMS + 1 + 3) / 4 * 4)
#if BLOCK_SORT_THREADS % MP_THREADS != 0 || (BLOCK_SORT_THREADS & (BLOCK_SORT_THREADS - 1)) != 0
#error "BLOCK_SORT_THREADS: a power of two and a multiple of MP_THREADS, so each run width is whole merge tiles"
#endif

/* The keys kernels are compiled for a full SM (32 registers a thread): as many
 * blocks as the SM holds threads for, per architecture (sort.h), so no
 * architecture's ptxas ignores the bound; on sm_90, 2048 / 512 = 4 merge
 * blocks (chapter 12 step 6's MP_KEYS_BLOCKS) and 2048 / 1024 = 2 block sorts.
 * The pairs kernels take what they need. */
#define KEYS_BLOCKS            (SORT_SM_THREADS / MP_THREADS)
#define BLOCK_SORT_KEYS_BLOCKS (SORT_SM_THREADS / BLOCK_SORT_THREADS > 0 ? SORT_SM_THREADS / BLOCK_SORT_THREADS : 1)

/* ---- the block sort ------------------------------------------------------------ */

/* merge_path.cuh's load_tile strides by the merge's MP_THREADS and loads with
 * L2's prefetch hint, measured for the merges only; the block sort's block is
 * BLOCK_SORT_THREADS, so it loads its tile itself. Its copy out is
 * copy_out's, given BLOCK_SORT_THREADS. */

/* The tile into shared S[0, valid) (values into S_v), as load_tile: striped,
 * so a warp's load reads 128 contiguous bytes, all MP_ITEMS in flight at once. */
static __device__ __forceinline__ void load_sort_tile(const int *in, const int *in_values, int valid, int *S, int *S_v,
                                                      const int has_values)
{
    int k[MP_ITEMS], v[MP_ITEMS];
#pragma unroll
    for (int i = 0; i < MP_ITEMS; i++) {
        const int at = i * BLOCK_SORT_THREADS + threadIdx.x;
        k[i] = v[i] = 0; /* defined everywhere: ptxas then keeps them all in registers */
        if (at < valid) {
            k[i] = in[at];
            if (has_values)
                v[i] = in_values[at];
        }
    }
#pragma unroll
    for (int i = 0; i < MP_ITEMS; i++) {
        const int at = i * BLOCK_SORT_THREADS + threadIdx.x;
        if (at < valid) {
            S[at] = k[i];
            if (has_values)
                S_v[at] = v[i];
        }
    }
}

/* The thread's MP_ITEMS consecutive keys of the staged tile (conflict-free:
 * MP_ITEMS is odd). Past the tile's `valid` keys a thread repeats its largest
 * key, which the stable sort keeps after its real ones; no merge reads them. */
static __device__ __forceinline__ void load_thread_items(const int *S, const int *S_v, int valid, int keys[MP_ITEMS],
                                                         int values[MP_ITEMS], const int has_values)
{
    int top = 0;
#pragma unroll
    for (int i = 0; i < MP_ITEMS; i++) {
        const int at = threadIdx.x * MP_ITEMS + i;
        keys[i] = at < valid || i == 0 ? S[at] : top;
        if (has_values)
            values[i] = S_v[at];
        top = i == 0 || key_less(top, keys[i], MP_UINT) ? keys[i] : top;
    }
}

/* A thread's MP_ITEMS keys (and values) sorted in registers, stably. */
static __device__ __forceinline__ void sort_thread_items(int keys[MP_ITEMS], int values[MP_ITEMS], const int has_values)
{
    /* exercise: sort_thread_items(), a stable sort of the thread's MP_ITEMS keys in registers: odd-even transposition (section 13.8, this chapter's step 6): MP_ITEMS rounds; round r compare-exchanges the neighbours (j, j + 1) for j = r % 2, r % 2 + 2, ... < MP_ITEMS - 1, keys comparing as unsigned (key_less(b, a, MP_UINT): b's key strictly below a's), and, with has_values, each value moving with its key */
    /* hint: swap keys[j] and keys[j + 1] only when keys[j + 1] is strictly less: equal keys never swap, so the network is stable */
    /* hint: #pragma unroll on both loops, so every index is a constant and the arrays stay in registers (a run-time index would move them to local memory) */
    /* hint: swap with selects (a ? b : c on both elements) rather than a branch, and swap values[j] and values[j + 1] under the same condition as their keys */
#pragma unroll
    for (int round = 0; round < MP_ITEMS; round++) {
#pragma unroll
        for (int j = round & 1; j + 1 < MP_ITEMS; j += 2) {
            const int lo = keys[j], hi = keys[j + 1];
            const int swap = key_less(hi, lo, MP_UINT); /* equal keys stay: stable */
            keys[j] = swap ? hi : lo;
            keys[j + 1] = swap ? lo : hi;
            if (has_values) {
                const int v_lo = values[j], v_hi = values[j + 1];
                values[j] = swap ? v_hi : v_lo;
                values[j + 1] = swap ? v_lo : v_hi;
            }
        }
    }
    /* exercise stub: (void)keys, (void)values, (void)has_values; */
    /* end exercise */
}

/* One round of the block sort: the sorted runs of `run` threads' keys merge
 * in pairs, each thread making MP_ITEMS outputs of its pair's merge. */
static __device__ __forceinline__ void merge_round(int keys[MP_ITEMS], int values[MP_ITEMS], int *S, int *S_v, int run,
                                                   int valid, const int has_values)
{
    stage_thread_items(keys, values, S, S_v, has_values); /* the runs, in S, in order */
    /* exercise: merge_round()'s merge: this thread's pair of runs starts at thread first = threadIdx.x & ~(2 * run - 1); A = S[a_begin, a_end) is its first run (run * MP_ITEMS keys from first * MP_ITEMS), B = S[a_end, b_end) the next, each end clamped to valid; the thread's outputs start diag = (threadIdx.x - first) * MP_ITEMS into the pair's merge (clamped to its size): find how many come from A with merge_path_search, make the MP_ITEMS outputs into keys[] with merge_thread_items (MP_UINT keys, A the earlier run), then, with has_values, values[i] = S_v[from[i]] */
    /* hint: a round merges runs of `run` threads' keys in pairs; S holds the tile in output order (stage_thread_items), so a pair is two neighbouring stretches of S, the second short or empty at the tile's end */
    /* hint: clamp every end to valid (a_begin, then a_end = a_begin + run * MP_ITEMS, then b_end = a_end + run * MP_ITEMS) and the diagonal to b_end - a_begin, so a thread past the keys reads nothing it should not */
    /* hint: merge_path_search counts within the pair (A and B from their own starts); merge_thread_items wants positions in S: A's front past the A outputs it counted, B's front past the rest of the diagonal. A first wins ties: the sort stays stable */
    const int first = threadIdx.x & ~(2 * run - 1); /* the pair's first thread */
    const int a_begin = min(first * MP_ITEMS, valid);
    const int a_end = min(a_begin + run * MP_ITEMS, valid);
    const int b_end = min(a_end + run * MP_ITEMS, valid);
    const int diag = min(((int)threadIdx.x - first) * MP_ITEMS, b_end - a_begin);
    const int a = merge_path_search(diag, S + a_begin, a_end - a_begin, S + a_end, b_end - a_end, MP_UINT);
    int from[MP_ITEMS];
    merge_thread_items(S, a_begin + a, a_end, a_end + diag - a, b_end, keys, from, MP_UINT);
    if (has_values) {
#pragma unroll
        for (int i = 0; i < MP_ITEMS; i++)
            values[i] = S_v[from[i]];
    }
    /* exercise stub: (void)run, (void)valid; */
    /* end exercise */
}

/* One block per tile: keys_out[t * BLOCK_SORT_TILE, + valid) = that tile of
 * keys_in, sorted stably, values with them. */
static __device__ __forceinline__ void block_sort_tile(const int *keys_in, const int *values_in, int *keys_out,
                                                       int *values_out, int n, const int has_values,
                                                       const int vector_ok)
{
    extern __shared__ int4 mp_shared[];
    int *S = (int *)mp_shared, *S_v = S + BLOCK_SORT_SLOTS;
    const int64_t begin = (int64_t)blockIdx.x * BLOCK_SORT_TILE;
    const int valid = (int)min((int64_t)BLOCK_SORT_TILE, (int64_t)n - begin);
    load_sort_tile(keys_in + begin, values_in + begin, valid, S, S_v, has_values);
    __syncthreads(); /* the tile is staged before the threads pick their keys */
    int keys[MP_ITEMS], values[MP_ITEMS];
    load_thread_items(S, S_v, valid, keys, values, has_values);
    sort_thread_items(keys, values, has_values);
    for (int run = 1; run < BLOCK_SORT_THREADS; run *= 2) /* runs of 1, 2, 4, ... threads' keys */
        merge_round(keys, values, S, S_v, run, valid, has_values);
    stage_thread_items(keys, values, S, S_v, has_values); /* the sorted tile, in S in order */
    copy_out(S, keys_out + begin, valid, vector_ok, BLOCK_SORT_THREADS);
    if (has_values)
        copy_out(S_v, values_out + begin, valid, vector_ok, BLOCK_SORT_THREADS);
}

__global__ void __launch_bounds__(BLOCK_SORT_THREADS, BLOCK_SORT_KEYS_BLOCKS)
    block_sort_keys(const unsigned int *keys_in, unsigned int *keys_out, int n, int vector_ok)
{
    block_sort_tile((const int *)keys_in, NULL, (int *)keys_out, NULL, n, 0, vector_ok);
}

__global__ void __launch_bounds__(BLOCK_SORT_THREADS)
    block_sort_pairs(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                     unsigned int *values_out, int n, int vector_ok)
{
    block_sort_tile((const int *)keys_in, (const int *)values_in, (int *)keys_out, (int *)values_out, n, 1, vector_ok);
}

/* ---- the merge passes -------------------------------------------------------------- */

/* Output tile t of a pass over runs of `width` keys lies in the pair of runs
 * that starts at `pair` (A = its first m keys, B the next nb), `local` outputs
 * into that pair's merge. width is a multiple of MP_TILE, so no tile straddles
 * two pairs. */
typedef struct {
    int64_t pair;
    int m, nb, local, c_len;
} pass_tile;

static __device__ __forceinline__ pass_tile pass_tile_of(int64_t t, int n, int width)
{
    pass_tile g;
    const int64_t begin = t * MP_TILE, span = 2 * (int64_t)width;
    g.pair = begin / span * span;
    g.m = (int)min((int64_t)width, n - g.pair);
    g.nb = (int)min((int64_t)width, n - g.pair - g.m);
    g.local = (int)(begin - g.pair);
    g.c_len = (int)min((int64_t)MP_TILE, (int64_t)g.m + g.nb - g.local);
    return g;
}

/* One thread per output tile: part[t] = how many of its pair's A the pair's
 * first `local` outputs hold (a pair's last tile ends at the end of A). */
__global__ void partition_pass(const unsigned int *keys, int n, int width, int ntiles, int *part)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < ntiles) {
        const pass_tile g = pass_tile_of(t, n, width);
        const int *A = (const int *)keys + g.pair;
        part[t] = merge_path_search(g.local, A, g.m, A + g.m, g.nb, MP_UINT);
    }
}

/* Block t merges output tile t of its pair of runs (merge_path.cuh's merge_tile). */
static __device__ __forceinline__ void merge_pass_body(const int *keys, const int *values, int *keys_out,
                                                       int *values_out, int n, int width, const int *part,
                                                       const int has_values, const int vector_ok)
{
    const pass_tile g = pass_tile_of(blockIdx.x, n, width);
    const int *A = keys + g.pair, *A_values = values + g.pair;
    merge_tile(A, A_values, g.m, A + g.m, A_values + g.m, g.nb, keys_out + g.pair, values_out + g.pair, g.local,
               g.c_len, part + blockIdx.x, has_values, MP_UINT, vector_ok);
}

__global__ void __launch_bounds__(MP_THREADS, KEYS_BLOCKS)
    merge_pass_keys(const unsigned int *keys, unsigned int *keys_out, int n, int width, const int *part, int vector_ok)
{
    merge_pass_body((const int *)keys, NULL, (int *)keys_out, NULL, n, width, part, 0, vector_ok);
}

__global__ void __launch_bounds__(MP_THREADS)
    merge_pass_pairs(const unsigned int *keys, const unsigned int *values, unsigned int *keys_out,
                     unsigned int *values_out, int n, int width, const int *part, int vector_ok)
{
    merge_pass_body((const int *)keys, (const int *)values, (int *)keys_out, (int *)values_out, n, width, part, 1,
                    vector_ok);
}

/* ---- the passes: the block sort, then the merge passes (sort_run's loop) ------------- */

/* The block sort holds one shared tile of keys (and one of values). */
static inline size_t block_sort_shared_bytes(int has_values)
{
    return sizeof(int) * (size_t)BLOCK_SORT_SLOTS * (has_values ? 2 : 1);
}

/* Pass 0 sorts the tiles; pass w > 0 merges runs of BLOCK_SORT_TILE * 2^(w-1)
 * keys in pairs, a block per MP_TILE outputs; each reads the last one's output
 * (sort_run, sort_host.c). */
static const char *merge_sort_path_pass(const sort_pass *pass, const sort_ws *ws, const sort_params *p)
{
    (void)p;
    const int n = (int)pass->n, ntiles = (int)sort_ceil_div(pass->n, MP_TILE);
    const int has_values = pass->values_in != NULL;
    const int vector_ok = mp_aligned16(pass->keys_out) && mp_aligned16(pass->values_out);
    if (pass->index == 0) {
        const unsigned int sort_tiles = (unsigned int)sort_ceil_div(pass->n, BLOCK_SORT_TILE);
        if (has_values)
            block_sort_pairs<<<sort_tiles, BLOCK_SORT_THREADS, block_sort_shared_bytes(1)>>>(
                pass->keys_in, pass->values_in, pass->keys_out, pass->values_out, n, vector_ok);
        else
            block_sort_keys<<<sort_tiles, BLOCK_SORT_THREADS, block_sort_shared_bytes(0)>>>(
                pass->keys_in, pass->keys_out, n, vector_ok);
        CUDA_CHECK_LAUNCH();
        return NULL;
    }
    const int width = BLOCK_SORT_TILE << (pass->index - 1);
    int *part = (int *)ws->words;
#ifndef MP_NO_PARTITION /* tests/bench/harness/mergepath's ladder: blocks search their own bounds (docs/ch13-merge-path-sort.md) */
    partition_pass<<<(unsigned int)sort_ceil_div(ntiles, 256), 256>>>(pass->keys_in, n, width, ntiles, part);
    CUDA_CHECK_LAUNCH();
#endif
    if (has_values)
        merge_pass_pairs<<<ntiles, MP_THREADS, mp_shared_bytes(1)>>>(pass->keys_in, pass->values_in, pass->keys_out,
                                                                     pass->values_out, n, width, part, vector_ok);
    else
        merge_pass_keys<<<ntiles, MP_THREADS, mp_shared_bytes(0)>>>(pass->keys_in, pass->keys_out, n, width, part,
                                                                    vector_ok);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* The block sort, then one merge pass per doubling of the runs until one holds all n keys. */
static int merge_sort_path_passes(int64_t n, const sort_params *p)
{
    (void)p;
    int count = 1;
    for (int64_t width = BLOCK_SORT_TILE; width < n; width *= 2)
        count++;
    return count;
}

/* ---- what ./run and the tests ask of this step ---------------------------------------- */

/* The shape in words, for --help and the messages: "1024 x 17", "512 x 17", "512" */
#define SORT_STR_(x) #x
#define SORT_STR(x)  SORT_STR_(x)
#define SORT_SHAPE   SORT_STR(BLOCK_SORT_THREADS) " x " SORT_STR(MP_ITEMS)
#define MERGE_SHAPE  SORT_STR(MP_THREADS) " x " SORT_STR(MP_ITEMS)
#define MERGE_BLOCK  SORT_STR(MP_THREADS)

static const char *merge_sort_path_check(int64_t n, const sort_params *p)
{
    (void)n;
    return p->block != MP_THREADS ? "this step's blocks are compile-time (" SORT_SHAPE " keys sort a tile, " MERGE_SHAPE
                                    " merge one: the top of sort.cu): --block " MERGE_BLOCK " or none"
                                  : NULL;
}

static const char *merge_sort_path_fit(int64_t n, const sort_params *p, int with_values)
{
    (void)n, (void)p;
    const char *why = lab_fit_kernel(with_values ? (const void *)block_sort_pairs : (const void *)block_sort_keys,
                                     BLOCK_SORT_THREADS, block_sort_shared_bytes(with_values));
    if (why == NULL)
        why = lab_fit_kernel(with_values ? (const void *)merge_pass_pairs : (const void *)merge_pass_keys, MP_THREADS,
                             mp_shared_bytes(with_values));
    return why == NULL ? NULL
                       : "this GPU gives a block less shared memory than this step's tiles need (" SORT_SHAPE
                         " keys, and values, in a block sort): BLOCK_SORT_THREADS 512 and MP_ITEMS 15 at the top of "
                         "sort.cu need 60 KiB";
}

/* the other key (value) buffer of the ping-pong, and the partition: one start per tile */
static void merge_sort_path_workspace(int64_t n, const sort_params *p, sort_ws_need *need)
{
    (void)p;
    need->ping_pong = 1;
    need->words = sort_ceil_div(n, MP_TILE) + 1;
}

static void merge_sort_path_describe(const sort_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "block=%d items=%d tile=%d sort_block=%d sort_tile=%d", p->block, MP_ITEMS, MP_TILE,
             BLOCK_SORT_THREADS, BLOCK_SORT_TILE);
}

/* Step 8's facts: compile-time tiles sorted in registers, then merge passes by the merge path (sort.h). */
const sort_step sort_step_info = {
    .lab = {.about =
                "Step 8 (beyond the book): tiles of " SORT_SHAPE " keys (threads x keys each) sorted in registers,\n"
                "then merge passes of " MERGE_SHAPE "-key tiles by chapter 12 step 6's merge path. The shape is\n"
                "compile-time (BLOCK_SORT_THREADS, MP_THREADS, MP_ITEMS at the top of sort.cu): --block takes\n"
                "only the merges' " MERGE_BLOCK ". --example sorts Fig 13.1's keys.\n",
            .default_n = 1 << 24,
            .max_n = SORT_MAX_N,
            .max_n_why = "n must be 0 to 2^31 - 1 (int sizes, as in chapter 12's merge path)"},
    .takes = SORT_TAKES_EVERY,
    .defaults = {.block = MP_THREADS},
    .needs = {.block = LAB_BLOCK_ANY,
              .workspace = merge_sort_path_workspace,
              .check = merge_sort_path_check,
              .fit = merge_sort_path_fit},
    .describe = merge_sort_path_describe,
    .sorts = {.passes = merge_sort_path_passes, .pass = merge_sort_path_pass},
};
