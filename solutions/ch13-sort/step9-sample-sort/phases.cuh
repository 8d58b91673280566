/* phases.cuh - ch13 step 9's phases, each a function over the ranks this
 * process owns (every NCCL call of a phase in one group): the sample and its
 * splitters, the counts and where everything goes, the scatter, the exchange
 * of the keys round by round, and the sorts of the chunks as they arrive.
 * sample_sort.cu's ss_sort runs them in that order. Included by
 * sample_sort.cu. */
#ifndef SS_PHASES_CUH
#define SS_PHASES_CUH

#include <string.h>
#include <time.h>

#include "onesweep.cuh" /* ch13 step 7's sort: each chunk's local sort */
#include "partition.cuh"
#include "sample_gpu.h" /* CUB's: the other */

static double ss_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* The splitters as the kernels take them, on rank r. */
static ss_cuts cuts_of(const ss_rank *r, const ss_plan *plan)
{
    const ss_cuts c = {.split_key = r->split_key_d, .split_pos = r->split_pos_d, .B = plan->B};
    return c;
}

/* ---- the sample and the splitters -------------------------------------------------- */

/* gather_sample: each rank takes S keys of its unsorted share at the plan's
 * positions into its slot of the sample (rank r's at r * S); every slot then
 * goes to every rank, and rank 0's copy of the whole sample to the host. */
static void gather_sample(ss_rank *R, int nlocal, const ss_config *c, unsigned int *host_sample)
{
    void **slots = (void **)lab_xmalloc(sizeof(void *) * (size_t)nlocal);
    /* exercise: gather_sample(), the sample: each owned rank launches take_sample_kernel on its comm_stream, writing its S keys into its own slot of sample_d (slot r starts at sample_d + r * S); then ss_all_gather gives every rank every slot (slots[i] = R[i].sample_d, S keys of 4 bytes a slot) */
    /* hint: select the rank's GPU first (cudaSetDevice(R[i].device)); the kernel takes the share (R[i].keys), the positions (R[i].sample_pos_d) and how many are used (R[i].sample_used) */
    /* hint: one thread per sample key: (S + 255) / 256 blocks of 256 threads; CUDA_CHECK_LAUNCH() after it */
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        take_sample_kernel<<<(c->S + 255) / 256, 256, 0, R[i].comm_stream>>>(
            R[i].keys, R[i].sample_pos_d, R[i].sample_used, c->S, R[i].sample_d + (size_t)R[i].rank * c->S);
        CUDA_CHECK_LAUNCH();
        slots[i] = R[i].sample_d;
    }
    ss_all_gather(R, nlocal, c, slots, sizeof(unsigned int) * (size_t)c->S);
    /* exercise stub: for (int i = 0; i < nlocal; i++) slots[i] = R[i].sample_d; */
    /* end exercise */
    free(slots);
    CUDA_CHECK(cudaSetDevice(R[0].device));
    CUDA_CHECK(cudaMemcpyAsync(host_sample, R[0].sample_d, sizeof(unsigned int) * (size_t)c->G * c->S,
                               cudaMemcpyDeviceToHost, R[0].comm_stream));
    CUDA_CHECK(cudaStreamSynchronize(R[0].comm_stream));
}

/* The plan's splitters to every owned rank's device. */
static void upload_splitters(ss_rank *R, int nlocal, const ss_plan *plan)
{
    const size_t n = (size_t)(plan->B - 1);
    for (int i = 0; i < nlocal && n > 0; i++) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaMemcpyAsync(R[i].split_key_d, plan->split_key, sizeof(unsigned int) * n, cudaMemcpyHostToDevice,
                                   R[i].comm_stream));
        CUDA_CHECK(cudaMemcpyAsync(R[i].split_pos_d, plan->split_pos, sizeof(uint64_t) * n, cudaMemcpyHostToDevice,
                                   R[i].comm_stream));
    }
}

/* The plan picks the splitters on the host (every process the same); each rank gets a copy. */
static void choose_splitters(ss_rank *R, int nlocal, ss_plan *plan, const unsigned int *host_sample)
{
    plan_choose_splitters(plan, host_sample);
    upload_splitters(R, nlocal, plan);
}

/* ---- the counts, and where everything goes ------------------------------------------- */

/* Keys per bucket per block, then per bucket: each block's offset and the
 * total (this rank's row of the counts, where the gather expects it). */
static void count_buckets(ss_rank *R, int nlocal, const ss_plan *plan)
{
    const int B = plan->B;
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        CUDA_CHECK(cudaSetDevice(r->device));
        if (r->cols > 0) {
            count_kernel<<<r->cols, SS_BLOCK, ss_count_shared(B), r->comm_stream>>>(r->keys, r->n, r->start, r->chunk,
                                                                                    cuts_of(r, plan), r->table_d);
            scan_table_kernel<<<B, 32, 0, r->comm_stream>>>(r->table_d, r->cols, r->row_prefix_d,
                                                            r->counts_d + (size_t)r->rank * B);
            CUDA_CHECK_LAUNCH();
        } else {
            CUDA_CHECK(cudaMemsetAsync(r->counts_d + (size_t)r->rank * B, 0, sizeof(uint64_t) * B, r->comm_stream));
        }
    }
}

/* Every rank's layout from the plan's counts, the same on every process (so
 * every process stops, or goes on, together), and the check that the ranks
 * agree on the exchange; then each owned rank's own. NULL, or why not. */
static const char *lay_out(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan)
{
    ss_layout *all = (ss_layout *)lab_xmalloc(sizeof(ss_layout) * (size_t)c->G);
    const char *why = NULL;
    for (int r = 0; r < c->G && why == NULL; r++) {
        const int64_t cap = plan_capacity(c->N, c->G, plan->K, c->slack, r);
        why = plan_layout(plan, r, cap, cap, &all[r]);
    }
    if (why == NULL)
        why = ss_exchange_agree(plan, all);
    for (int i = 0; i < nlocal && why == NULL; i++)
        *R[i].layout = all[R[i].rank];
    free(all);
    return why;
}

/* Every rank's counts to all, into the plan; then lay_out. */
static const char *exchange_counts(ss_rank *R, int nlocal, const ss_config *c, ss_plan *plan, uint64_t *host_counts)
{
    void **rows = (void **)lab_xmalloc(sizeof(void *) * (size_t)nlocal);
    for (int i = 0; i < nlocal; i++)
        rows[i] = R[i].counts_d;
    ss_all_gather(R, nlocal, c, rows, sizeof(uint64_t) * (size_t)plan->B);
    free(rows);
    CUDA_CHECK(cudaSetDevice(R[0].device));
    CUDA_CHECK(cudaMemcpyAsync(host_counts, R[0].counts_d, sizeof(uint64_t) * (size_t)c->G * plan->B,
                               cudaMemcpyDeviceToHost, R[0].comm_stream));
    CUDA_CHECK(cudaStreamSynchronize(R[0].comm_stream));
    plan_set_counts(plan, host_counts);
    return lay_out(R, nlocal, c, plan);
}

/* Each owned rank's part offsets of its buckets (its layout's send_off) to its device. */
static void upload_send_off(ss_rank *R, int nlocal, const ss_plan *plan)
{
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaMemcpyAsync(R[i].send_off_d, R[i].layout->send_off, sizeof(int64_t) * (size_t)plan->B,
                                   cudaMemcpyHostToDevice, R[i].comm_stream));
    }
}

/* ---- the scatter and the exchange ------------------------------------------------------ */

static void scatter_buckets(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan)
{
    const size_t shared = ss_scatter_shared(plan->B, c->with_values);
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        const ss_cuts cuts = cuts_of(r, plan);
        CUDA_CHECK(cudaSetDevice(r->device));
        CUDA_CHECK(cudaEventRecord(r->ev_scatter_begin, r->comm_stream));
        if (r->cols > 0 && c->with_values)
            scatter_pairs_kernel<<<r->cols, SS_BLOCK, shared, r->comm_stream>>>(r->keys, r->values, r->part_k,
                                                                                r->part_v, r->n, r->start, r->chunk,
                                                                                cuts, r->row_prefix_d, r->send_off_d);
        else if (r->cols > 0)
            scatter_keys_kernel<<<r->cols, SS_BLOCK, shared, r->comm_stream>>>(
                r->keys, r->part_k, r->n, r->start, r->chunk, cuts, r->row_prefix_d, r->send_off_d);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaEventRecord(r->ev_scatter_end, r->comm_stream));
    }
}

/* Round j's keys are in on every owned rank (and its region of part is free): its event. */
static void mark_round(ss_rank *R, int nlocal, int j)
{
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaEventRecord(R[i].ev_round[j], R[i].comm_stream));
        if (j + 1 == R[i].chunks)
            CUDA_CHECK(cudaEventRecord(R[i].ev_rounds_end, R[i].comm_stream));
    }
}

/* K rounds, each over the run's link; event ev_round[j]: round j is done. */
static void exchange_keys(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan)
{
    for (int j = 0; j < plan->K; j++) {
        ss_exchange_round(R, nlocal, c, plan, j);
        mark_round(R, nlocal, j);
    }
}

/* ---- the sorts of the chunks ------------------------------------------------------------ */

/* m keys (and values) sorted whole between A and Z by the run's local sort
 * (CUB's, or step 7's, which sorts in place); *in_a: the result ended in A.
 * NULL, or why not. */
static const char *sort_whole(ss_rank *r, const ss_config *c, unsigned int *A, unsigned int *Av, unsigned int *Z,
                              unsigned int *Zv, int64_t m, int *in_a)
{
    if (c->local == SS_LOCAL_CUB) {
        size_t bytes = r->sort_temp_bytes;
        CUDA_CHECK(sample_cub_sort(r->sort_temp, &bytes, A, Av, Z, Zv, m, c->with_values, in_a, r->sort_stream));
        return NULL;
    }
    int in_z = 0;
    const char *why = onesweep_sort_buffers(A, Z, Av, Zv, m, r->sort_temp, r->sort_stream, &in_z);
    *in_a = !in_z;
    return why;
}

/* The rank's run lies where its first chunk ended (in keys, or in part); a
 * later chunk that ended in the other buffer is copied there. */
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

/* Chunk j of rank r sorted in its region of recv (keys) and of part, and settled where the run lives. */
static const char *sort_chunk(ss_rank *r, const ss_config *c, int j)
{
    const int64_t at = r->layout->sub_start[j], m = r->layout->sub_start[j + 1] - at;
    if (m == 0)
        return NULL;
    int in_keys = 1;
    const char *why = sort_whole(r, c, r->keys + at, c->with_values ? r->values + at : NULL, r->part_k + at,
                                 c->with_values ? r->part_v + at : NULL, m, &in_keys);
    if (why == NULL)
        settle_run(r, c->with_values, at, m, in_keys);
    return why;
}

/* Each chunk, from chunk `from` on (step 9: all of them), sorted on the sort
 * stream as soon as the round it waits for is in; side by side in keys or in
 * part (settle_run), the sorted chunks are the rank's run of the output. */
static const char *sort_chunks(ss_rank *R, int nlocal, const ss_config *c, int from)
{
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        const ss_layout *L = r->layout;
        CUDA_CHECK(cudaSetDevice(r->device));
        if (from == 0)
            r->run_in_keys = -1;
        for (int j = from; j < r->chunks; j++) {
            /* exercise: sort_chunks(), the pipeline: make the sort stream wait for round wait_round[j] (its event ev_round: the chunk's keys are in, and its place in part holds nothing still to send), record ev_sort_begin[j], then sort_chunk(r, c, j); return what it says when it is not NULL */
            /* hint: cudaStreamWaitEvent makes the GPU wait, not the host: the host goes on to enqueue the next chunk's sort */
            /* hint: the event of the round to wait for is r->ev_round[L->wait_round[j]]; the sort runs on r->sort_stream */
            CUDA_CHECK(cudaStreamWaitEvent(r->sort_stream, r->ev_round[L->wait_round[j]], 0));
            CUDA_CHECK(cudaEventRecord(r->ev_sort_begin[j], r->sort_stream));
            const char *why = sort_chunk(r, c, j);
            if (why != NULL)
                return why;
            /* exercise stub: (void)L; CUDA_CHECK(cudaEventRecord(r->ev_sort_begin[j], r->comm_stream)); */
            /* end exercise */
            CUDA_CHECK(cudaEventRecord(r->ev_sort_done[j], r->sort_stream));
        }
        CUDA_CHECK(cudaEventRecord(r->ev_sort_end, r->sort_stream));
        const int in_keys = r->run_in_keys != 0;
        r->run_k = in_keys ? r->keys : r->part_k, r->run_n = L->sub_start[r->chunks];
        r->run_v = c->with_values ? (in_keys ? r->values : r->part_v) : NULL;
    }
    return NULL;
}

/* ---- a sort's start and end ------------------------------------------------------------- */

/* A sort starts on every owned rank (its first event). */
static void mark_begin(ss_rank *R, int nlocal)
{
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaEventRecord(R[i].ev_begin, R[i].comm_stream));
    }
}

static float elapsed(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

/* The phases' device times, the largest over the owned ranks. */
static void phase_times(ss_rank *R, int nlocal, ss_times *t)
{
    for (int i = 0; i < nlocal; i++) {
        double sorting = 0;
        for (int j = 0; j < R[i].chunks; j++)
            sorting += elapsed(R[i].ev_sort_begin[j], R[i].ev_sort_done[j]);
        const double scatter = elapsed(R[i].ev_scatter_begin, R[i].ev_scatter_end);
        const double exchange = elapsed(R[i].ev_scatter_end, R[i].ev_rounds_end);
        const double waited = elapsed(R[i].ev_scatter_end, R[i].ev_sort_end) - sorting;
        t->scatter = fmax(t->scatter, scatter), t->exchange = fmax(t->exchange, exchange);
        t->sort = fmax(t->sort, sorting), t->waited = fmax(t->waited, waited);
    }
}

/* A sort's end: every owned rank's streams done (a refused plan too leaves
 * nothing in flight: ss_wait), and its times from the host clock's marks
 * (at: its start, the splitters chosen, the plan laid out) and the events. */
static const char *finish_sort(ss_rank *R, int nlocal, const ss_config *c, const double *at, const char *why,
                               ss_times *t)
{
    ss_wait(R, nlocal, c);
    memset(t, 0, sizeof *t);
    t->splitters = at[1] - at[0], t->count = at[2] - at[1], t->total = ss_now_ms() - at[0];
    if (why == NULL)
        phase_times(R, nlocal, t);
    return why;
}

/* One rank, one chunk: nothing to split or send, the share is the bucket,
 * sorted between keys and part, its phases' events all at once. */
static const char *sort_alone(ss_rank *R, const ss_config *c, ss_plan *plan, ss_times *t)
{
    const uint64_t n = (uint64_t)R->n;                       /* every key in bucket 0 */
    const double now = ss_now_ms(), at[3] = {now, now, now}; /* no splitters, no counts */
    plan_set_counts(plan, &n);
    const char *why = plan_layout(plan, 0, R->cap, R->cap, R->layout);
    CUDA_CHECK(cudaSetDevice(R->device));
    cudaEvent_t marks[] = {R->ev_begin, R->ev_scatter_begin, R->ev_scatter_end, R->ev_round[0], R->ev_rounds_end};
    for (size_t e = 0; e < sizeof marks / sizeof marks[0]; e++)
        CUDA_CHECK(cudaEventRecord(marks[e], R->comm_stream));
    return finish_sort(R, 1, c, at, why != NULL ? why : sort_chunks(R, 1, c, 0), t);
}

#endif
