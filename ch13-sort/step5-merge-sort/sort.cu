/* Exercise made from solutions/ch13-sort/step5-merge-sort/sort.cu by `make exercises`: fill in each TODO. `make diff STEP=ch13-sort/step5-merge-sort` compares. */
/* sort.cu - ch13 step 5: section 13.7's parallel merge sort (Fig 13.11).
 * Blocks sort tiles of blockDim.x * coarsen keys in shared memory; then merge
 * passes double the sorted runs until one is left. Every pass runs the same
 * ceil(n / tile) blocks, each producing one tile of output of one pair of
 * runs, so as the runs grow, more blocks share each merge. The merging is
 * chapter 12's: co_rank (Fig 12.5) finds where each block's and each thread's
 * outputs come from, merge_sequential (Fig 12.2) merges them (both from
 * solutions/ch12-merge/step1-co-rank/co_rank.h, included, not copied). */
#include "co_rank.h"
#include "sort.h"

/* Chapter 12 compares ints: between passes the keys are kept as ints with the
 * unsigned keys' order (sort.h's transform, used backwards), and turned back
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
    merge_sequential_kv(A + i, A_v != NULL ? A_v + i : NULL, i_end - i, B + j, B_v != NULL ? B_v + j : NULL,
                        j_end - j, C + k, C_v != NULL ? C_v + k : NULL);
}

/* Fig 13.11, first stage: block b sorts its tile in shared memory. Each thread
 * sorts its `coarsen` consecutive keys (insertion sort: stable), then rounds of
 * pairwise merges double the sorted runs (coarsen, 2*coarsen, ...) until the
 * tile is one run; in each round every thread makes `coarsen` outputs. */
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
    for (int x = threadIdx.x; x < valid; x += blockDim.x) { /* coalesced */
        k_src[x] = int_key(keys_in[base + x]);
        if (has_values)
            v_src[x] = values_in[base + x];
    }
    __syncthreads();
    const int lo = threadIdx.x * coarsen, hi = min(lo + coarsen, valid);
    for (int a = lo + 1; a < hi; a++) { /* this thread's run: insertion sort, equal keys stay in order */
        const int key = k_src[a];
        const unsigned int value = has_values ? v_src[a] : 0;
        int b = a;
        while (b > lo && k_src[b - 1] > key) {
            k_src[b] = k_src[b - 1];
            if (has_values)
                v_src[b] = v_src[b - 1];
            b--;
        }
        k_src[b] = key;
        if (has_values)
            v_src[b] = value;
    }
    __syncthreads();
    for (int width = coarsen; width < valid; width *= 2) { /* runs of `width` become runs of 2 * width */
        const int k0 = threadIdx.x * coarsen;              /* this thread's first output */
        if (k0 < valid) {
            /* TODO(1): Fig 13.11 inside a block: this thread's outputs [k0, k0 + coarsen) belong to the pair of runs that starts at (k0 / (2 * width)) * (2 * width); A is its first run (width keys, fewer at the tile's end), B the rest of the pair; merge_range that pair's outputs from k_src (v_src, or NULL without values) into k_dst (v_dst) at the pair's start */
            for (int x = k0; x < min(k0 + coarsen, valid); x++) {
                k_dst[x] = k_src[x];
                if (has_values)
                    v_dst[x] = v_src[x];
            }
        }
        __syncthreads(); /* the round's runs are complete before the next round reads them */
        int *k_tmp = k_src;
        k_src = k_dst, k_dst = k_tmp;
        unsigned int *v_tmp = v_src;
        v_src = v_dst, v_dst = v_tmp;
    }
    for (int x = threadIdx.x; x < valid; x += blockDim.x) { /* coalesced */
        keys_out[base + x] = last ? uint_key(k_src[x]) : (unsigned int)k_src[x];
        if (has_values)
            values_out[base + x] = v_src[x];
    }
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
        /* TODO(2): Fig 12.5: the co-rank of the chunk's first output g.k in the merge of A = keys + g.pair (g.m keys) and B = A + g.m (g.n_b keys) */
        splits[c] = min(g.k, g.m);
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
    for (int x = threadIdx.x; x < len; x += blockDim.x) { /* A's part, then B's part: coalesced */
        s_in[x] = x < len_a ? A[i + x] : B[j + x - len_a];
        if (has_values)
            s_vin[x] = x < len_a ? A_v[i + x] : B_v[j + x - len_a];
    }
    __syncthreads();
    const int k0 = threadIdx.x * coarsen;
    if (k0 < len)
        merge_range(s_in, has_values ? s_vin : NULL, len_a, s_in + len_a, has_values ? s_vin + len_a : NULL,
                    len - len_a, s_out, has_values ? s_vout : NULL, k0, min(k0 + coarsen, len));
    __syncthreads();
    const long long out = g.pair + g.k;
    for (int x = threadIdx.x; x < len; x += blockDim.x) { /* coalesced */
        keys_out[out + x] = last ? uint_key(s_out[x]) : (unsigned int)s_out[x];
        if (has_values)
            values_out[out + x] = s_vout[x];
    }
}

/* temp: the other key (value) buffer and one split per chunk. */
typedef struct {
    unsigned int *keys_alt, *values_alt;
    int *splits;
} merge_temp;

static merge_temp layout(sort_ws *ws, int64_t n, int with_values, const sort_params *p)
{
    merge_temp t;
    const int64_t tile = (int64_t)p->block * p->coarsen, chunks = (n + tile - 1) / tile;
    t.keys_alt = (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)n);
    t.values_alt = with_values ? (unsigned int *)sort_ws_take(ws, sizeof(unsigned int) * (size_t)n) : NULL;
    t.splits = (int *)sort_ws_take(ws, sizeof(int) * (size_t)(chunks + 1));
    return t;
}

static const char *check(int64_t n, const sort_params *p)
{
    const char *why = sort_check_block(p->block, 0);
    if (why != NULL)
        return why;
    if (p->coarsen < 1 || p->coarsen > SORT_MAX_COARSEN)
        return "coarsen must be 1 to 16 keys per thread";
    if (n < 0 || n > SORT_MAX_N)
        return "n must be 0 to 2^31 - 1 (int sizes, as in chapter 12's co_rank)";
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
    const int with_values = values_in != NULL, tile = p->block * p->coarsen;
    const size_t shared = sizeof(int) * (size_t)tile * (with_values ? 4 : 2);
    if ((why = sort_fit_kernel((const void *)merge_sort_tiles, p->block, shared)) != NULL ||
        (why = sort_fit_kernel((const void *)merge_pass, p->block, shared)) != NULL)
        return why;
    sort_ws ws = {(uintptr_t)temp_d};
    const merge_temp t = layout(&ws, n, with_values, p);
    const int chunks = (int)((n + tile - 1) / tile);
    int passes = 0;
    for (int64_t width = tile; width < n; width *= 2)
        passes++;
    /* ping-pong so that the last writer (the tile sort when there is no pass) writes keys_out */
    unsigned int *dst_k = passes % 2 == 0 ? keys_out : t.keys_alt, *dst_v = passes % 2 == 0 ? values_out : t.values_alt;
    merge_sort_tiles<<<chunks, p->block, shared>>>(keys_in, values_in, dst_k, dst_v, (int)n, p->coarsen, passes == 0);
    CUDA_CHECK_LAUNCH();
    int pass = 0;
    for (int64_t width = tile; width < n; width *= 2, pass++) {
        const int *src_k = (const int *)dst_k;
        const unsigned int *src_v = dst_v;
        dst_k = dst_k == keys_out ? t.keys_alt : keys_out;
        dst_v = dst_v == values_out ? t.values_alt : values_out;
        merge_partition<<<(chunks + 255) / 256, 256>>>(src_k, (int)n, (int)width, tile, chunks, t.splits);
        CUDA_CHECK_LAUNCH();
        merge_pass<<<chunks, p->block, shared>>>(src_k, src_v, dst_k, dst_v, (int)n, (int)width, t.splits, p->coarsen,
                                                 pass == passes - 1);
        CUDA_CHECK_LAUNCH();
    }
    return NULL;
}

/* Added by `make exercises`: ./run and the tests print this while the TODOs are undone. */
extern "C" const char *const lab_step_todos =
    "\n  Exercise: TODOs left in ch13-sort/step5-merge-sort (`make diff STEP=ch13-sort/step5-merge-sort` shows the solution):\n"
    "    ch13-sort/step5-merge-sort/sort.cu:106: TODO(1) Fig 13.11 inside a block: this thread's outputs [k0, k0 + coarsen) belong to the pair of runs that starts at (k0 / (2 * width)) * (2 * width); A is its first run (width keys, fewer at the tile's end), B the rest of the pair; merge_range that pair's outputs from k_src (v_src, or NULL without values) into k_dst (v_dst) at the pair's start\n"
    "    ch13-sort/step5-merge-sort/sort.cu:153: TODO(2) Fig 12.5: the co-rank of the chunk's first output g.k in the merge of A = keys + g.pair (g.m keys) and B = A + g.m (g.n_b keys)\n";
