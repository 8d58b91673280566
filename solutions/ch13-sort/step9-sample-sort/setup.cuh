/* setup.cuh - ch13 step 9's rank set-up and teardown: the buffers of a
 * rank on its GPU (sized once per run, nothing allocated during a sort), its
 * streams and events, and a fresh input made in place. Included by
 * sample_sort.cu. */
#ifndef SS_SETUP_CUH
#define SS_SETUP_CUH

#include "gen.h"
#include "partition.cuh"
#include "report.h"
#include "sample_sort.h"
#include "segsort.cuh"

/* Device memory for rank R, counted (every allocation checked: CUDA_CHECK). */
static void *take(ss_rank *R, size_t bytes)
{
    void *p = NULL;
    if (bytes == 0)
        return NULL;
    CUDA_CHECK(cudaMalloc(&p, bytes));
    R->bytes_allocated += bytes;
    return p;
}

int64_t ss_capacity(const ss_config *c, int r)
{
    const int64_t n = plan_share_start(c->N, c->G, r + 1) - plan_share_start(c->N, c->G, r);
    if (c->G == 1 && c->K == 1) /* one rank, one chunk: its bucket is its share, no room to spare */
        return n;
    const int64_t room = (int64_t)((1.0 + c->slack) * ((double)c->N / c->G)) + 1;
    return room > n ? room : n;
}

/* The most keys one chunk of rank r may hold: 1.25 x the largest one the plan
 * aims at (sampling errs by a few percent), at most the capacity. The local
 * sort's tables are sized for it; a plan above it is refused. */
static int64_t ss_chunk_room(const ss_config *c, int r)
{
    const int64_t cap = ss_capacity(c, r);
    if (c->K == 1)
        return cap;
    const double largest = (c->first_weight > 1.0 ? c->first_weight : 1.0) / (c->first_weight + (c->K - 1));
    const int64_t room = (int64_t)(1.25 * largest * (double)cap) + SS_TILE;
    return room < cap ? room : cap;
}

/* The plan's cuts as one block: split_pos [B], then split_key, shift and
 * fine_base [B each], first_bin [B + 1]. Setup carves the device's block so,
 * and upload_cuts its pinned copy on the host, which goes up in one copy. */
typedef struct {
    uint64_t *split_pos;
    unsigned int *split_key, *shift, *fine_base;
    int *first_bin;
} ss_cut_block;

static size_t ss_cut_block_bytes(int B)
{
    return sizeof(uint64_t) * (size_t)B + sizeof(unsigned int) * (size_t)(4 * B + 1);
}

static ss_cut_block ss_cut_block_at(char *at, int B)
{
    ss_cut_block c;
    c.split_pos = (uint64_t *)at;
    c.split_key = (unsigned int *)(at + sizeof(uint64_t) * (size_t)B);
    c.shift = c.split_key + B, c.fine_base = c.shift + B, c.first_bin = (int *)(c.fine_base + B);
    return c;
}

/* The count and scatter kernels run as many blocks as fit at once, each a chunk of whole tiles. */
static const char *size_grid(ss_rank *R, const ss_config *c)
{
    const int B = c->G * c->K, BF = B * c->F, block = ss_scatter_block(B, c->F);
    ss_smem s;
    const size_t shared = ss_scatter_shared(B, c->F, c->with_values);
    const void *scatter = ss_scatter_kernel(B, c->F, c->with_values); /* the one that runs: its blocks fit at once */
    const char *why = lab_fit_kernel(scatter, block, shared);
    if (why == NULL)
        why = lab_fit_kernel(ss_count_kernel(B, c->F), SS_BLOCK, ss_smem_carve(NULL, B, BF, 0, 0, &s));
    if (why != NULL)
        return why;
    int per_sm = 0, sms = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scatter, block, shared));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, R->device));
    if (per_sm < 1)
        return "the scatter kernel does not fit an SM (too many sub-buckets)";
    const int64_t tiles = (R->n + SS_TILE - 1) / SS_TILE, most = (int64_t)per_sm * sms;
    R->chunk = ((tiles + most - 1) / most) * SS_TILE;
    if (R->chunk == 0)
        R->chunk = SS_TILE;
    R->cols = (int)((R->n + R->chunk - 1) / R->chunk);
    return NULL;
}

static void create_streams(ss_rank *R, const ss_rank *shared)
{
    R->owns_streams = shared == NULL;
    if (shared != NULL) { /* ranks sharing a GPU share its streams: one order for the copies between them */
        R->comm_stream = shared->comm_stream, R->sort_stream = shared->sort_stream;
        return;
    }
    int least, greatest;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&R->comm_stream, cudaStreamNonBlocking, greatest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&R->sort_stream, cudaStreamNonBlocking, least));
}

/* Copy engines: a stream per destination (the same priority as the comm
 * stream's), so that each of a round's pieces takes a copy engine of its own
 * where one stream would carry them one after another. */
static void create_pushes(ss_rank *R, const ss_config *c)
{
    R->pushes = c->copy_engines ? c->G : 0;
    R->push = (cudaStream_t *)lab_xmalloc(sizeof(cudaStream_t) * (size_t)(R->pushes > 0 ? R->pushes : 1));
    R->ev_pushed = (cudaEvent_t *)lab_xmalloc(sizeof(cudaEvent_t) * (size_t)(R->pushes > 0 ? R->pushes : 1));
    int least, greatest;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    for (int k = 0; k < R->pushes; k++) {
        CUDA_CHECK(cudaStreamCreateWithPriority(&R->push[k], cudaStreamNonBlocking, greatest));
        CUDA_CHECK(cudaEventCreateWithFlags(&R->ev_pushed[k], cudaEventDisableTiming));
    }
}

static void create_events(ss_rank *R, int K)
{
    R->chunks = K;
    R->ev_round = (cudaEvent_t *)lab_xmalloc(sizeof(cudaEvent_t) * (size_t)K);
    R->ev_sort_begin = (cudaEvent_t *)lab_xmalloc(sizeof(cudaEvent_t) * (size_t)K);
    R->ev_sort_done = (cudaEvent_t *)lab_xmalloc(sizeof(cudaEvent_t) * (size_t)K);
    for (int j = 0; j < K; j++) {
        CUDA_CHECK(cudaEventCreateWithFlags(&R->ev_round[j], cudaEventDisableTiming));
        CUDA_CHECK(cudaEventCreate(&R->ev_sort_begin[j]));
        CUDA_CHECK(cudaEventCreate(&R->ev_sort_done[j]));
    }
    CUDA_CHECK(cudaEventCreateWithFlags(&R->ev_ready, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&R->ev_sent, cudaEventDisableTiming));
    cudaEvent_t *ev[] = {&R->ev_begin, &R->ev_scatter_begin, &R->ev_scatter_end, &R->ev_rounds_end, &R->ev_sort_end};
    for (size_t e = 0; e < sizeof ev / sizeof ev[0]; e++)
        CUDA_CHECK(cudaEventCreate(ev[e]));
}

/* The local sort's tables: CUB's for a whole chunk, or the segmented sort's. */
static const char *local_setup(ss_rank *R, const ss_config *c)
{
    const int64_t room = ss_chunk_room(c, R->rank);
    if (c->local == SS_LOCAL_CUB) {
        size_t bytes = 0;
        cub_chunk_sort(NULL, &bytes, NULL, NULL, NULL, NULL, room > 0 ? room : 1, 32, NULL, 0);
        R->sort_temp_bytes = bytes;
        R->sort_temp = take(R, bytes);
        return NULL;
    }
    if (c->F == 1 || c->G * c->K == 1) { /* one segment a chunk, or one bucket (the share): step 7's sort, whole */
        R->sort_temp_bytes = onesweep_tables_bytes(room > 0 ? room : 1);
        R->sort_temp = take(R, R->sort_temp_bytes);
        return onesweep_fit(c->with_values);
    }
    return seg_setup(R, c, room, take);
}

const char *ss_setup(ss_rank *R, const ss_config *c, const ss_rank *shared)
{
    const int B = c->G * c->K, BF = B * c->F;
    size_t total_mem;
    CUDA_CHECK(cudaSetDevice(R->device));
    CUDA_CHECK(cudaMemGetInfo(&R->free_before, &total_mem));
    R->bytes_allocated = 0;
    R->segsort = NULL;
    R->push = NULL, R->ev_pushed = NULL, R->pushes = 0;
    R->start = plan_share_start(c->N, c->G, R->rank);
    R->n = plan_share_start(c->N, c->G, R->rank + 1) - R->start;
    R->cap = ss_capacity(c, R->rank);
    const char *why = size_grid(R, c);
    if (why != NULL)
        return why;
    create_streams(R, shared);
    create_pushes(R, c);
    const size_t kb = sizeof(unsigned int) * (size_t)R->cap, rows = (size_t)BF * (R->cols > 0 ? R->cols : 1);
    R->keys = (unsigned int *)take(R, kb);
    R->part_joined = c->direct_first && c->with_values; /* a peer's offset into part_k then holds for part_v */
    R->part_k = (unsigned int *)take(R, R->part_joined ? 2 * kb : kb);
    R->values = c->with_values ? (unsigned int *)take(R, kb) : NULL;
    R->part_v = !c->with_values ? NULL : R->part_joined ? R->part_k + R->cap : (unsigned int *)take(R, kb);
    R->direct = 0;
    int64_t *pos = (int64_t *)lab_xmalloc(sizeof(int64_t) * (size_t)c->S); /* fixed by the share's size */
    R->sample_used = plan_sample_positions(R->n, c->S, pos);
    R->sample_pos_d = (int64_t *)take(R, sizeof(int64_t) * (size_t)c->S);
    CUDA_CHECK(cudaMemcpy(R->sample_pos_d, pos, sizeof(int64_t) * (size_t)c->S, cudaMemcpyHostToDevice));
    free(pos);
    R->sample_d = (unsigned int *)take(R, sizeof(unsigned int) * (size_t)c->G * c->S);
    /* the cuts' block, and send_off: each filled in a pinned copy on the host and sent in one copy
     * (upload_cuts, lay_out) */
    R->cuts_bytes = ss_cut_block_bytes(B);
    const ss_cut_block cuts = ss_cut_block_at((char *)take(R, R->cuts_bytes), B);
    R->split_pos_d = cuts.split_pos, R->split_key_d = cuts.split_key, R->shift_d = cuts.shift;
    R->fine_base_d = cuts.fine_base, R->first_bin_d = cuts.first_bin;
    CUDA_CHECK(cudaMallocHost(&R->cuts_h, R->cuts_bytes + sizeof(int64_t) * (size_t)BF));
    R->reaches_peers = 0; /* ss_link_peers finds out */
    R->table_d = (unsigned int *)take(R, sizeof(unsigned int) * rows);
    R->row_prefix_d = (uint64_t *)take(R, sizeof(uint64_t) * rows);
    R->counts_d = (uint64_t *)take(R, sizeof(uint64_t) * (size_t)c->G * BF);
    const int bins = ss_bins_path(c);
    R->bins_d = bins ? (unsigned int *)take(R, sizeof(unsigned int) * (size_t)c->G * PLAN_BINS) : NULL;
    R->block_bins_d = bins ? (unsigned int *)take(R, sizeof(unsigned int) * (size_t)R->cols * PLAN_BINS) : NULL;
    R->send_off_d = (int64_t *)take(R, sizeof(int64_t) * (size_t)BF);
    R->check_d = (uint64_t *)take(R, ss_check_bytes(c->G));
    R->layout = (ss_layout *)lab_xmalloc(sizeof(ss_layout));
    create_events(R, c->K);
    return local_setup(R, c);
}

void ss_teardown(ss_rank *R)
{
    CUDA_CHECK(cudaSetDevice(R->device));
    CUDA_CHECK(cudaDeviceSynchronize());
    void *bufs[] = {R->keys,
                    R->part_k,
                    R->values,
                    R->part_joined ? NULL : R->part_v,
                    R->sample_pos_d,
                    R->sample_d,
                    R->split_pos_d, /* the cuts' block */
                    R->table_d,
                    R->row_prefix_d,
                    R->counts_d,
                    R->bins_d,
                    R->block_bins_d,
                    R->send_off_d,
                    R->check_d,
                    R->sort_temp,
                    R->segsort != NULL ? (void *)R->segsort->pieces_d : NULL,
                    R->segsort != NULL ? (void *)R->segsort->seg_out_d : NULL,
                    R->segsort != NULL ? (void *)R->segsort->zeroed_d : NULL,
                    R->segsort != NULL ? (void *)R->segsort->starts_d : NULL};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i] != NULL)
            CUDA_CHECK(cudaFree(bufs[i]));
    CUDA_CHECK(cudaFreeHost(R->cuts_h));
    seg_teardown(R);
    for (int j = 0; j < R->chunks; j++) {
        CUDA_CHECK(cudaEventDestroy(R->ev_round[j]));
        CUDA_CHECK(cudaEventDestroy(R->ev_sort_begin[j]));
        CUDA_CHECK(cudaEventDestroy(R->ev_sort_done[j]));
    }
    CUDA_CHECK(cudaEventDestroy(R->ev_ready));
    CUDA_CHECK(cudaEventDestroy(R->ev_sent));
    cudaEvent_t ev[] = {R->ev_begin, R->ev_scatter_begin, R->ev_scatter_end, R->ev_rounds_end, R->ev_sort_end};
    for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++)
        CUDA_CHECK(cudaEventDestroy(ev[i]));
    free(R->layout), free(R->ev_round), free(R->ev_sort_begin), free(R->ev_sort_done);
    for (int k = 0; k < R->pushes; k++) {
        CUDA_CHECK(cudaStreamDestroy(R->push[k]));
        CUDA_CHECK(cudaEventDestroy(R->ev_pushed[k]));
    }
    free(R->push), free(R->ev_pushed);
    if (R->owns_streams) {
        CUDA_CHECK(cudaStreamDestroy(R->comm_stream));
        CUDA_CHECK(cudaStreamDestroy(R->sort_stream));
    }
}

__global__ void gen_share_kernel(unsigned int *keys, unsigned int *values, int64_t n, int64_t start, int64_t N,
                                 int dist, uint64_t seed)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        keys[i] = gen_key(dist, seed, (uint64_t)(start + i), (uint64_t)N);
        if (values != NULL)
            values[i] = gen_value((uint64_t)(start + i));
    }
}

void ss_generate(ss_rank *R, const ss_config *c, int dist, uint64_t seed)
{
    /* everything the sort writes is poisoned first (LAB_POISON_BYTE, which the reports name):
     * stale keys cannot pass for results. On comm_stream, so not lab_poison_device. */
    const size_t room = sizeof(unsigned int) * (size_t)R->cap, tail = sizeof(unsigned int) * (size_t)(R->cap - R->n);
    CUDA_CHECK(cudaSetDevice(R->device));
    CUDA_CHECK(cudaMemsetAsync(R->part_k, LAB_POISON_BYTE, room, R->comm_stream));
    CUDA_CHECK(cudaMemsetAsync(R->keys + R->n, LAB_POISON_BYTE, tail, R->comm_stream));
    CUDA_CHECK(
        cudaMemsetAsync(R->sample_d, LAB_POISON_BYTE, sizeof(unsigned int) * (size_t)c->G * c->S, R->comm_stream));
    if (c->with_values) {
        CUDA_CHECK(cudaMemsetAsync(R->part_v, LAB_POISON_BYTE, room, R->comm_stream));
        CUDA_CHECK(cudaMemsetAsync(R->values + R->n, LAB_POISON_BYTE, tail, R->comm_stream));
    }
    if (R->n > 0) {
        gen_share_kernel<<<2048, 256, 0, R->comm_stream>>>(R->keys, c->with_values ? R->values : NULL, R->n, R->start,
                                                           c->N, dist, seed);
        CUDA_CHECK_LAUNCH();
    }
    CUDA_CHECK(cudaStreamSynchronize(R->comm_stream));
}

#endif
