/* digit.cuh - ch13 step 10's split by the top byte (--split digit), on the
 * GPUs: the splitters moved to top-byte edges (digit_edges), the scatter as
 * the sort's first radix pass (digit_split.cuh), and each chunk sorted by its
 * low three bytes in three passes (segments.cuh), in the rank's local-sort
 * tables. Each chunk's three passes end in the other buffer: every run ends
 * in part. Included by sample_sort.cu. */
#ifndef SS_DIGIT_CUH
#define SS_DIGIT_CUH

#include "digit_split.cuh"
#include "phases.cuh" /* step 9's */

/* The tables of the split and of a chunk's passes, carved from the rank's sort_temp. */
typedef struct {
    unsigned int *zeroed;   /* the tile counters, the histograms and the two status tables: one memset */
    unsigned int *counters; /* [4]: the split's, then each pass's */
    unsigned int *hist;     /* [DIGIT_TOPS][SEG_HIST] */
    unsigned int *status;   /* [2][tiles * RADIX] */
    unsigned int *bucket_start, *seg_out, *table_a, *table_b, *tile_range_a, *tile_range_b;
    int64_t *dst;
    unsigned int tiles; /* the most tiles a pass or the split can have */
} digit_ws;

#define DIGIT_COUNTERS 64 /* words: the histograms start 256-byte aligned */

static digit_ws digit_layout(uintptr_t at, int64_t cap, int G, size_t *bytes)
{
    lab_ws ws = {at};
    digit_ws w;
    const size_t ranges_a = (size_t)G * DIGIT_TOPS, status = 2;
    w.tiles = (unsigned int)(cap / ONESWEEP_TILE + ranges_a + 1);
    w.zeroed = (unsigned int *)lab_ws_take(
        &ws, sizeof(unsigned int) * (DIGIT_COUNTERS + DIGIT_TOPS * SEG_HIST + status * w.tiles * ONESWEEP_RADIX));
    w.counters = w.zeroed, w.hist = w.zeroed + DIGIT_COUNTERS, w.status = w.hist + DIGIT_TOPS * SEG_HIST;
    w.bucket_start = (unsigned int *)lab_ws_take(&ws, sizeof(unsigned int) * DIGIT_TOPS * SEG_HIST);
    w.seg_out = (unsigned int *)lab_ws_take(&ws, sizeof(unsigned int) * (DIGIT_TOPS + 1));
    w.table_a = (unsigned int *)lab_ws_take(&ws, sizeof(unsigned int) * (5 * ranges_a + 1));
    w.table_b = (unsigned int *)lab_ws_take(&ws, sizeof(unsigned int) * (5 * DIGIT_TOPS + 1));
    w.tile_range_a = (unsigned int *)lab_ws_take(&ws, sizeof(unsigned int) * w.tiles);
    w.tile_range_b = (unsigned int *)lab_ws_take(&ws, sizeof(unsigned int) * w.tiles);
    w.dst = (int64_t *)lab_ws_take(&ws, sizeof(int64_t) * DIGIT_TOPS);
    *bytes = (size_t)(ws.at - at);
    return w;
}

/* Rank r's local-sort tables large enough for the split's too; NULL, or why its kernels cannot run
 * here (then the policy keeps the split in registers). */
static const char *digit_open(ss_rank *r, const ss_config *c)
{
    const void *kernels[] = {c->with_values ? (const void *)digit_split_pairs : (const void *)digit_split_keys,
                             c->with_values ? (const void *)seg_pairs : (const void *)seg_keys,
                             (const void *)seg_keys_first};
    const char *why = NULL;
    for (int k = 0; k < 3 && why == NULL; k++)
        why = lab_fit_kernel(kernels[k], ONESWEEP_THREADS, onesweep_shared_bytes(c->with_values));
    size_t bytes = 0;
    digit_layout(0, r->cap > 0 ? r->cap : 1, c->G, &bytes);
    if (why == NULL && bytes > r->sort_temp_bytes) { /* only where the split will run */
        CUDA_CHECK(cudaSetDevice(r->device));
        CUDA_CHECK(cudaFree(r->sort_temp));
        r->bytes_allocated -= r->sort_temp_bytes;
        r->sort_temp = take(r, bytes);
        r->sort_temp_bytes = bytes;
    }
    return why;
}

static digit_ws digit_tables(const ss_rank *r, int G)
{
    size_t bytes;
    return digit_layout((uintptr_t)r->sort_temp, r->cap > 0 ? r->cap : 1, G, &bytes);
}

/* Every owned rank's share split by the top byte, each bucket at send_off (its layout's, or round 0's
 * place in its receiver: direct; V, every rank as this process reaches it). */
static void digit_scatter(ss_rank *R, int nlocal, const ss_rank *V, int nv, const ss_config *c, const ss_plan *plan,
                          const unsigned int *bins, const int *first_bin, int direct)
{
    int64_t send_off[PLAN_BIN_BUCKETS], dst[DIGIT_TOPS];
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        const digit_ws w = digit_tables(r, c->G);
        if (direct)
            ss_direct_send_off(V, nv, plan, r->rank, send_off);
        else
            for (int b = 0; b < plan->B; b++)
                send_off[b] = r->layout->send_off[b];
        digit_split_offsets(plan, bins, r->rank, first_bin, send_off, dst);
        CUDA_CHECK(cudaSetDevice(r->device));
        CUDA_CHECK(cudaMemcpyAsync(w.dst, dst, sizeof dst, cudaMemcpyHostToDevice, r->comm_stream)); /* pageable */
        const unsigned int tiles = (unsigned int)((r->n + ONESWEEP_TILE - 1) / ONESWEEP_TILE);
        CUDA_CHECK(cudaMemsetAsync(w.zeroed, 0, sizeof(unsigned int) * DIGIT_COUNTERS, r->comm_stream));
        CUDA_CHECK(cudaMemsetAsync(w.status, 0, sizeof(unsigned int) * tiles * ONESWEEP_RADIX, r->comm_stream));
        CUDA_CHECK(cudaEventRecord(r->ev_scatter_begin, r->comm_stream));
        const digit_split_args a = {.keys = r->keys,
                                    .values = c->with_values ? r->values : NULL,
                                    .part_k = r->part_k,
                                    .part_v = r->part_v,
                                    .dst = w.dst,
                                    .status = w.status,
                                    .tile_counter = w.counters,
                                    .n = (unsigned int)r->n};
        const size_t shared = onesweep_shared_bytes(c->with_values);
        if (tiles > 0 && c->with_values)
            digit_split_pairs<<<tiles, ONESWEEP_THREADS, shared, r->comm_stream>>>(a);
        else if (tiles > 0)
            digit_split_keys<<<tiles, ONESWEEP_THREADS, shared, r->comm_stream>>>(a);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaEventRecord(r->ev_scatter_end, r->comm_stream));
    }
}

/* A pass's table on the GPU: words as digit_ranges lays them out (digit.c). */
static seg_table seg_table_at(const unsigned int *words, int R, const unsigned int *tile_range)
{
    const seg_table t = {.in_at = words,
                         .len = words + R,
                         .tile_at = words + 2 * R,
                         .first = words + 3 * R + 1,
                         .seg = words + 4 * R + 1,
                         .tile_range = tile_range};
    return t;
}

/* One pass of the chunk's three on the sort stream: from io's input, its tiles in table t. */
static void seg_launch(const digit_ws *w, seg_table t, unsigned int tiles, onesweep_buffers io, int pass, int m,
                       int with_values, cudaStream_t st)
{
    seg_pass_args a = {.io = io,
                       .t = t,
                       .bucket_start = w->bucket_start,
                       .status = w->status + (size_t)(pass % 2) * w->tiles * ONESWEEP_RADIX,
                       .next_status = w->status + (size_t)((pass + 1) % 2) * w->tiles * ONESWEEP_RADIX,
                       .tile_counter = w->counters + 1 + pass,
                       .n = (unsigned int)m};
    const size_t shared = onesweep_shared_bytes(with_values);
    if (with_values)
        seg_pairs<<<tiles, ONESWEEP_THREADS, shared, st>>>(a, pass);
    else if (pass == 0)
        seg_keys_first<<<tiles, ONESWEEP_THREADS, shared, st>>>(a, pass);
    else
        seg_keys<<<tiles, ONESWEEP_THREADS, shared, st>>>(a, pass);
    CUDA_CHECK_LAUNCH();
}

/* Chunk j of rank r (m keys in X, second buffer Y; Xv, Yv its values) sorted
 * by its low three bytes, on the sort stream: the result in Y. */
static void digit_sort_chunk(ss_rank *r, const ss_config *c, const ss_plan *plan, const unsigned int *bins,
                             const int *first_bin, int j, unsigned int *X, unsigned int *Xv, unsigned int *Y,
                             unsigned int *Yv, int64_t m)
{
    const int G = c->G, b = r->rank * plan->K + j;
    const int t_lo = first_bin[b] / DIGIT_PER_TOP, t_hi = first_bin[b + 1] / DIGIT_PER_TOP, S = t_hi - t_lo;
    const digit_ws w = digit_tables(r, G);
    int64_t piece_at[SS_MAX_RANKS];
    for (int s = 0; s < G; s++)
        piece_at[s] = r->layout->recv_off[j * G + s] - r->layout->sub_start[j];
    digit_ranges A = digit_ranges_alloc(G * S), B = digit_ranges_alloc(S);
    unsigned int seg_out[DIGIT_TOPS + 1];
    digit_chunk_ranges(bins, G, t_lo, t_hi, piece_at, ONESWEEP_TILE, &A, &B, seg_out);
    cudaStream_t st = r->sort_stream;
    const size_t words_a = 5 * (size_t)A.ranges + 1, words_b = 5 * (size_t)B.ranges + 1;
    CUDA_CHECK(cudaMemcpyAsync(w.table_a, A.words, sizeof(unsigned int) * words_a, cudaMemcpyHostToDevice, st));
    CUDA_CHECK(cudaMemcpyAsync(w.table_b, B.words, sizeof(unsigned int) * words_b, cudaMemcpyHostToDevice, st));
    CUDA_CHECK(cudaMemcpyAsync(w.seg_out, seg_out, sizeof(unsigned int) * (S + 1), cudaMemcpyHostToDevice, st));
    CUDA_CHECK(cudaMemsetAsync(w.counters, 0, sizeof(unsigned int) * DIGIT_COUNTERS, st));
    CUDA_CHECK(cudaMemsetAsync(w.hist, 0, sizeof(unsigned int) * S * SEG_HIST, st));
    for (int k = 0; k < 2; k++) /* both status tables, as far as the first pass's tiles reach */
        CUDA_CHECK(cudaMemsetAsync(w.status + (size_t)k * w.tiles * ONESWEEP_RADIX, 0,
                                   sizeof(unsigned int) * A.tiles * ONESWEEP_RADIX, st));
    const seg_table ta = seg_table_at(w.table_a, A.ranges, w.tile_range_a);
    const seg_table tb = seg_table_at(w.table_b, B.ranges, w.tile_range_b);
    seg_tile_ranges<<<A.ranges, 256, 0, st>>>(ta.tile_at, w.tile_range_a);
    seg_tile_ranges<<<B.ranges, 256, 0, st>>>(tb.tile_at, w.tile_range_b);
    int sms = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, r->device));
    seg_histograms<<<sms * ONESWEEP_HISTOGRAM_BLOCKS_PER_SM, ONESWEEP_HISTOGRAM_THREADS, 0, st>>>(X, ta, A.tiles,
                                                                                                  w.hist);
    seg_plan<<<S, ONESWEEP_RADIX, 0, st>>>(w.hist, w.seg_out, w.bucket_start);
    CUDA_CHECK_LAUNCH();
    const onesweep_buffers xy = {X, Xv, Y, Yv}, yx = {Y, Yv, X, Xv};
    seg_launch(&w, ta, A.tiles, xy, 0, (int)m, c->with_values, st);
    seg_launch(&w, tb, B.tiles, yx, 1, (int)m, c->with_values, st);
    seg_launch(&w, tb, B.tiles, xy, 2, (int)m, c->with_values, st);
    digit_ranges_free(&A), digit_ranges_free(&B);
}

/* Every chunk of every owned rank, each as soon as its round is in (step 9's
 * waits): chunk 0 direct from part's front into keys, then back to part on
 * the comm stream beside the next sort; the others from keys into part. */
static void digit_sort_chunks(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, const unsigned int *bins,
                              const int *first_bin, int direct)
{
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        const ss_layout *L = r->layout;
        const int wv = c->with_values;
        CUDA_CHECK(cudaSetDevice(r->device));
        for (int j = 0; j < r->chunks; j++) {
            const int64_t at = L->sub_start[j], m = L->sub_start[j + 1] - at;
            const int in_part = j == 0 && direct; /* where the chunk came in */
            unsigned int *X = (in_part ? r->part_k : r->keys) + at, *Y = (in_part ? r->keys : r->part_k) + at;
            unsigned int *Xv = wv ? (in_part ? r->part_v : r->values) + at : NULL;
            unsigned int *Yv = wv ? (in_part ? r->values : r->part_v) + at : NULL;
            CUDA_CHECK(cudaStreamWaitEvent(r->sort_stream, r->ev_round[L->wait_round[j]], 0));
            CUDA_CHECK(cudaEventRecord(r->ev_sort_begin[j], r->sort_stream));
            if (m > 0)
                digit_sort_chunk(r, c, plan, bins, first_bin, j, X, Xv, Y, Yv, m);
            CUDA_CHECK(cudaEventRecord(r->ev_sort_done[j], r->sort_stream));
            if (!in_part || m == 0)
                continue;
            CUDA_CHECK(cudaStreamWaitEvent(r->comm_stream, r->ev_sort_done[j], 0)); /* its run back to part */
            CUDA_CHECK(
                cudaMemcpyAsync(X, Y, sizeof(unsigned int) * (size_t)m, cudaMemcpyDeviceToDevice, r->comm_stream));
            if (wv)
                CUDA_CHECK(cudaMemcpyAsync(Xv, Yv, sizeof(unsigned int) * (size_t)m, cudaMemcpyDeviceToDevice,
                                           r->comm_stream));
        }
        CUDA_CHECK(cudaEventRecord(r->ev_sort_end, r->sort_stream));
        r->run_in_keys = 0;
        r->run_k = r->part_k, r->run_n = L->sub_start[r->chunks], r->run_v = wv ? r->part_v : NULL;
    }
}

#endif
