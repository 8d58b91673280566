/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step9` gives graded hints. */
/* sample_sort.cu - ch13 step 9: the sort leaves one GPU: the keys, spread
 * over G GPUs, are split at sampled splitters and by their top bits,
 * exchanged over NCCL, and each GPU sorts what it received on the bits left
 * with step 7's radix sort.
 * Beyond the book: section 13.8 names sample sort for a sequence spread over
 * several GPUs or memories. Sample sort: Frazer and McKellar (1970),
 * oversampled as in Blelloch et al. (1991). The form here partitions first
 * and sorts after one exchange, with no merge, as radix-partitioning
 * multi-GPU sorts do (Ilic et al., "RMG Sort", 2023; Maltenberger et al.,
 * SIGMOD 2022, for what the links cost).
 *
 * The phases, in order (ss_sort), each a function below; their kernels are in
 * partition.cuh and segsort.cuh, the exchange in exchange.c, the plan in plan.c:
 *   gather_sample     S keys of each UNSORTED share at jittered regular places, gathered to all
 *   choose_splitters  G*K - 1 items at the quantiles of the sample, and each bucket's radix cut
 *   count_buckets     each block's keys per sub-bucket (plan_bucket_of, plan_fine_of: the cuts)
 *   exchange_counts   every rank's counts to all; where everything goes (plan_layout); the ranks
 *                     agree on every message of the exchange before any is sent
 *   (or, with no TODO open, bin_splitters first: every key's top 12 bits counted, and where bin
 *   edges split the keys evenly the four phases above are one read of the share and one gather)
 *   scatter_buckets   the share rewritten sub-bucket by sub-bucket, stable (Fig 13.6's split)
 *   exchange_keys     K rounds: in round j every rank sends every other its bucket (d, j)
 *                     (--exchange direct: round 0 already written by the scatter into its receivers)
 *   sort_chunks       each chunk sorted on its low bits (segsort.cuh) as soon as its round is in
 * Items are (key, global position), so equal keys split evenly and the result
 * is the stable global sort. */
#include <string.h>
#include <time.h>

#include "partition.cuh"
#include "segsort.cuh"
#include "verify.cuh"
#include "setup.cuh"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int ss_fine_for(ss_local local, int G, int K, int asked)
{
    return asked > 0 ? asked : local == SS_LOCAL_CUB ? 1 : plan_default_fine(G, K);
}

ss_local ss_auto_local(const ss_config *c)
{
    if (c->F > 1) /* the radix cut: only step 7 sorts segments */
        return SS_LOCAL_ONESWEEP;
    if (c->with_values) /* pairs: CUB's sort 16.0 ms of 2^30 on two H200s, step 7's 17.1 (docs/ch13-sort.md) */
        return SS_LOCAL_CUB;
    for (int r = 0; r < c->G; r++)
        if (ss_chunk_room(c, r) > ONESWEEP_MAX_N)
            return SS_LOCAL_CUB;
    return SS_LOCAL_ONESWEEP; /* keys: step 7's 11.1 ms, CUB's 11.4 (the same) */
}

int ss_have_onesweep(void)
{
    return 1;
}

/* The plan's cuts as the kernels take them, on rank r. */
static ss_cuts cuts_of(const ss_rank *r, const ss_plan *plan)
{
    const ss_cuts c = {.split_key = r->split_key_d,
                       .shift = r->shift_d,
                       .fine_base = r->fine_base_d,
                       .split_pos = r->split_pos_d,
                       .B = plan->B,
                       .F = plan->F};
    return c;
}

/* gather_sample: each rank takes S keys of its unsorted share at the plan's
 * positions into its slot of the sample (rank r's at r * S); every slot then
 * goes to every rank, and rank 0's copy of the whole sample to the host. */
static void gather_sample(ss_rank *R, int nlocal, const ss_config *c, unsigned int *host_sample)
{
    void **slots = (void **)lab_xmalloc(sizeof(void *) * (size_t)nlocal);
    /* TODO(6): gather_sample(), the sample: each owned rank launches take_sample_kernel on its
       comm_stream, writing its S keys into its own slot of sample_d (slot r starts at sample_d + r
       * S); then ss_all_gather gives every rank every slot (slots[i] = R[i].sample_d, S keys of 4
       bytes a slot) */
    for (int i = 0; i < nlocal; i++) slots[i] = R[i].sample_d;
    free(slots);
    CUDA_CHECK(cudaSetDevice(R[0].device));
    CUDA_CHECK(cudaMemcpyAsync(host_sample, R[0].sample_d, sizeof(unsigned int) * (size_t)c->G * c->S,
                               cudaMemcpyDeviceToHost, R[0].comm_stream));
    CUDA_CHECK(cudaStreamSynchronize(R[0].comm_stream));
}

/* The plan's cuts (and the buckets' first bins, or NULL) to every owned
 * rank: its pinned copy of the cuts' block filled, then one upload. */
static void upload_cuts(ss_rank *R, int nlocal, const ss_plan *plan, const int *first_bin)
{
    const size_t b = (size_t)plan->B;
    for (int i = 0; i < nlocal; i++) {
        const ss_cut_block h = ss_cut_block_at(R[i].cuts_h, plan->B);
        memcpy(h.split_pos, plan->split_pos, sizeof(uint64_t) * (b - 1));
        memcpy(h.split_key, plan->split_key, sizeof(unsigned int) * (b - 1));
        memcpy(h.shift, plan->shift, sizeof(unsigned int) * b);
        memcpy(h.fine_base, plan->fine_base, sizeof(unsigned int) * b);
        if (first_bin != NULL)
            memcpy(h.first_bin, first_bin, sizeof(int) * (b + 1));
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(
            cudaMemcpyAsync(R[i].split_pos_d, R[i].cuts_h, R[i].cuts_bytes, cudaMemcpyHostToDevice, R[i].comm_stream));
    }
}

/* The plan picks the cuts on the host (every process the same); each rank gets a copy. */
static void choose_splitters(ss_rank *R, int nlocal, ss_plan *plan, const unsigned int *host_sample)
{
    plan_choose_splitters(plan, host_sample);
    upload_cuts(R, nlocal, plan, NULL);
}

/* The bins' way to splitters and counts, in one read of the share and one
 * gather: each rank counts its keys per bin (count_bins_kernel), every rank's
 * bins go to all, and where bin edges split the keys within 0.5 % of N / G of
 * each boundary (uniform keys: a bin is 1 / 4096 of them), the splitters sit
 * there and every count is a sum of bins (plan_bin_splitters): no sample and
 * no count pass, and the buckets even to a bin. Each block's table then comes
 * from its bins. 1 when so; 0: the sample's way (skewed keys). */
#define SS_BIN_SLACK 0.005
static int bin_splitters(ss_rank *R, int nlocal, const ss_config *c, ss_plan *plan, unsigned int *host_bins)
{
    const size_t row = sizeof(unsigned int) * PLAN_BINS;
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        unsigned int *mine = r->bins_d + (size_t)r->rank * PLAN_BINS;
        CUDA_CHECK(cudaSetDevice(r->device));
        CUDA_CHECK(cudaMemsetAsync(mine, 0, row, r->comm_stream));
        if (r->cols > 0) {
            count_bins_kernel<<<r->cols, SS_BLOCK, 0, r->comm_stream>>>(r->keys, r->n, r->chunk, r->block_bins_d, mine);
            CUDA_CHECK_LAUNCH();
        }
    }
    if (nlocal == c->G) /* every rank here: each row straight to the host */
        for (int i = 0; i < nlocal; i++) {
            CUDA_CHECK(cudaSetDevice(R[i].device));
            CUDA_CHECK(cudaMemcpyAsync(host_bins + (size_t)R[i].rank * PLAN_BINS,
                                       R[i].bins_d + (size_t)R[i].rank * PLAN_BINS, row, cudaMemcpyDeviceToHost,
                                       R[i].comm_stream));
        }
    else { /* mpirun: every rank's row to all, then all of them to the host */
        void **rows = (void **)lab_xmalloc(sizeof(void *) * (size_t)nlocal);
        for (int i = 0; i < nlocal; i++)
            rows[i] = R[i].bins_d;
        ss_all_gather(R, nlocal, c, rows, row);
        free(rows);
        CUDA_CHECK(cudaSetDevice(R[0].device));
        CUDA_CHECK(
            cudaMemcpyAsync(host_bins, R[0].bins_d, row * (size_t)c->G, cudaMemcpyDeviceToHost, R[0].comm_stream));
    }
    for (int i = 0; i < nlocal; i++)
        CUDA_CHECK(cudaStreamSynchronize(R[i].comm_stream));
    int first_bin[SS_BIN_BUCKETS + 1];
    if (!plan_bin_splitters(plan, host_bins, SS_BIN_SLACK, first_bin))
        return 0;
    upload_cuts(R, nlocal, plan, first_bin);
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        CUDA_CHECK(cudaSetDevice(r->device));
        if (r->cols > 0) {
            bins_table_kernel<<<r->cols, SS_BLOCK, 0, r->comm_stream>>>(r->block_bins_d, r->first_bin_d, plan->B,
                                                                        r->table_d);
            scan_table_kernel<<<plan->BF, 32, 0, r->comm_stream>>>(r->table_d, r->cols, r->row_prefix_d,
                                                                   r->counts_d + (size_t)r->rank * plan->BF);
            CUDA_CHECK_LAUNCH();
        }
    }
    return 1;
}

/* Keys per sub-bucket per block, then per sub-bucket: each block's offset
 * and the total (this rank's row of the counts, where the gather expects it). */
static void count_buckets(ss_rank *R, int nlocal, const ss_plan *plan)
{
    const int B = plan->B, BF = plan->BF;
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        ss_smem s;
        CUDA_CHECK(cudaSetDevice(r->device));
        if (r->cols > 0) {
            ss_cuts cuts = cuts_of(r, plan);
            void *args[] = {&r->keys, &r->n, &r->start, &r->chunk, &cuts, &r->table_d};
            CUDA_CHECK(cudaLaunchKernel(ss_count_kernel(B, plan->F), dim3(r->cols), dim3(SS_BLOCK), args,
                                        ss_smem_carve(NULL, B, BF, 0, 0, &s), r->comm_stream));
            scan_table_kernel<<<BF, 32, 0, r->comm_stream>>>(r->table_d, r->cols, r->row_prefix_d,
                                                             r->counts_d + (size_t)r->rank * BF);
            CUDA_CHECK_LAUNCH();
        } else {
            CUDA_CHECK(cudaMemsetAsync(r->counts_d + (size_t)r->rank * BF, 0, sizeof(uint64_t) * BF, r->comm_stream));
        }
    }
}

/* NULL when every chunk of rank r fits its local sort's tables, else why not. */
static const char *check_chunks(const ss_config *c, const ss_layout *L, int r)
{
    static __thread char why[200];
    const int64_t room = ss_chunk_room(c, r);
    for (int j = 0; j < c->K; j++) {
        const int64_t m = L->sub_start[j + 1] - L->sub_start[j];
        if (m > room || (c->local == SS_LOCAL_ONESWEEP && m > ONESWEEP_MAX_N)) {
            snprintf(why, sizeof why,
                     "rank %d's chunk %d holds %lld keys, more than its local sort takes (%lld): the "
                     "splitters missed",
                     r, j, (long long)m, (long long)room);
            return why;
        }
    }
    return NULL;
}

/* 1 when the scatters write round 0 straight into its receivers (--exchange
 * direct): every rank in this process, on GPUs that reach each other
 * (ss_link_peers), one sub-bucket a bucket, and each rank's chunk 0 fits
 * part's front, which its own scatter leaves alone (the free front and its
 * round 0's region, round 0 now going out directly). The chunk lands at
 * part's offset 0 in rank order (recv_off[s]), ready for its sort as soon as
 * every scatter is done: no copy engine, no wait for round 0. Else round 0
 * goes by the copy engines as the others. */
static int direct_first(const ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan)
{
    if (!c->direct_first || nlocal != c->G || plan->F != 1 || plan->B < 2)
        return 0;
    for (int d = 0; d < nlocal; d++) {
        const ss_layout *L = R[d].layout;
        if (L->sub_start[1] > L->round_end[0] || R[d].cap != R[0].cap || !R[d].reaches_peers)
            return 0; /* cap: one offset serves part_k and part_v (part_joined) on every rank */
    }
    return 1;
}

static const char *lay_out(ss_rank *R, int nlocal, const ss_config *c, ss_plan *plan);

/* Every rank's counts to all, into the plan; then lay_out. */
static const char *exchange_counts(ss_rank *R, int nlocal, const ss_config *c, ss_plan *plan, uint64_t *host_counts)
{
    void **rows = (void **)lab_xmalloc(sizeof(void *) * (size_t)nlocal);
    for (int i = 0; i < nlocal; i++)
        rows[i] = R[i].counts_d;
    ss_all_gather(R, nlocal, c, rows, sizeof(uint64_t) * (size_t)plan->BF);
    free(rows);
    CUDA_CHECK(cudaSetDevice(R[0].device));
    CUDA_CHECK(cudaMemcpyAsync(host_counts, R[0].counts_d, sizeof(uint64_t) * (size_t)c->G * plan->BF,
                               cudaMemcpyDeviceToHost, R[0].comm_stream));
    CUDA_CHECK(cudaStreamSynchronize(R[0].comm_stream));
    plan_set_counts(plan, host_counts);
    return lay_out(R, nlocal, c, plan);
}

/* The layout of every rank from the plan's counts, the same on every process
 * (so every process stops, or goes on, together), the check that the ranks
 * agree on the exchange, and each owned rank's offsets and sort tables to
 * its device. */
static const char *lay_out(ss_rank *R, int nlocal, const ss_config *c, ss_plan *plan)
{
    ss_layout *all = (ss_layout *)lab_xmalloc(sizeof(ss_layout) * (size_t)c->G);
    const char *why = NULL;
    for (int r = 0; r < c->G && why == NULL; r++) {
        const int64_t cap = ss_capacity(c, r);
        why = plan_layout(plan, r, cap, cap, &all[r]);
        if (why == NULL)
            why = check_chunks(c, &all[r], r);
    }
    if (why == NULL)
        why = ss_exchange_agree(plan, all);
    free(all);
    if (why != NULL)
        return why;
    for (int i = 0; i < nlocal; i++)
        plan_layout(plan, R[i].rank, R[i].cap, R[i].cap, R[i].layout);
    const int direct = direct_first(R, nlocal, c, plan);
    for (int i = 0; i < nlocal; i++) {
        int64_t *send_off = (int64_t *)(R[i].cuts_h + R[i].cuts_bytes); /* pinned, after the cuts */
        memcpy(send_off, R[i].layout->send_off, sizeof(int64_t) * (size_t)plan->BF);
        R[i].direct = direct;
        for (int d = 0; d < c->G && direct; d++) /* bucket (d, 0): straight to its place in rank d's part */
            send_off[d * plan->K] = ((intptr_t)R[d].part_k - (intptr_t)R[i].part_k) / (intptr_t)sizeof(unsigned int) +
                                    R[d].layout->recv_off[R[i].rank];
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaMemcpyAsync(R[i].send_off_d, send_off, sizeof(int64_t) * (size_t)plan->BF,
                                   cudaMemcpyHostToDevice, R[i].comm_stream));
        if (R[i].segsort != NULL)
            seg_upload(&R[i], plan);
    }
    return NULL;
}

static void scatter_buckets(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan)
{
    const size_t shared = ss_scatter_shared(plan->B, plan->F, c->with_values);
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        CUDA_CHECK(cudaSetDevice(r->device));
        CUDA_CHECK(cudaEventRecord(r->ev_scatter_begin, r->comm_stream));
        ss_cuts cuts = cuts_of(r, plan);
        void *pairs[] = {&r->keys,  &r->values, &r->part_k, &r->part_v,       &r->n,
                         &r->start, &r->chunk,  &cuts,      &r->row_prefix_d, &r->send_off_d};
        void *keys[] = {&r->keys, &r->part_k, &r->n, &r->start, &r->chunk, &cuts, &r->row_prefix_d, &r->send_off_d};
        if (r->cols > 0) /* the split's kernel: pairs or keys, few buckets (in registers), fine or not */
            CUDA_CHECK(cudaLaunchKernel(ss_scatter_kernel(plan->B, plan->F, c->with_values), dim3(r->cols),
                                        dim3(ss_scatter_block(plan->B, plan->F)), c->with_values ? pairs : keys, shared,
                                        r->comm_stream));
        CUDA_CHECK(cudaEventRecord(r->ev_scatter_end, r->comm_stream));
    }
}

/* K rounds; event ev_round[j]: round j's keys are in, and its region of part is free. */
static void exchange_keys(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan)
{
    for (int j = 0; j < plan->K; j++) {
        if (j > 0 || !R[0].direct)
            ss_exchange_round(R, nlocal, c, plan, j);
        else /* direct_first: round 0 is in once every rank's scatter is done */
            for (int i = 0; i < nlocal; i++) {
                CUDA_CHECK(cudaSetDevice(R[i].device));
                for (int s = 0; s < nlocal; s++)
                    CUDA_CHECK(cudaStreamWaitEvent(R[i].comm_stream, R[s].ev_scatter_end, 0));
            }
        for (int i = 0; i < nlocal; i++) {
            CUDA_CHECK(cudaSetDevice(R[i].device));
            CUDA_CHECK(cudaEventRecord(R[i].ev_round[j], R[i].comm_stream));
        }
    }
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaEventRecord(R[i].ev_rounds_end, R[i].comm_stream));
    }
}

/* m keys (and values) sorted whole between A and Z by the run's local sort
 * (CUB's on their low `bits` bits, step 7's on all 32); *in_a: the result
 * ended in A. NULL, or why not. */
static const char *sort_whole(ss_rank *r, const ss_config *c, unsigned int *A, unsigned int *Av, unsigned int *Z,
                              unsigned int *Zv, int64_t m, unsigned int bits, int *in_a)
{
    if (c->local == SS_LOCAL_CUB) {
        size_t bytes = r->sort_temp_bytes;
        CUDA_CHECK(cub_chunk_sort(r->sort_temp, &bytes, A, Av, Z, Zv, m, bits, in_a, r->sort_stream));
        return NULL;
    }
    int in_z = 0; /* step 7 sorts in place: an even count of passes ends in A */
    const char *why = onesweep_sort_buffers(A, Z, Av, Zv, m, r->sort_temp, r->sort_stream, &in_z);
    *in_a = !in_z;
    return why;
}

/* Chunk j of rank r sorted in its region of recv (A) and of part (Z), and settled where the rank's run lives. */
static const char *sort_chunk(ss_rank *r, const ss_config *c, const ss_plan *plan, int j)
{
    const int64_t at = r->layout->sub_start[j], m = r->layout->sub_start[j + 1] - at;
    const unsigned int bits = plan_chunk_bits(plan, r->rank, j);
    if (m == 0)
        return NULL;
    if (c->local == SS_LOCAL_ONESWEEP && plan->F > 1)
        return seg_sort_chunk(r, c, plan, j, bits);
    unsigned int *A = r->keys + at, *Z = r->part_k + at;
    unsigned int *Av = c->with_values ? r->values + at : NULL, *Zv = c->with_values ? r->part_v + at : NULL;
    const int landed_in_part = r->direct && j == 0; /* direct_first: keys is the second buffer */
    if (landed_in_part) {
        unsigned int *t = A, *tv = Av;
        A = Z, Av = Zv, Z = t, Zv = tv;
    }
    int in_a = 0; /* one segment: the chunk lies whole in A */
    const char *why = sort_whole(r, c, A, Av, Z, Zv, m, bits, &in_a);
    if (why != NULL)
        return why;
    if (landed_in_part && c->K == 1) /* the run is this chunk, where it ended */
        r->run_in_keys = !in_a;
    else if (landed_in_part) { /* the run lies in keys; a result in part goes there beside the next sorts */
        r->run_in_keys = 1;
        r->first_in_part = in_a;
    } else
        settle_run(r, c->with_values, at, m, in_a);
    return NULL;
}

/* direct_first's chunk 0 sorted in part: copied to its place in keys on the
 * comm stream (after round 1's sends), while the next chunks sort. */
static void settle_first_beside(ss_rank *r, const ss_config *c)
{
    const int64_t m = r->layout->sub_start[1];
    if (!r->first_in_part)
        return;
    CUDA_CHECK(cudaStreamWaitEvent(r->comm_stream, r->ev_sort_done[0], 0));
    CUDA_CHECK(cudaMemcpyAsync(r->keys, r->part_k, sizeof(unsigned int) * (size_t)m, cudaMemcpyDeviceToDevice,
                               r->comm_stream));
    if (c->with_values)
        CUDA_CHECK(cudaMemcpyAsync(r->values, r->part_v, sizeof(unsigned int) * (size_t)m, cudaMemcpyDeviceToDevice,
                                   r->comm_stream));
}

/* Each chunk sorted on the sort stream as soon as the round it waits for is
 * in; side by side in keys or in part (settle_run), the sorted chunks are the
 * rank's run of the output. */
static const char *sort_chunks(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan)
{
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        const ss_layout *L = r->layout;
        CUDA_CHECK(cudaSetDevice(r->device));
        r->run_in_keys = -1, r->first_in_part = 0;
        for (int j = 0; j < c->K; j++) {
            /* TODO(7): sort_chunks(), the pipeline: make the sort stream wait for round
               wait_round[j] (its event ev_round: the chunk's keys are in, and its place in part
               holds nothing still to send), record ev_sort_begin[j], then sort_chunk(r, c, plan,
               j); return what it says when it is not NULL */
            CUDA_CHECK(cudaEventRecord(r->ev_sort_begin[j], r->sort_stream));
            CUDA_CHECK(cudaEventRecord(r->ev_sort_done[j], r->sort_stream));
            if (j == 0 && r->direct)
                settle_first_beside(r, c);
        }
        CUDA_CHECK(cudaEventRecord(r->ev_sort_end, r->sort_stream));
        const int in_keys = r->run_in_keys == 1;
        r->run_k = in_keys ? r->keys : r->part_k, r->run_n = L->sub_start[c->K];
        r->run_v = c->with_values ? (in_keys ? r->values : r->part_v) : NULL;
    }
    return NULL;
}

/* One rank, one chunk: nothing to split or send, the share is the bucket,
 * sorted in place (step 7's sort, or CUB). */
static const char *sort_one_bucket(ss_rank *R, const ss_config *c, ss_plan *plan)
{
    uint64_t *counts = (uint64_t *)calloc((size_t)plan->BF, sizeof(uint64_t)); /* every key in sub-bucket 0 */
    if (counts == NULL)
        return "out of host memory for the plan";
    counts[0] = (uint64_t)R->n;
    plan_set_counts(plan, counts);
    free(counts);
    const char *why = plan_layout(plan, 0, R->cap, R->cap, R->layout);
    CUDA_CHECK(cudaSetDevice(R->device));
    cudaEvent_t marks[] = {R->ev_begin,    R->ev_scatter_begin, R->ev_scatter_end,
                           R->ev_round[0], R->ev_rounds_end,    R->ev_sort_begin[0]};
    for (size_t e = 0; e < sizeof marks / sizeof marks[0]; e++)
        CUDA_CHECK(cudaEventRecord(marks[e], R->comm_stream));
    CUDA_CHECK(cudaStreamWaitEvent(R->sort_stream, R->ev_sort_begin[0], 0));
    int in_a = 1;
    if (why == NULL && R->n > 0)
        why = sort_whole(R, c, R->keys, c->with_values ? R->values : NULL, R->part_k, c->with_values ? R->part_v : NULL,
                         R->n, 32, &in_a);
    const int in_alt = !in_a;
    CUDA_CHECK(cudaEventRecord(R->ev_sort_done[0], R->sort_stream));
    CUDA_CHECK(cudaEventRecord(R->ev_sort_end, R->sort_stream));
    R->run_k = in_alt ? R->part_k : R->keys, R->run_v = c->with_values ? (in_alt ? R->part_v : R->values) : NULL;
    R->run_n = R->n;
    return why;
}

static float elapsed(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

/* The phases' device times, the largest over the owned ranks. */
static void phase_times(ss_rank *R, int nlocal, const ss_config *c, ss_times *t)
{
    for (int i = 0; i < nlocal; i++) {
        double sorting = 0;
        for (int j = 0; j < c->K; j++)
            sorting += elapsed(R[i].ev_sort_begin[j], R[i].ev_sort_done[j]);
        const double scatter = elapsed(R[i].ev_scatter_begin, R[i].ev_scatter_end);
        const double exchange = elapsed(R[i].ev_scatter_end, R[i].ev_rounds_end);
        const double waited = elapsed(R[i].ev_scatter_end, R[i].ev_sort_end) - sorting;
        t->scatter = fmax(t->scatter, scatter), t->exchange = fmax(t->exchange, exchange);
        t->sort = fmax(t->sort, sorting), t->waited = fmax(t->waited, waited);
    }
}

const char *ss_sort(ss_rank *R, int nlocal, const ss_config *c, ss_plan *plan, ss_times *t)
{
    unsigned int *host_sample = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)c->G * c->S);
    uint64_t *host_counts = (uint64_t *)lab_xmalloc(sizeof(uint64_t) * (size_t)c->G * plan->BF);
    unsigned int *host_bins = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)c->G * PLAN_BINS);
    const char *why = NULL;
    memset(t, 0, sizeof *t);
    const double t0 = now_ms();
    double t1 = t0, t2 = t0;
    if (plan->B == 1) {
        why = sort_one_bucket(R, c, plan);
    } else {
        for (int i = 0; i < nlocal; i++) {
            CUDA_CHECK(cudaSetDevice(R[i].device));
            CUDA_CHECK(cudaEventRecord(R[i].ev_begin, R[i].comm_stream));
        }
        if (ss_bins_path(c) && bin_splitters(R, nlocal, c, plan, host_bins)) {
            t1 = now_ms();
            why = lay_out(R, nlocal, c, plan);
        } else {
            gather_sample(R, nlocal, c, host_sample);
            choose_splitters(R, nlocal, plan, host_sample);
            t1 = now_ms();
            count_buckets(R, nlocal, plan);
            why = exchange_counts(R, nlocal, c, plan, host_counts);
        }
        t2 = now_ms();
        if (why == NULL) {
            scatter_buckets(R, nlocal, c, plan);
            exchange_keys(R, nlocal, c, plan);
            why = sort_chunks(R, nlocal, c, plan);
        }
    }
    ss_wait(R, nlocal, c); /* the comm streams too: a refused plan leaves nothing in flight */
    const double t3 = now_ms();
    free(host_sample), free(host_counts), free(host_bins);
    if (why != NULL)
        return why;
    t->splitters = t1 - t0, t->count = t2 - t1, t->total = t3 - t0;
    phase_times(R, nlocal, c, t);
    return NULL;
}

const char *ss_config_check(const ss_config *c)
{
    ss_plan p;
    const char *why = plan_init(&p, c->N, c->G, c->K, c->F, c->S, c->first_weight);
    if (why != NULL)
        return why;
    plan_free(&p);
    if (!(c->slack >= 0.0 && c->slack <= 1.0))
        return "the buffers' slack must be 0 to 1 (of N / G)";
    if (c->local != SS_LOCAL_ONESWEEP && c->local != SS_LOCAL_CUB)
        return "the local sort must be onesweep or cub";
    if (c->local == SS_LOCAL_CUB && c->F != 1)
        return "--local cub sorts a chunk whole: it takes one sub-bucket per chunk (--fine 1)";
    for (int r = 0; r < c->G; r++)
        if (ss_chunk_room(c, r) > ONESWEEP_MAX_N && c->local == SS_LOCAL_ONESWEEP)
            return "a chunk may hold more than step 7 sorts at once (2^31 - 1 keys): more --chunks, or --local cub";
    if (c->timeout_s < 0)
        return "the watchdog's limit must be 0 (its default) or more seconds";
    return NULL;
}

/* ---- the step's descriptor ---------------------------------------------------- */

static const char *const ss_dists[] = {"uniform", "sorted", "reverse", "equal", "few", "zipf", "all", NULL};
static const char *const ss_locals[] = {"onesweep", "cub", "auto", NULL};

/* What this step is, for ./run and the tests (ss_step, sample_sort.h). */
const ss_step sample_sort_step_info = {
    .lab = {.about = "Step 9 sorts N u32 keys (or key-value pairs, value = the key's input position) spread\n"
                     "over G ranks by sample sort: ./run --gpus G drives G GPUs from one process over\n"
                     "NCCL; mpirun -np G ./run one GPU per process (built with MPI); ./run --ranks G runs\n"
                     "G ranks on one GPU, exchanging by device copies (every phase on the GPU you have).\n"
                     "Each rank makes its share of the input in place; the output is checked on the GPUs\n"
                     "(each run sorted and stable, inside its splitters, in order across ranks, count and\n"
                     "hashes kept) and, up to 2^28 keys, element by element against the CPU.\n",
            .default_n = 1 << 24,
            .max_n = 1LL << 40,
            .max_n_why = "the keys of 1024 ranks at most"},
    /* the local sort: auto, the faster measured for the keys (ss_auto_local; docs/ch13-sort.md);
     * --local onesweep --fine F is step 7's over the radix cut's segments */
    /* the first chunk's weight: its round's exchange is the wait before the first sort, and the sort
     * of it must outlast the next round's exchange; best where they meet, w = exchange / sort time.
     * Two ranks: 2.9 / 11.4 ms for keys, 5.7 / 16.0 for pairs on two H200s at 9427b7e (0.25 and 0.36;
     * 20, 25 and 30 % measured alike; for pairs 30 % beat 40 % at 0688f9b and 0c36e94). With round 0
     * direct the first sort waits for no round, and its run goes back to keys beside the next sort:
     * keys 20 % took 13.20 ms at 2^30, 30 % 13.30 and 13.36, 50 % 13.49; pairs 30 % 19.74, 50 % 19.98
     * (two H200s, 2026-11-26, one run). More: a rank
     * sends (G - 1) / G of its share over links its peers share, 4.1 / 5.7 and 8.0 / 7.8 ms on four
     * H200s at 08489c7 (0.73 and 1.03; 75 and 100 % measured best, docs/ch13-sort.md) */
    .defaults = {.G = 1, .K = 0, .F = 0, .S = 4096, .slack = 0.10, .local = SS_LOCAL_AUTO, .bin_splitters = 1},
    .first_weight = {{0.2, 0.3}, {0.75, 1.0}},
    .reference_max_n = 1 << 28,
    .dists = ss_dists,
    .locals = ss_locals,
};
