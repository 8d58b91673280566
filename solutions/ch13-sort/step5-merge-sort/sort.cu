/* sort.cu - ch13 step 5: a comparison sort instead of radix sort: sorted tiles,
 * then merge passes that double the sorted runs (parallel merge sort).
 * Fig 13.11 (section 13.7), with Figs 12.2, 12.5 and 12.9. Blocks sort tiles
 * of blockDim.x * coarsen keys in shared memory (merge_sort_tiles); then merge
 * passes double the runs until one is left. Every pass runs the same
 * ceil(n / tile) blocks, each producing one tile of output of one pair of
 * runs (merge_partition, merge_pass), so as the runs grow, more blocks share
 * each merge. The merging is chapter 12's: co_rank (Fig 12.5) finds where each
 * block's and each thread's outputs come from, merge_sequential (Fig 12.2)
 * merges them (both from solutions/ch12-merge/step1-co-rank/co_rank.h,
 * included, not copied). */
#include "co_rank.h" /* ch12 step 1's co_rank (Fig 12.5) and merge_sequential (Fig 12.2) */
#include "sort_host.h"

/* Chapter 12 compares ints: between passes the keys are kept as ints with the
 * unsigned keys' order (sort_ref.h's transform, used backwards), and turned back
 * into unsigned keys by the last pass. */
static __device__ __forceinline__ int int_key(unsigned int key)
{
    return (int)sort_key_decode(key, SORT_INT);
}

static __device__ __forceinline__ unsigned int uint_key(int key)
{
    return sort_key_encode((unsigned int)key, SORT_INT);
}

/* Fig 12.2 with values: merge_sequential moves keys only, so pairs need this
 * copy of its loop that carries each value with its key; ties take A first
 * (stable). Without values it is chapter 12's merge_sequential itself. */
static __device__ void merge_sequential_kv(const int *A, const unsigned int *A_v, int m, const int *B,
                                           const unsigned int *B_v, int n, int *C, unsigned int *C_v)
{
    if (C_v == NULL) {
        merge_sequential(A, m, B, n, C);
        return;
    }
    int i = 0, j = 0, k = 0;
    while (i < m && j < n) {
        if (A[i] <= B[j]) {
            C_v[k] = A_v[i];
            C[k++] = A[i++];
        } else {
            C_v[k] = B_v[j];
            C[k++] = B[j++];
        }
    }
    while (i < m) {
        C_v[k] = A_v[i];
        C[k++] = A[i++];
    }
    while (j < n) {
        C_v[k] = B_v[j];
        C[k++] = B[j++];
    }
}

/* Fig 12.9's thread: outputs [k, k_end) of merging A[0,m) and B[0,n) into C,
 * from the co-ranks of k and k_end. Values (NULL: none) move with keys. */
static __device__ void merge_range(const int *A, const unsigned int *A_v, int m, const int *B, const unsigned int *B_v,
                                   int n, int *C, unsigned int *C_v, int k, int k_end)
{
    const int i = co_rank(k, A, m, B, n), i_end = co_rank(k_end, A, m, B, n);
    const int j = k - i, j_end = k_end - i_end;
    merge_sequential_kv(A + i, A_v != NULL ? A_v + i : NULL, i_end - i, B + j, B_v != NULL ? B_v + j : NULL, j_end - j,
                        C + k, C_v != NULL ? C_v + k : NULL);
}

/* A run of the block's shared memory (len keys of k, values of v) to global
 * memory at keys_out (values_out), coalesced; the last pass turns the int
 * keys back into unsigned ones. */
static __device__ __forceinline__ void store_run(unsigned int *keys_out, unsigned int *values_out, const int *k,
                                                 const unsigned int *v, int len, int last, int has_values)
{
    for (int x = threadIdx.x; x < len; x += blockDim.x) { /* coalesced */
        keys_out[x] = last ? uint_key(k[x]) : (unsigned int)k[x];
        if (has_values)
            values_out[x] = v[x];
    }
}

/* The block's tile of `valid` keys into shared memory as ints, coalesced. */
static __device__ __forceinline__ void load_tile(const unsigned int *keys_in, const unsigned int *values_in, int *k,
                                                 unsigned int *v, int valid, int has_values)
{
    for (int x = threadIdx.x; x < valid; x += blockDim.x) { /* coalesced */
        k[x] = int_key(keys_in[x]);
        if (has_values)
            v[x] = values_in[x];
    }
}

/* Each thread sorts its own run, keys [lo, hi) of the tile: insertion sort,
 * equal keys stay in order (stable). */
static __device__ __forceinline__ void sort_thread_run(int *k, unsigned int *v, int lo, int hi, int has_values)
{
    for (int a = lo + 1; a < hi; a++) {
        const int key = k[a];
        const unsigned int value = has_values ? v[a] : 0;
        int b = a;
        while (b > lo && k[b - 1] > key) {
            k[b] = k[b - 1];
            if (has_values)
                v[b] = v[b - 1];
            b--;
        }
        k[b] = key;
        if (has_values)
            v[b] = value;
    }
}

/* Fig 13.11 inside a block: one round of pairwise merges turns the tile's
 * sorted runs of `width` keys (in k_src, v_src) into runs of 2 * width (in
 * k_dst, v_dst); this thread makes the outputs [k0, k0 + coarsen) of its pair
 * of runs, k0 = threadIdx.x * coarsen (none when k0 >= valid). */
static __device__ __forceinline__ void merge_round(const int *k_src, const unsigned int *v_src, int *k_dst,
                                                   unsigned int *v_dst, int width, int valid, int coarsen,
                                                   int has_values)
{
    const int k0 = threadIdx.x * coarsen; /* this thread's first output */
    if (k0 >= valid)
        return;
    /* exercise: merge_round(), Fig 13.11 inside a block: this thread's outputs [k0, k0 + coarsen) lie in the pair of runs that starts at pair = (k0 / (2 * width)) * (2 * width) of the tile's valid keys; A is its first run (width keys, fewer at the tile's end), B the rest of the pair (at most width keys, maybe none); merge_range makes outputs [k, k_end) of merging A and B into the pair's place, counted from the pair's start: give it A and B in k_src, the pair's place in k_dst, their values' places in v_src and v_dst when has_values (all three value pointers NULL otherwise), and this thread's outputs, k_end at most the pair's size */
    /* hint: the runs double each round (width = coarsen, 2 * coarsen, ...) and every thread makes coarsen outputs of its own pair's merge, so a pair is shared by 2 * width / coarsen threads */
    /* hint: at the tile's end A may hold fewer than width keys and B none: A has the smaller of width and valid - pair, B the smaller of width and what is left after A (never negative) */
    /* hint: merge_range counts positions from its C, the pair's place in k_dst: this thread's first output there is k0 - pair; B starts right after A in k_src */
    const int pair = (k0 / (2 * width)) * (2 * width);
    const int m = min(width, valid - pair), n_b = max(0, min(width, valid - pair - width));
    const int k = k0 - pair, k_end = min(k + coarsen, m + n_b);
    merge_range(k_src + pair, has_values ? v_src + pair : NULL, m, k_src + pair + m,
                has_values ? v_src + pair + m : NULL, n_b, k_dst + pair, has_values ? v_dst + pair : NULL, k, k_end);
    /* exercise stub:
    for (int x = k0; x < min(k0 + coarsen, valid); x++) {
        k_dst[x] = k_src[x];
        if (has_values)
            v_dst[x] = v_src[x];
    }
    */
    /* end exercise */
}

/* Fig 13.11, first stage: block b sorts its tile in shared memory. Each thread
 * sorts its `coarsen` consecutive keys, then rounds of pairwise merges double
 * the sorted runs (coarsen, 2*coarsen, ...) until the tile is one run; in each
 * round every thread makes `coarsen` outputs. */
__global__ void merge_sort_tiles(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                                 unsigned int *values_out, int n, int coarsen, int last)
{
    extern __shared__ int s_buf[]; /* keys: two buffers of a tile; then values: two more */
    const int tile = blockDim.x * coarsen;
    const int has_values = values_in != NULL;
    int *k_src = s_buf, *k_dst = s_buf + tile;
    unsigned int *v_src = (unsigned int *)(s_buf + 2 * tile), *v_dst = (unsigned int *)(s_buf + 3 * tile);
    const long long base = (long long)blockIdx.x * tile;
    const int valid = (int)min((long long)tile, n - base); /* keys this block holds */
    load_tile(keys_in + base, has_values ? values_in + base : NULL, k_src, v_src, valid, has_values);
    __syncthreads();
    sort_thread_run(k_src, v_src, threadIdx.x * coarsen, min((int)threadIdx.x * coarsen + coarsen, valid), has_values);
    __syncthreads();
    for (int width = coarsen; width < valid; width *= 2) { /* runs of `width` become runs of 2 * width */
        merge_round(k_src, v_src, k_dst, v_dst, width, valid, coarsen, has_values);
        __syncthreads(); /* the round's runs are complete before the next round reads them */
        int *k_tmp = k_src;
        k_src = k_dst, k_dst = k_tmp;
        unsigned int *v_tmp = v_src;
        v_src = v_dst, v_dst = v_tmp;
    }
    store_run(keys_out + base, has_values ? values_out + base : NULL, k_src, v_src, valid, last, has_values);
}

/* A merge pass's geometry: output chunk c (of `chunk` keys) lies in the pair of
 * runs that starts at `pair`; A = keys[pair, pair+m), B = the next n_b keys. */
typedef struct {
    long long pair;
    int m, n_b, k, k_end; /* [k, k_end): the chunk's outputs, counted from the pair's start */
} merge_chunk;

static __device__ merge_chunk chunk_of(long long c, int chunk, int n, int width)
{
    merge_chunk g;
    const long long k0 = c * chunk, span = 2LL * width;
    g.pair = (k0 / span) * span;
    g.m = (int)min((long long)width, n - g.pair);
    g.n_b = (int)max(0LL, min((long long)width, n - g.pair - width));
    g.k = (int)(k0 - g.pair);
    g.k_end = (int)min((long long)g.k + chunk, (long long)g.m + g.n_b);
    return g;
}

/* Section 13.7: before a merge pass, one thread per output chunk finds with
 * co_rank (Fig 12.5, on global memory) how many of its pair's first run come
 * before the chunk: all chunks' searches run at once. */
__global__ void merge_partition(const int *keys, int n, int width, int chunk, int chunks, int *splits)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < chunks) {
        const merge_chunk g = chunk_of(c, chunk, n, width);
        /* exercise: merge_partition(), Fig 12.5: splits[c] = the co-rank of the chunk's first output g.k in the merge of A = keys + g.pair (g.m keys) and B = A + g.m (g.n_b keys) */
        /* hint: one thread per chunk, all chunks at once: block c of the merge pass then takes A from splits[c] to splits[c + 1] and B from what is left of its outputs */
        /* hint: chapter 12's co_rank(k, A, m, B, n) (co_rank.h, Fig 12.5) answers it: how many of A come before output k of the stable merge */
        splits[c] = co_rank(g.k, keys + g.pair, g.m, keys + g.pair + g.m, g.n_b);
        /* exercise stub: splits[c] = min(g.k, g.m); */
        /* end exercise */
    }
}

/* The chunk's inputs, A[i, i + len_a) then B[j, j + len - len_a), into shared
 * memory one after the other, coalesced. */
static __device__ __forceinline__ void load_chunk(const int *A, const unsigned int *A_v, const int *B,
                                                  const unsigned int *B_v, int i, int j, int len_a, int len, int *s_in,
                                                  unsigned int *s_vin, int has_values)
{
    for (int x = threadIdx.x; x < len; x += blockDim.x) { /* A's part, then B's part: coalesced */
        s_in[x] = x < len_a ? A[i + x] : B[j + x - len_a];
        if (has_values)
            s_vin[x] = x < len_a ? A_v[i + x] : B_v[j + x - len_a];
    }
}

/* Fig 13.11, one stage: block c makes output chunk c of its pair's merge. Its
 * inputs, A[i, i_end) and B[j, j_end) (from the partition), are exactly the
 * chunk's keys: they go to shared memory, each thread merges `coarsen` outputs
 * of them (co_rank and merge again, as in Fig 12.9), and the block writes the
 * chunk back coalesced. */
__global__ void merge_pass(const int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                           unsigned int *values_out, int n, int width, const int *splits, int coarsen, int last)
{
    extern __shared__ int s_buf[]; /* tile input keys, tile output keys, then the same for values */
    const int tile = blockDim.x * coarsen;
    const int has_values = values_in != NULL;
    int *s_in = s_buf, *s_out = s_buf + tile;
    unsigned int *s_vin = (unsigned int *)(s_buf + 2 * tile), *s_vout = (unsigned int *)(s_buf + 3 * tile);
    const merge_chunk g = chunk_of(blockIdx.x, tile, n, width);
    const int i = splits[blockIdx.x];
    const int i_end = g.k_end == g.m + g.n_b ? g.m : splits[blockIdx.x + 1]; /* the pair's last chunk takes all of A */
    const int j = g.k - i;
    const int len_a = i_end - i, len = g.k_end - g.k;
    const int *A = keys_in + g.pair, *B = A + g.m;
    const unsigned int *A_v = has_values ? values_in + g.pair : NULL, *B_v = has_values ? A_v + g.m : NULL;
    load_chunk(A, A_v, B, B_v, i, j, len_a, len, s_in, s_vin, has_values);
    __syncthreads();
    const int k0 = threadIdx.x * coarsen;
    if (k0 < len)
        merge_range(s_in, has_values ? s_vin : NULL, len_a, s_in + len_a, has_values ? s_vin + len_a : NULL,
                    len - len_a, s_out, has_values ? s_vout : NULL, k0, min(k0 + coarsen, len));
    __syncthreads();
    store_run(keys_out + g.pair + g.k, has_values ? values_out + g.pair + g.k : NULL, s_out, s_vout, len, last,
              has_values);
}

/* Both kernels hold a tile of keys twice (in and out), and of values twice with values. */
static size_t tile_shared(const sort_params *p, int with_values)
{
    return sizeof(int) * (size_t)p->block * (size_t)p->coarsen * (with_values ? 4 : 2);
}

/* Pass 0 sorts the tiles; pass w > 0 merges runs of tile * 2^(w-1) keys in
 * pairs; each reads the last one's output (sort_run, sort_host.c). */
static const char *merge_sort_pass(const sort_pass *pass, const sort_ws *ws, const sort_params *p)
{
    const int n = (int)pass->n, tile = p->block * p->coarsen, chunks = (int)sort_ceil_div(n, tile);
    const size_t shared = tile_shared(p, pass->values_in != NULL);
    const int last = pass->index == pass->count - 1;
    if (pass->index == 0) {
        merge_sort_tiles<<<chunks, p->block, shared>>>(pass->keys_in, pass->values_in, pass->keys_out, pass->values_out,
                                                       n, p->coarsen, last);
        CUDA_CHECK_LAUNCH();
        return NULL;
    }
    const int width = tile << (pass->index - 1);
    int *splits = (int *)ws->words;
    merge_partition<<<(unsigned int)sort_ceil_div(chunks, 256), 256>>>((const int *)pass->keys_in, n, width, tile,
                                                                       chunks, splits);
    CUDA_CHECK_LAUNCH();
    merge_pass<<<chunks, p->block, shared>>>((const int *)pass->keys_in, pass->values_in, pass->keys_out,
                                             pass->values_out, n, width, splits, p->coarsen, last);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* Pass 0 sorts the tiles, then a merge pass per doubling of the runs until one holds all n keys. */
static int passes(int64_t n, const sort_params *p)
{
    int count = 1;
    for (int64_t width = (int64_t)p->block * p->coarsen; width > 0 && width < n; width *= 2)
        count++;
    return count;
}

/* ---- what ./run and the tests ask of this step ---------------------------- */

static const char *fit(int64_t n, const sort_params *p, int with_values)
{
    (void)n;
    const char *why = lab_fit_kernel((const void *)merge_sort_tiles, p->block, tile_shared(p, with_values));
    return why != NULL ? why : lab_fit_kernel((const void *)merge_pass, p->block, tile_shared(p, with_values));
}

/* the other key (value) buffer, and one split per chunk */
static void workspace(int64_t n, const sort_params *p, sort_ws_need *need)
{
    need->ping_pong = 1;
    need->words = sort_ceil_div(n, (int64_t)p->block * p->coarsen) + 1;
}

static void describe(const sort_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "block=%d coarsen=%d tile=%d", p->block, p->coarsen, p->block * p->coarsen);
}

/* Step 5's facts: tiles sorted in blocks, then merge passes that double the runs (sort.h). */
const sort_step sort_step_info = {
    .lab = {.about = "Step 5 sorts tiles of block x coarsen keys (--coarsen 1 to 16), then merges runs in\n"
                     "passes, each doubling them. A block whose shared memory does not fit the GPU is\n"
                     "refused. --example sorts Fig 13.1's keys.\n",
            .default_n = 1 << 24,
            .max_n = SORT_MAX_N,
            .max_n_why = "n must be 0 to 2^31 - 1 (int sizes, as in chapter 12's co_rank)"},
    .takes = SORT_TAKES_EVERY | SORT_TAKES_COARSEN,
    /* 2048-key tiles: the block sort's size and each merge block's output chunk */
    .defaults = {.block = 256, .coarsen = 8},
    .needs = {.block = LAB_BLOCK_ANY, .workspace = workspace, .fit = fit},
    .describe = describe,
    .sorts = {.passes = passes, .pass = merge_sort_pass},
};
