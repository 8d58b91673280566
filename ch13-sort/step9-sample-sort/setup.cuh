/* setup.cuh - ch13 step 9's ranks set up and torn down: each rank's buffers
 * on its GPU (sized once per configuration: nothing is allocated during a
 * sort), its streams and events, and a fresh input made in place. Included
 * by sample_sort.cu, after phases.cuh. */
#ifndef SS_SETUP_CUH
#define SS_SETUP_CUH

#include "phases.cuh"
#include "report.h"
#include "verify.cuh"

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

/* The count and scatter kernels run as many blocks as the scatter's kernel
 * (`scatter`, with `shared` bytes) fits at once, each a chunk of whole tiles:
 * R's grid. NULL, or why the kernel cannot run here. */
static const char *size_grid(ss_rank *R, const void *scatter, size_t shared)
{
    int per_sm = 0, sms = 0;
    const char *why = lab_fit_kernel(scatter, SS_BLOCK, shared);
    if (why != NULL)
        return why;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scatter, SS_BLOCK, shared));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, R->device));
    if (per_sm < 1)
        return "the scatter kernel does not fit an SM (too many buckets)";
    const int64_t tiles = (R->n + SS_TILE - 1) / SS_TILE, most = (int64_t)per_sm * sms;
    R->chunk = ((tiles + most - 1) / most) * SS_TILE;
    R->chunk = R->chunk > 0 ? R->chunk : SS_TILE;
    R->cols = (int)((R->n + R->chunk - 1) / R->chunk);
    return NULL;
}

/* Its own streams (the comm stream first: NCCL's blocks and the scatter go
 * before the sorts), or those of `shared`, rank 0 on the same GPU: one order
 * for the copies between ranks that share a GPU. */
static void create_streams(ss_rank *R, const ss_rank *shared)
{
    R->owns_streams = shared == NULL;
    if (shared != NULL) {
        R->comm_stream = shared->comm_stream, R->sort_stream = shared->sort_stream;
        return;
    }
    int least, greatest;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&R->comm_stream, cudaStreamNonBlocking, greatest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&R->sort_stream, cudaStreamNonBlocking, least));
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
    cudaEvent_t *ev[] = {&R->ev_begin, &R->ev_scatter_begin, &R->ev_scatter_end, &R->ev_rounds_end, &R->ev_sort_end};
    for (size_t e = 0; e < sizeof ev / sizeof ev[0]; e++)
        CUDA_CHECK(cudaEventCreate(ev[e]));
}

/* The local sort's tables, for a chunk as large as the buffers: CUB's or step 7's. */
static const char *local_setup(ss_rank *R, const ss_config *c)
{
    const int64_t room = R->cap > 0 ? R->cap : 1;
    size_t bytes = 0;
    if (c->local == SS_LOCAL_CUB)
        CUDA_CHECK(sample_cub_sort(NULL, &bytes, NULL, NULL, NULL, NULL, room, c->with_values, NULL, 0));
    else
        bytes = onesweep_tables_bytes(room);
    R->sort_temp_bytes = bytes;
    R->sort_temp = take(R, bytes);
    return c->local == SS_LOCAL_CUB ? NULL : onesweep_fit(c->with_values);
}

/* Rank R (its rank and device set) set up for c on its device; NULL, or why not. */
static const char *ss_setup(ss_rank *R, const ss_config *c, const ss_rank *shared)
{
    const int B = c->G * c->K;
    size_t total_mem;
    CUDA_CHECK(cudaSetDevice(R->device));
    CUDA_CHECK(cudaMemGetInfo(&R->free_before, &total_mem));
    R->bytes_allocated = 0;
    R->start = plan_share_start(c->N, c->G, R->rank);
    R->n = plan_share_start(c->N, c->G, R->rank + 1) - R->start;
    R->cap = plan_capacity(c->N, c->G, c->K, c->slack, R->rank);
    const void *scatter = c->with_values ? (const void *)scatter_pairs_kernel : (const void *)scatter_keys_kernel;
    const char *why = size_grid(R, scatter, ss_scatter_shared(B, c->with_values));
    if (why == NULL)
        why = lab_fit_kernel((const void *)count_kernel, SS_BLOCK, ss_count_shared(B));
    if (why != NULL)
        return why;
    create_streams(R, shared);
    const size_t kb = sizeof(unsigned int) * (size_t)R->cap, rows = (size_t)B * (R->cols > 0 ? R->cols : 1);
    R->keys = (unsigned int *)take(R, kb);
    R->values = c->with_values ? (unsigned int *)take(R, kb) : NULL;
    R->part_k = (unsigned int *)take(R, c->with_values ? 2 * kb : kb); /* part_v: its second half */
    R->part_v = c->with_values ? R->part_k + R->cap : NULL;
    int64_t *pos = (int64_t *)lab_xmalloc(sizeof(int64_t) * (size_t)c->S); /* fixed by the share's size */
    R->sample_used = plan_sample_positions(R->n, c->S, pos);
    R->sample_pos_d = (int64_t *)take(R, sizeof(int64_t) * (size_t)c->S);
    CUDA_CHECK(cudaMemcpy(R->sample_pos_d, pos, sizeof(int64_t) * (size_t)c->S, cudaMemcpyHostToDevice));
    free(pos);
    R->sample_d = (unsigned int *)take(R, sizeof(unsigned int) * (size_t)c->G * c->S);
    R->split_key_d = (unsigned int *)take(R, sizeof(unsigned int) * (size_t)B);
    R->split_pos_d = (uint64_t *)take(R, sizeof(uint64_t) * (size_t)B);
    R->table_d = (unsigned int *)take(R, sizeof(unsigned int) * rows);
    R->row_prefix_d = (uint64_t *)take(R, sizeof(uint64_t) * rows);
    R->counts_d = (uint64_t *)take(R, sizeof(uint64_t) * (size_t)c->G * B);
    R->send_off_d = (int64_t *)take(R, sizeof(int64_t) * (size_t)B);
    R->check_d = (uint64_t *)take(R, sample_check_bytes(c->G));
    R->layout = (ss_layout *)lab_xmalloc(sizeof(ss_layout));
    create_events(R, c->K);
    return local_setup(R, c);
}

static void ss_teardown(ss_rank *R)
{
    CUDA_CHECK(cudaSetDevice(R->device));
    CUDA_CHECK(cudaDeviceSynchronize());
    void *bufs[] = {R->keys,        R->values,      R->part_k,   R->sample_pos_d, R->sample_d,
                    R->split_key_d, R->split_pos_d, R->table_d,  R->row_prefix_d, R->counts_d,
                    R->send_off_d,  R->check_d,     R->sort_temp};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i] != NULL)
            CUDA_CHECK(cudaFree(bufs[i]));
    for (int j = 0; j < R->chunks; j++) {
        CUDA_CHECK(cudaEventDestroy(R->ev_round[j]));
        CUDA_CHECK(cudaEventDestroy(R->ev_sort_begin[j]));
        CUDA_CHECK(cudaEventDestroy(R->ev_sort_done[j]));
    }
    cudaEvent_t ev[] = {R->ev_begin, R->ev_scatter_begin, R->ev_scatter_end, R->ev_rounds_end, R->ev_sort_end};
    for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++)
        CUDA_CHECK(cudaEventDestroy(ev[i]));
    free(R->layout), free(R->ev_round), free(R->ev_sort_begin), free(R->ev_sort_done);
    if (R->owns_streams) {
        CUDA_CHECK(cudaStreamDestroy(R->comm_stream));
        CUDA_CHECK(cudaStreamDestroy(R->sort_stream));
    }
}

/* A fresh input in place (sample_gpu.h: key number p of N from gen.h's
 * distribution, value p); every buffer the sort writes poisoned first (LAB_POISON_BYTE, which the
 * reports name), so stale keys cannot pass for results. */
static void ss_generate(ss_rank *R, const ss_config *c, int dist, uint64_t seed)
{
    const size_t room = sizeof(unsigned int) * (size_t)R->cap, tail = sizeof(unsigned int) * (size_t)(R->cap - R->n);
    CUDA_CHECK(cudaSetDevice(R->device));
    CUDA_CHECK(cudaMemsetAsync(R->part_k, LAB_POISON_BYTE, c->with_values ? 2 * room : room, R->comm_stream));
    CUDA_CHECK(cudaMemsetAsync(R->keys + R->n, LAB_POISON_BYTE, tail, R->comm_stream));
    CUDA_CHECK(
        cudaMemsetAsync(R->sample_d, LAB_POISON_BYTE, sizeof(unsigned int) * (size_t)c->G * c->S, R->comm_stream));
    if (c->with_values)
        CUDA_CHECK(cudaMemsetAsync(R->values + R->n, LAB_POISON_BYTE, tail, R->comm_stream));
    sample_generate(R->keys, c->with_values ? R->values : NULL, R->n, R->start, c->N, dist, seed, R->comm_stream);
    CUDA_CHECK(cudaStreamSynchronize(R->comm_stream));
}

/* c's chunks (the plan's default) and local sort (auto: step 7's for keys,
 * CUB's for pairs and for buffers past what step 7 sorts at once) filled
 * in, or why c cannot run: on the host, before a GPU is looked for. */
static const char *ss_configure(ss_config *c)
{
    c->K = c->K > 0 ? c->K : plan_default_chunks(c->G);
    ss_plan p;
    const char *why = plan_init(&p, c->N, c->G, c->K, c->S, 1.0);
    if (why != NULL)
        return why;
    plan_free(&p);
    const int64_t most = plan_capacity(c->N, c->G, c->K, c->slack, 0); /* rank 0 holds the most */
    if (c->local == SS_LOCAL_AUTO) /* pairs: CUB's sort 16.0 ms of 2^30 on two H200s, step 7's 17.1 */
        c->local = c->with_values || most > ONESWEEP_MAX_N ? SS_LOCAL_CUB : SS_LOCAL_ONESWEEP;
    if (!(c->slack >= 0.0 && c->slack <= 1.0))
        return "the buffers' slack must be 0 to 1 (of N / G)";
    if (c->local == SS_LOCAL_ONESWEEP && most > ONESWEEP_MAX_N)
        return "a chunk may hold more than step 7 sorts at once (2^31 - 1 keys): more GPUs, or --local cub";
    if (c->timeout_s < 0)
        return "the watchdog's limit must be 0 (its default) or more seconds";
    return NULL;
}

/* ---- the ranks of this process ------------------------------------------------------------- */

/* This process's ranks set up for c at their places (ranks that share GPU 0's
 * streams when they exchange by device copies); NULL, or why not. */
static const char *ss_ranks_open(ss_ranks *X, const ss_config *c, const ss_place *at, int nlocal)
{
    memset(X, 0, sizeof *X);
    X->c = *c, X->nlocal = nlocal;
    X->R = (ss_rank *)calloc((size_t)nlocal, sizeof(ss_rank));
    X->in = (ss_hash *)calloc((size_t)nlocal, sizeof(ss_hash));
    X->host_sample = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)c->G * c->S);
    X->host_counts = (uint64_t *)lab_xmalloc(sizeof(uint64_t) * (size_t)c->G * c->G * c->K);
    const char *why = X->R == NULL || X->in == NULL ? "out of host memory for the ranks" : NULL;
    for (int i = 0; i < nlocal && why == NULL; i++) {
        X->R[i].rank = at[i].rank, X->R[i].device = at[i].device, X->R[i].comm = at[i].comm;
        why = ss_setup(&X->R[i], c, c->link == SS_LINK_COPIES && i > 0 ? &X->R[0] : NULL);
    }
    return why;
}

static void ss_ranks_close(ss_ranks *X)
{
    for (int i = X->nlocal - 1; i >= 0; i--) /* rank 0 owns the shared streams: last */
        if (X->R[i].layout != NULL)
            ss_teardown(&X->R[i]);
    plan_free(&X->plan);
    free(X->R), free(X->in), free(X->host_sample), free(X->host_counts);
}

/* A fresh input (dist, seed) on every owned rank, its hashes kept for the checks. */
static void ss_ranks_fresh(ss_ranks *X, int dist, uint64_t seed)
{
    for (int i = 0; i < X->nlocal; i++) {
        ss_generate(&X->R[i], &X->c, dist, seed);
        X->in[i] = ss_hash_input(&X->R[i], &X->c);
    }
}

/* A fresh plan for X's next sort, with the first chunk's weight: NULL, or why not. */
static const char *ss_ranks_plan(ss_ranks *X, double first_weight)
{
    plan_free(&X->plan);
    return plan_init(&X->plan, X->c.N, X->c.G, X->c.K, X->c.S, first_weight);
}

#endif
