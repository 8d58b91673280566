/* segsort.cuh - ch13 step 9's local sort of a chunk: step 7's single-pass
 * radix sort, run over the chunk's sub-buckets as segments, on the chunk's
 * low `bits` bits only. The keys of a sub-bucket agree on every bit above
 * them (plan.h: the radix cut), so three 8-bit passes sort a chunk of
 * uniform keys where a whole 32-bit sort takes four: the partition was the
 * first, most significant, pass (as in RMG sort, Ilic et al. 2023).
 *
 * The first pass reads the chunk as it arrived: each sub-bucket in G pieces,
 * one from each rank, the pieces of one rank side by side. Tiles never cross
 * a piece; tiles are numbered segment by segment, a segment's pieces in rank
 * order, so the look-back of step 7 runs unchanged inside each segment (its
 * chain starts at the segment's first tile, and a segment's digit runs start
 * where the segment starts), and the sort stays stable. That first pass
 * writes each segment in one place; the passes after it read the segments.
 *
 * Buffers: A is the chunk's region of recv, Z its place in part (the rank's
 * sorted run). Pass p reads A (p even) or Z and writes the other: an odd
 * number of passes ends in Z; an even one is copied there. */
#ifndef SS_SEGSORT_CUH
#define SS_SEGSORT_CUH

#include <cub/device/device_radix_sort.cuh>
#include <limits.h>

#include "onesweep.cuh" /* ch13 step 7's: its tile helpers, status words and look-back */
#include "sample_sort.h"

/* A run of consecutive keys one pass reads: a piece of a segment. */
typedef struct {
    int64_t from;                /* where its keys start in the pass's input */
    unsigned int len;            /* keys */
    unsigned int first_tile;     /* its first tile */
    unsigned int seg;            /* its segment (sub-bucket of the chunk) */
    unsigned int seg_first_tile; /* the segment's first tile: where its look-back chain starts */
} ss_piece;

/* The tables of one rank's segmented sorts: a chunk's pieces (first pass)
 * and segments (the later passes), for every chunk, uploaded once per sort;
 * the zeroed counters, histograms and status words, reused chunk by chunk. */
struct ss_segsort {
    int max_pieces;                 /* per chunk and pass: G * F + 1 */
    ss_piece *pieces_h, *pieces_d;  /* [K][2][max_pieces] */
    int *npieces;                   /* [K][2] */
    unsigned int *tiles;            /* [K][2] */
    int64_t *seg_out_h, *seg_out_d; /* [K][F + 1]: segment f of chunk j at Z + seg_out[f] */
    unsigned int
        *zeroed_d; /* tile counters [ONESWEEP_PASSES], histograms [F][ONESWEEP_PASSES][ONESWEEP_RADIX], status */
    unsigned int *starts_d; /* [F][ONESWEEP_PASSES][ONESWEEP_RADIX]: digit d's first place in pass p of segment f */
    size_t zeroed_words;    /* room for the zeroed part */
};

#define SEG_COUNTERS 64 /* words for the tile counters: the histograms start 256-byte aligned */

/* The piece holding tile t: the last piece whose first tile is <= t (a binary search). */
static __device__ __forceinline__ int piece_of(const ss_piece *pieces, int npieces, unsigned int t)
{
    int lo = 0, hi = npieces - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) >> 1;
        if (pieces[mid].first_tile <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Every segment's digit counts of the passes to run, in one read of the first
 * pass's input: each block a run of consecutive tiles, counted in shared
 * memory and added to the segment's global counts when the segment changes.
 * A thread issues all its loads of a tile before it counts: one load at a
 * time left the kernel waiting on memory (the sorts of 2^30 keys on two
 * H200s took 0.6 ms longer). */
#define SEG_HISTOGRAM_LOADS ((ONESWEEP_TILE + ONESWEEP_HISTOGRAM_THREADS - 1) / ONESWEEP_HISTOGRAM_THREADS)
__global__ void __launch_bounds__(ONESWEEP_HISTOGRAM_THREADS)
    seg_histograms_kernel(const unsigned int *in, const ss_piece *pieces, int npieces, unsigned int tiles,
                          unsigned int passes, unsigned int *hist)
{
    __shared__ unsigned int s_count[ONESWEEP_PASSES * ONESWEEP_RADIX];
    const unsigned int per = (tiles + gridDim.x - 1) / gridDim.x, t0 = blockIdx.x * per;
    const unsigned int t1 = min(tiles, t0 + per);
    int seg = -1;
    for (unsigned int t = t0; t < t1; t++) {
        const ss_piece p = pieces[piece_of(pieces, npieces, t)];
        if ((int)p.seg != seg) { /* the same for every thread: the block moves on together */
            __syncthreads();
            for (int i = threadIdx.x; i < ONESWEEP_PASSES * ONESWEEP_RADIX && seg >= 0; i += blockDim.x)
                if (s_count[i] != 0)
                    atomicAdd(&hist[(size_t)seg * ONESWEEP_PASSES * ONESWEEP_RADIX + i], s_count[i]);
            __syncthreads();
            for (int i = threadIdx.x; i < ONESWEEP_PASSES * ONESWEEP_RADIX; i += blockDim.x)
                s_count[i] = 0;
            __syncthreads();
            seg = (int)p.seg;
        }
        const int64_t base = p.from + (int64_t)(t - p.first_tile) * ONESWEEP_TILE;
        const unsigned int valid = min((unsigned int)ONESWEEP_TILE, p.len - (t - p.first_tile) * ONESWEEP_TILE);
        unsigned int key[SEG_HISTOGRAM_LOADS];
#pragma unroll
        for (int u = 0; u < SEG_HISTOGRAM_LOADS; u++) { /* all loads first: a tile's worth in flight, not one */
            const unsigned int k = u * ONESWEEP_HISTOGRAM_THREADS + threadIdx.x;
            key[u] = k < valid ? in[base + k] : 0;
        }
#pragma unroll
        for (int u = 0; u < SEG_HISTOGRAM_LOADS; u++)
            if (u * ONESWEEP_HISTOGRAM_THREADS + threadIdx.x < valid)
                for (unsigned int q = 0; q < passes; q++)
                    atomicAdd(&s_count[q * ONESWEEP_RADIX + onesweep_digit(key[u], q * ONESWEEP_DIGIT_BITS)], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < ONESWEEP_PASSES * ONESWEEP_RADIX && seg >= 0; i += blockDim.x)
        if (s_count[i] != 0)
            atomicAdd(&hist[(size_t)seg * ONESWEEP_PASSES * ONESWEEP_RADIX + i], s_count[i]);
}

/* One block per segment: in each pass, where each digit's run of the segment
 * starts (the segment's start, then an exclusive scan of its counts). */
__global__ void __launch_bounds__(ONESWEEP_RADIX)
    seg_plan_kernel(const unsigned int *hist, const int64_t *seg_out, unsigned int passes, unsigned int *starts)
{
    __shared__ unsigned int s_scan[ONESWEEP_RADIX / 32];
    const unsigned int f = blockIdx.x;
    for (unsigned int p = 0; p < passes; p++) {
        const size_t at = ((size_t)f * ONESWEEP_PASSES + p) * ONESWEEP_RADIX + threadIdx.x;
        starts[at] = (unsigned int)seg_out[f] + onesweep_scan_digits(hist[at], s_scan);
    }
}

typedef struct {
    const unsigned int *keys_in, *values_in;
    unsigned int *keys_out, *values_out;
    const ss_piece *pieces;
    const unsigned int *starts;
    unsigned int *tile_counter, *status;
    int npieces;
    unsigned int m, tiles; /* keys of the chunk; tiles of the largest pass (the status table's rows) */
} seg_pass_args;

/* Step 7's pass, tile by tile, inside the tile's segment: the same phases
 * (count, onesweep_publish, rank, look back, scatter), the look-back's chain and the
 * digits' places those of the segment. */
static __device__ __forceinline__ void seg_pass(const seg_pass_args a, const unsigned int pass, const int has_values)
{
    extern __shared__ unsigned int
        s_tile[]; /* the tile sorted by digit: keys [ONESWEEP_TILE], values [ONESWEEP_TILE] */
    __shared__ unsigned int s_warp[ONESWEEP_WARPS * ONESWEEP_RADIX]; /* [warp][digit]: counts, then where its keys go */
    __shared__ unsigned int s_offset[ONESWEEP_RADIX], s_scan[ONESWEEP_RADIX / 32], s_tile_id;
    __shared__ ss_piece s_piece;
    const unsigned int shift = pass * ONESWEEP_DIGIT_BITS,
                       d = threadIdx.x; /* d: this thread's digit, if < ONESWEEP_RADIX */
    const unsigned int tile = onesweep_take_tile(a.tile_counter + pass, &s_tile_id);
    if (threadIdx.x == 0)
        s_piece = a.pieces[piece_of(a.pieces, a.npieces, tile)];
    __syncthreads();
    const ss_piece p = s_piece;
    const unsigned int chain = tile - p.seg_first_tile; /* this tile's place in its segment's chain */
    const int64_t base = p.from + (int64_t)(tile - p.first_tile) * ONESWEEP_TILE;
    const unsigned int valid = min((unsigned int)ONESWEEP_TILE, p.len - (tile - p.first_tile) * ONESWEEP_TILE);
    unsigned int *status =
        a.status + pass * ONESWEEP_LOOKBACK_WORDS(a.tiles) + (size_t)p.seg_first_tile * ONESWEEP_RADIX;
    const unsigned int bucket =
        d < ONESWEEP_RADIX ? a.starts[((size_t)p.seg * ONESWEEP_PASSES + pass) * ONESWEEP_RADIX + d] : 0;
    unsigned int key[ONESWEEP_KEYS_PER_THREAD], rank[ONESWEEP_KEYS_PER_THREAD];
    onesweep_load_tile(a.keys_in + base, 0, valid, key, 0xffffffffu); /* padding: digit 255, ranked last */
    const unsigned int count = onesweep_count_digits(key, shift, s_warp, NULL, valid);
    /* a piece's last tile is short, and its padding must not count for the tiles after it (step 7's
     * only short tile is the last one) */
    const unsigned int real = d == ONESWEEP_RADIX - 1 ? count - (ONESWEEP_TILE - valid) : count;
    if (d < ONESWEEP_RADIX) /* at once: the tiles after this one may be waiting */
        onesweep_publish(status, chain, d, (chain == 0 ? ONESWEEP_STATUS_INCLUSIVE : ONESWEEP_STATUS_AGGREGATE) | real);
    const unsigned int start = onesweep_place_digits(count, s_warp, s_scan);
    onesweep_rank_tile(key, rank, shift, s_warp + threadIdx.x / 32 * ONESWEEP_RADIX);
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)
        s_tile[rank[u]] = key[u];
    if (has_values) {
        unsigned int value[ONESWEEP_KEYS_PER_THREAD];
        onesweep_load_tile(a.values_in + base, 0, valid, value, 0);
#pragma unroll
        for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)
            s_tile[ONESWEEP_TILE + rank[u]] = value[u];
    }
    if (d < ONESWEEP_RADIX) /* the chunk-relative place of the tile's key i of digit d: s_offset[d] + i */
        s_offset[d] = bucket + onesweep_look_back(status, chain, d, real) - start;
    __syncthreads();
    onesweep_scatter_tile(s_tile, s_tile + ONESWEEP_TILE, s_offset, shift, valid, a.m, a.keys_out, a.values_out,
                          has_values);
}

__global__ __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS) void seg_pass_keys(const seg_pass_args a,
                                                                                       const unsigned int pass)
{
    seg_pass(a, pass, 0);
}

__global__ __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS_PAIRS) void seg_pass_pairs(const seg_pass_args a,
                                                                                              const unsigned int pass)
{
    seg_pass(a, pass, 1);
}

/* ---- host side ------------------------------------------------------------------ */

/* The passes a chunk sorted on `bits` bits takes: at least one (it gathers the pieces). */
static unsigned int seg_passes(unsigned int bits)
{
    return bits <= ONESWEEP_DIGIT_BITS ? 1 : (bits + ONESWEEP_DIGIT_BITS - 1) / ONESWEEP_DIGIT_BITS;
}

/* The device words of the zeroed part for a chunk of up to `room` keys in `pieces` pieces. */
static size_t seg_zeroed_words(int64_t room, int pieces, int F)
{
    const size_t tiles = (size_t)((room + ONESWEEP_TILE - 1) / ONESWEEP_TILE) + (size_t)pieces;
    return SEG_COUNTERS + (size_t)F * ONESWEEP_PASSES * ONESWEEP_RADIX +
           ONESWEEP_PASSES * ONESWEEP_LOOKBACK_WORDS(tiles);
}

/* Appends a piece of len keys at `from` of segment seg; returns the tiles it adds. */
static unsigned int add_piece(ss_piece *list, int *n, int64_t from, int64_t len, unsigned int seg,
                              unsigned int tiles_before, unsigned int *seg_first)
{
    if (len == 0)
        return 0;
    if (*seg_first == UINT32_MAX)
        *seg_first = tiles_before;
    list[*n] = (ss_piece){
        .from = from, .len = (unsigned int)len, .first_tile = tiles_before, .seg = seg, .seg_first_tile = *seg_first};
    (*n)++;
    return (unsigned int)((len + ONESWEEP_TILE - 1) / ONESWEEP_TILE);
}

/* Chunk j's tables from the layout: the first pass's pieces (segment f's
 * piece from rank s at its place in the chunk's region of recv), the later
 * passes' (segment f whole, at its place in the run), and the segments' places. */
static void seg_tables_of(ss_segsort *t, const ss_plan *plan, const ss_layout *L, int r, int j)
{
    const int G = plan->G, K = plan->K, F = plan->F;
    ss_piece *first = t->pieces_h + (size_t)(2 * j) * t->max_pieces, *later = first + t->max_pieces;
    int64_t *seg_out = t->seg_out_h + (size_t)j * (F + 1);
    const int64_t chunk_at = L->sub_start[j];
    int n0 = 0, n1 = 0;
    unsigned int tiles0 = 0, tiles1 = 0;
    for (int f = 0; f < F; f++) {
        unsigned int first0 = UINT32_MAX, first1 = UINT32_MAX;
        seg_out[f] = L->seg_start[j * F + f] - chunk_at;
        for (int s = 0; s < G; s++) {
            const int64_t len = (int64_t)plan->counts[(size_t)s * plan->BF + (size_t)(r * K + j) * F + f];
            tiles0 += add_piece(first, &n0, L->piece_off[(j * G + s) * F + f] - chunk_at, len, f, tiles0, &first0);
        }
        tiles1 += add_piece(later, &n1, seg_out[f], L->seg_start[j * F + f + 1] - L->seg_start[j * F + f], f, tiles1,
                            &first1);
    }
    seg_out[F] = L->sub_start[j + 1] - chunk_at;
    t->npieces[2 * j] = n0, t->npieces[2 * j + 1] = n1;
    t->tiles[2 * j] = tiles0, t->tiles[2 * j + 1] = tiles1;
}

/* Every chunk's tables to the device (before the first sort; on the comm stream). */
static void seg_upload(ss_rank *r, const ss_plan *plan)
{
    ss_segsort *t = r->segsort;
    for (int j = 0; j < plan->K; j++)
        seg_tables_of(t, plan, r->layout, r->rank, j);
    CUDA_CHECK(cudaMemcpyAsync(t->pieces_d, t->pieces_h, sizeof(ss_piece) * (size_t)plan->K * 2 * t->max_pieces,
                               cudaMemcpyHostToDevice, r->comm_stream));
    CUDA_CHECK(cudaMemcpyAsync(t->seg_out_d, t->seg_out_h, sizeof(int64_t) * (size_t)plan->K * (plan->F + 1),
                               cudaMemcpyHostToDevice, r->comm_stream));
}

/* Chunk m keys at `at`, sorted, ended in keys (in_keys) or in part. The
 * rank's first chunk decides where its run lives; a later chunk that ended in
 * the other buffer is copied there. Chunks sorted in as many passes as the
 * first (CUB's four on 32-bit keys) cost no copy. */
static void settle_run(ss_rank *r, int with_values, int64_t at, int64_t m, int in_keys)
{
    if (r->run_in_keys < 0)
        r->run_in_keys = in_keys;
    if (in_keys == r->run_in_keys)
        return;
    const size_t bytes = sizeof(unsigned int) * (size_t)m;
    unsigned int *from_k = in_keys ? r->keys : r->part_k, *to_k = in_keys ? r->part_k : r->keys;
    CUDA_CHECK(cudaMemcpyAsync(to_k + at, from_k + at, bytes, cudaMemcpyDeviceToDevice, r->sort_stream));
    if (with_values) {
        unsigned int *from_v = in_keys ? r->values : r->part_v, *to_v = in_keys ? r->part_v : r->values;
        CUDA_CHECK(cudaMemcpyAsync(to_v + at, from_v + at, bytes, cudaMemcpyDeviceToDevice, r->sort_stream));
    }
}

/* Chunk j of rank r, m keys, sorted on `bits` bits, A (its region of recv) and Z (of part) the two buffers. */
static const char *seg_sort_chunk(ss_rank *r, const ss_config *c, const ss_plan *plan, int j, unsigned int bits)
{
    ss_segsort *t = r->segsort;
    const ss_layout *L = r->layout;
    const int F = plan->F, pairs = c->with_values;
    const int64_t at = L->sub_start[j], m = L->sub_start[j + 1] - at;
    unsigned int *A = r->keys + at, *Z = r->part_k + at;
    unsigned int *Av = pairs ? r->values + at : NULL, *Zv = pairs ? r->part_v + at : NULL;
    const unsigned int passes = seg_passes(bits),
                       tiles = t->tiles[2 * j] > t->tiles[2 * j + 1] ? t->tiles[2 * j] : t->tiles[2 * j + 1];
    const size_t zeroed =
        SEG_COUNTERS + (size_t)F * ONESWEEP_PASSES * ONESWEEP_RADIX + passes * ONESWEEP_LOOKBACK_WORDS(tiles);
    if (zeroed > t->zeroed_words)
        return "a chunk has more tiles than its sort's tables were made for: the splitters missed";
    unsigned int *hist = t->zeroed_d + SEG_COUNTERS, *status = hist + (size_t)F * ONESWEEP_PASSES * ONESWEEP_RADIX;
    const ss_piece *pieces0 = t->pieces_d + (size_t)(2 * j) * t->max_pieces;
    CUDA_CHECK(cudaMemsetAsync(t->zeroed_d, 0, sizeof(unsigned int) * zeroed, r->sort_stream));
    int sms = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, r->device));
    const unsigned int hist_blocks = t->tiles[2 * j] < (unsigned int)sms * 4 ? t->tiles[2 * j] : (unsigned int)sms * 4;
    seg_histograms_kernel<<<hist_blocks, ONESWEEP_HISTOGRAM_THREADS, 0, r->sort_stream>>>(
        A, pieces0, t->npieces[2 * j], t->tiles[2 * j], passes, hist);
    CUDA_CHECK_LAUNCH();
    seg_plan_kernel<<<F, ONESWEEP_RADIX, 0, r->sort_stream>>>(hist, t->seg_out_d + (size_t)j * (F + 1), passes,
                                                              t->starts_d);
    CUDA_CHECK_LAUNCH();
    for (unsigned int p = 0; p < passes; p++) {
        const int later = p > 0;
        seg_pass_args a = {.keys_in = p % 2 ? Z : A,
                           .values_in = p % 2 ? Zv : Av,
                           .keys_out = p % 2 ? A : Z,
                           .values_out = p % 2 ? Av : Zv,
                           .pieces = pieces0 + (later ? t->max_pieces : 0),
                           .starts = t->starts_d,
                           .tile_counter = t->zeroed_d,
                           .status = status,
                           .npieces = t->npieces[2 * j + later],
                           .m = (unsigned int)m,
                           .tiles = tiles};
        const unsigned int grid = t->tiles[2 * j + later];
        const size_t shared = sizeof(unsigned int) * ONESWEEP_TILE * (pairs ? 2 : 1);
        if (pairs)
            seg_pass_pairs<<<grid, ONESWEEP_THREADS, shared, r->sort_stream>>>(a, p);
        else
            seg_pass_keys<<<grid, ONESWEEP_THREADS, shared, r->sort_stream>>>(a, p);
        CUDA_CHECK_LAUNCH();
    }
    settle_run(r, pairs, at, m, passes % 2 == 0); /* an even count of passes ends in A */
    return NULL;
}

/* The baseline local sort (--local cub): cub::DeviceRadixSort on the whole
 * chunk, A and Z its two buffers, on the low `bits` bits; *in_a says the
 * result ended in A. bytes in/out: its tables' size (temp NULL: only asks,
 * for any chunk up to m). CUB tunes its sort per offset type: on an H200,
 * 2^29 pairs take 14.8 ms with 32-bit offsets and 17.0 with 64-bit, 2^29 keys
 * 12.6 and 10.8. So pairs below 2^31 take 32-bit offsets, keys 64-bit. */
static cudaError_t cub_chunk_sort(void *temp, size_t *bytes, unsigned int *A, unsigned int *Av, unsigned int *Z,
                                  unsigned int *Zv, int64_t m, unsigned int bits, int *in_a, cudaStream_t stream)
{
    cub::DoubleBuffer<unsigned int> dk(A, Z), dv(Av, Zv);
    size_t b = *bytes;
    const int end_bit = bits > 0 ? (int)bits : 1;
    const int pairs = Av != NULL || (temp == NULL && in_a == NULL);
    cudaError_t err;
    if (!pairs)
        err = cub::DeviceRadixSort::SortKeys(temp, b, dk, m, 0, end_bit, stream);
    else if (temp != NULL)
        err = m <= INT_MAX ? cub::DeviceRadixSort::SortPairs(temp, b, dk, dv, (int)m, 0, end_bit, stream)
                           : cub::DeviceRadixSort::SortPairs(temp, b, dk, dv, m, 0, end_bit, stream);
    else { /* asking: the tables of either form, for any chunk up to m */
        size_t narrow = 0, wide = 0;
        err =
            cub::DeviceRadixSort::SortPairs(NULL, narrow, dk, dv, (int)(m < INT_MAX ? m : INT_MAX), 0, end_bit, stream);
        if (err == cudaSuccess)
            err = cub::DeviceRadixSort::SortPairs(NULL, wide, dk, dv, m, 0, end_bit, stream);
        b = narrow > wide ? narrow : wide;
    }
    *bytes = b;
    if (in_a != NULL)
        *in_a = dk.selector == 0;
    return err;
}

/* The tables for chunks of up to `room` keys: NULL, or why not. `take` allocates device memory. */
static const char *seg_setup(ss_rank *r, const ss_config *c, int64_t room, void *(*take)(ss_rank *, size_t))
{
    const int G = c->G, K = c->K, F = c->F;
    ss_segsort *t = (ss_segsort *)lab_xmalloc(sizeof(ss_segsort));
    t->max_pieces = G * F + 1;
    t->pieces_h = (ss_piece *)lab_xmalloc(sizeof(ss_piece) * (size_t)K * 2 * t->max_pieces);
    t->npieces = (int *)lab_xmalloc(sizeof(int) * 2 * (size_t)K);
    t->tiles = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * 2 * (size_t)K);
    t->seg_out_h = (int64_t *)lab_xmalloc(sizeof(int64_t) * (size_t)K * (F + 1));
    t->pieces_d = (ss_piece *)take(r, sizeof(ss_piece) * (size_t)K * 2 * t->max_pieces);
    t->seg_out_d = (int64_t *)take(r, sizeof(int64_t) * (size_t)K * (F + 1));
    t->zeroed_words = seg_zeroed_words(room, t->max_pieces, F);
    t->zeroed_d = (unsigned int *)take(r, sizeof(unsigned int) * t->zeroed_words);
    t->starts_d = (unsigned int *)take(r, sizeof(unsigned int) * (size_t)F * ONESWEEP_PASSES * ONESWEEP_RADIX);
    r->segsort = t;
    const char *why =
        lab_fit_kernel((const void *)seg_pass_keys, ONESWEEP_THREADS, sizeof(unsigned int) * ONESWEEP_TILE);
    return why != NULL ? why
                       : lab_fit_kernel((const void *)seg_pass_pairs, ONESWEEP_THREADS,
                                        2 * sizeof(unsigned int) * ONESWEEP_TILE);
}

static void seg_teardown(ss_rank *r)
{
    ss_segsort *t = r->segsort;
    if (t == NULL)
        return;
    free(t->pieces_h), free(t->npieces), free(t->tiles), free(t->seg_out_h), free(t);
    r->segsort = NULL;
}

#endif
