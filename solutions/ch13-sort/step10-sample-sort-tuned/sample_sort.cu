/* sample_sort.cu - ch13 step 10: step 9's sort at the links' speed. The
 * same phases on step 9's files, and seven ideas beside them, each an option
 * with its row in the README's ablation table, chosen once per sort by one
 * policy (policy.c) that the result line prints:
 *   --splitters bins  the splitters at the edges of every key's top 12 bits, where they split
 *                     evenly: one read of the share where the sample and a count pass were
 *                     (bins.cuh, bins.c; the top bits as RMG sort's first radix partition)
 *   --split held      up to 8 buckets: the splitters held in registers, the count and the
 *                     scatter without tables in shared memory (held.cuh, split_few.cuh)
 *   --exchange copy   the keys by the GPUs' copy engines, each piece on a stream of its own,
 *                     the SMs left to the sorts (peers.c)
 *   --exchange direct round 0 written by the scatter straight into its receivers: chunk 0's sort
 *                     starts as soon as every scatter is done (peers.c)
 *   --first P         the first chunk smaller than the others, so the pipeline fills fast
 *   --split digit     the scatter as the sort's first radix pass, on the keys' top byte, with the
 *                     splitters on top-byte edges: each chunk then sorted in three passes, not
 *                     four (digit.cuh, digit_split.cuh, segments.cuh, digit.c)
 *   (mpirun)          on one node, the processes' buffers and events opened by CUDA IPC, so the
 *                     copy engines and round 0 direct run across processes too (ipc.c)
 * Beyond the book, as step 9; the partition on the keys' top bits is RMG
 * sort's (Ilic et al., 2023), the count in registers Stehle and Jacobsen's
 * hybrid radix sort's (SIGMOD 2017), the copy engines' exchange as in
 * Maltenberger et al. (SIGMOD 2022). */
#include "bins.cuh"
#include "setup.cuh" /* step 9's, with its phases and checks */
#include "digit.cuh"
#include "split_few.cuh"

/* Step 10's run: step 9's ranks, what it adds to each, and its policy. */
struct ss_run {
    ss_ranks x;
    ss_extra *E;             /* a rank's bins and copy streams, for each owned rank */
    unsigned int *host_bins; /* G x PLAN_BINS: every rank's bins, on the host (pinned) */
    ss_ipc *ipc;             /* under mpirun on one node: every rank's buffers opened here (ipc.c); else NULL */
    ss_policy base;          /* the configuration's policy */
    ss_policy last;          /* what the last sort ran */
};

/* Keys per bucket per block counted in registers (held splitters), then the table's scan. */
static void count_held(ss_rank *R, int nlocal, const ss_plan *plan, int H)
{
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        CUDA_CHECK(cudaSetDevice(r->device));
        CUDA_CHECK(
            cudaMemsetAsync(r->counts_d + (size_t)r->rank * plan->B, 0, sizeof(uint64_t) * plan->B, r->comm_stream));
        if (r->cols == 0)
            continue;
        if (H == SS_HELD_SPLITS)
            count_few_kernel<<<r->cols, SS_BLOCK, 0, r->comm_stream>>>(r->keys, r->n, r->start, r->chunk,
                                                                       cuts_of(r, plan), r->table_d);
        else
            count_eight_kernel<<<r->cols, SS_BLOCK, 0, r->comm_stream>>>(r->keys, r->n, r->start, r->chunk,
                                                                         cuts_of(r, plan), r->table_d);
        scan_table_kernel<<<plan->B, 32, 0, r->comm_stream>>>(r->table_d, r->cols, r->row_prefix_d,
                                                              r->counts_d + (size_t)r->rank * plan->B);
        CUDA_CHECK_LAUNCH();
    }
}

/* The scatter in registers (split_few.cuh) on every owned rank. */
static void scatter_held(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan)
{
    const void *kernel = split_few_kernel(plan->B, c->with_values);
    const size_t shared = split_few_shared(plan->B, c->with_values);
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        ss_cuts cuts = cuts_of(r, plan);
        void *pairs[] = {&r->keys,  &r->values, &r->part_k, &r->part_v,       &r->n,
                         &r->start, &r->chunk,  &cuts,      &r->row_prefix_d, &r->send_off_d};
        void *keys[] = {&r->keys, &r->part_k, &r->n, &r->start, &r->chunk, &cuts, &r->row_prefix_d, &r->send_off_d};
        CUDA_CHECK(cudaSetDevice(r->device));
        CUDA_CHECK(cudaEventRecord(r->ev_scatter_begin, r->comm_stream));
        if (r->cols > 0)
            CUDA_CHECK(cudaLaunchKernel(kernel, dim3(r->cols), dim3(SS_BLOCK), c->with_values ? pairs : keys, shared,
                                        r->comm_stream));
        CUDA_CHECK(cudaEventRecord(r->ev_scatter_end, r->comm_stream));
    }
}

/* Each owned rank's part offsets; with round 0 direct, bucket (d, 0) into rank d's part (V: every
 * rank as this process reaches it). */
static void upload_offsets(ss_rank *R, int nlocal, const ss_rank *V, int nv, const ss_plan *plan, int direct)
{
    if (!direct) {
        upload_send_off(R, nlocal, plan);
        return;
    }
    int64_t *send_off = (int64_t *)lab_xmalloc(sizeof(int64_t) * (size_t)plan->B);
    for (int i = 0; i < nlocal; i++) {
        ss_direct_send_off(V, nv, plan, R[i].rank, send_off);
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaMemcpyAsync(R[i].send_off_d, send_off, sizeof(int64_t) * (size_t)plan->B, cudaMemcpyHostToDevice,
                                   R[i].comm_stream)); /* pageable: staged before it returns */
    }
    free(send_off);
}

/* K rounds by the policy's way; round 0 direct is in once every rank's scatter is done. Under
 * mpirun on one node (P) the same, across processes. */
static void exchange_rounds(ss_rank *R, ss_extra *E, ss_ipc *P, int nlocal, const ss_config *c, const ss_plan *plan,
                            ss_exchange how)
{
    for (int j = 0; j < plan->K; j++) {
        if (P != NULL && j == 0 && how == SS_EXCHANGE_DIRECT)
            ss_ipc_scattered(P, &R[0], c);
        else if (P != NULL && how != SS_EXCHANGE_LINK)
            ss_ipc_round(P, c, plan, j);
        else if (j == 0 && how == SS_EXCHANGE_DIRECT)
            for (int i = 0; i < nlocal; i++) {
                CUDA_CHECK(cudaSetDevice(R[i].device));
                for (int s = 0; s < nlocal; s++)
                    CUDA_CHECK(cudaStreamWaitEvent(R[i].comm_stream, R[s].ev_scatter_end, 0));
            }
        else if (how != SS_EXCHANGE_LINK)
            ss_peers_round(R, E, nlocal, c, plan, j);
        else
            ss_exchange_round(R, nlocal, c, plan, j);
        mark_round(R, nlocal, j);
    }
}

/* Round 0 direct: chunk 0 lies at part's front, so it is sorted from there
 * with keys as the second buffer; its run goes to keys (where the later
 * chunks' runs settle) on the comm stream, beside the next sorts, when it
 * ends in part. */
static const char *sort_first_in_part(ss_rank *r, const ss_config *c)
{
    const int64_t m = r->layout->sub_start[1];
    int in_part = 1;
    CUDA_CHECK(cudaSetDevice(r->device));
    CUDA_CHECK(cudaStreamWaitEvent(r->sort_stream, r->ev_round[0], 0));
    CUDA_CHECK(cudaEventRecord(r->ev_sort_begin[0], r->sort_stream));
    const char *why = m == 0 ? NULL : sort_whole(r, c, r->part_k, r->part_v, r->keys, r->values, m, &in_part);
    CUDA_CHECK(cudaEventRecord(r->ev_sort_done[0], r->sort_stream));
    r->run_in_keys = r->chunks == 1 ? !in_part : 1; /* one chunk: the run is where it ended */
    if (why != NULL || !in_part || m == 0 || r->chunks == 1)
        return why;
    CUDA_CHECK(cudaStreamWaitEvent(r->comm_stream, r->ev_sort_done[0], 0));
    CUDA_CHECK(cudaMemcpyAsync(r->keys, r->part_k, sizeof(unsigned int) * (size_t)m, cudaMemcpyDeviceToDevice,
                               r->comm_stream));
    if (c->with_values)
        CUDA_CHECK(cudaMemcpyAsync(r->values, r->part_v, sizeof(unsigned int) * (size_t)m, cudaMemcpyDeviceToDevice,
                                   r->comm_stream));
    return NULL;
}

/* The whole sort, step 9's phases where the policy p keeps them: as step 9's ss_sort. */
static const char *tuned_sort(ss_run *run, ss_policy *p, ss_times *t)
{
    ss_ranks *X = &run->x;
    ss_rank *R = X->R;
    const int nlocal = X->nlocal;
    const ss_config *c = &X->c;
    ss_plan *plan = &X->plan;
    if (plan->B == 1)
        return sort_alone(R, c, plan, t);
    double at[3] = {ss_now_ms(), 0, 0};
    const char *why = NULL;
    mark_begin(R, nlocal);
    int first_bin[PLAN_BIN_BUCKETS + 1];
    if (p->bins)
        gather_bins(R, run->E, nlocal, c, run->host_bins);
    /* the top-byte edges first: they hold where the bins' 0.5 % may not (a chunk's edge only shapes the pipeline) */
    p->digit = p->digit && p->bins && digit_edges(plan, run->host_bins, DIGIT_SLACK, first_bin) && digit_fits(plan);
    p->bins = p->bins && (p->digit || plan_bin_splitters(plan, run->host_bins, SS_BIN_SLACK, first_bin));
    if (p->digit) /* the splitters on top-byte edges; the scatter needs no table */
        upload_splitters(R, nlocal, plan);
    else if (p->bins)
        bin_tables(R, run->E, nlocal, plan, first_bin);
    if (!p->bins) {
        gather_sample(R, nlocal, c, X->host_sample);
        choose_splitters(R, nlocal, plan, X->host_sample);
    }
    at[1] = ss_now_ms();
    if (p->bins)
        why = lay_out(R, nlocal, c, plan);
    else {
        if (p->held > 0)
            count_held(R, nlocal, plan, p->held);
        else
            count_buckets(R, nlocal, plan);
        why = exchange_counts(R, nlocal, c, plan, X->host_counts);
    }
    at[2] = ss_now_ms();
    if (why == NULL) {
        const ss_rank *V = R; /* every rank as this process reaches it */
        int nv = nlocal;
        if (run->ipc != NULL) {
            ss_ipc_views(run->ipc, plan);
            V = run->ipc->view, nv = c->G;
        }
        if (p->exchange == SS_EXCHANGE_DIRECT && !ss_direct_fits(V, nv, plan))
            p->exchange = SS_EXCHANGE_COPY; /* chunk 0 does not fit part's front: round 0 crosses too */
        const int direct = p->exchange == SS_EXCHANGE_DIRECT;
        if (p->digit)
            digit_scatter(R, nlocal, V, nv, c, plan, run->host_bins, first_bin, direct);
        else {
            upload_offsets(R, nlocal, V, nv, plan, direct);
            if (p->held > 0)
                scatter_held(R, nlocal, c, plan);
            else
                scatter_buckets(R, nlocal, c, plan);
        }
        exchange_rounds(R, run->E, run->ipc, nlocal, c, plan, p->exchange);
        if (p->digit)
            digit_sort_chunks(R, nlocal, c, plan, run->host_bins, first_bin, direct);
        else {
            for (int i = 0; i < nlocal && why == NULL && direct; i++)
                why = sort_first_in_part(&R[i], c);
            if (why == NULL)
                why = sort_chunks(R, nlocal, c, direct ? 1 : 0);
        }
    }
    return finish_sort(R, nlocal, c, at, why, t);
}

/* ---- the step's ways (sample_sort.h's ss_step) ------------------------------------- */

static const char *configure(ss_config *c)
{
    if (c->K == 0) /* not asked: the policy's, or (0) the plan's default */
        c->K = policy_chunks(c);
    const char *why = ss_configure(c);
    return why != NULL ? why : policy_check(c);
}

/* What rank i adds for the policy: the bins' tables, its copy streams; and,
 * for the split in registers, its grid sized by that kernel. */
static const char *open_extra(ss_run *run, int i)
{
    ss_rank *r = &run->x.R[i];
    ss_extra *E = &run->E[i];
    const ss_config *c = &run->x.c;
    const int B = c->G * c->K;
    const char *why = NULL;
    if (run->base.held > 0)
        why = size_grid(r, split_few_kernel(B, c->with_values), split_few_shared(B, c->with_values));
    if (why == NULL && run->base.held > 0)
        why = lab_fit_kernel(run->base.held == SS_HELD_SPLITS ? (const void *)count_few_kernel
                                                              : (const void *)count_eight_kernel,
                             SS_BLOCK, 0);
    CUDA_CHECK(cudaSetDevice(r->device));
    if (run->base.bins) {
        E->bins_d = (unsigned int *)take(r, sizeof(unsigned int) * (size_t)c->G * PLAN_BINS);
        E->block_bins_d =
            (unsigned int *)take(r, sizeof(unsigned int) * (size_t)(r->cols > 0 ? r->cols : 1) * PLAN_BINS);
        E->first_bin_d = (int *)take(r, sizeof(int) * (size_t)(B + 1));
    }
    if (run->base.exchange != SS_EXCHANGE_LINK)
        ss_peers_open(E, r, c->G);
    if (why == NULL && run->base.digit && digit_open(r, c) != NULL)
        run->base.digit = 0; /* its kernels do not fit here (pairs on sm_75's 64 KiB): the split in registers */
    return why;
}

static ss_run *open_run(const ss_config *c, const ss_place *at, int nlocal, const char **why)
{
    ss_run *run = (ss_run *)calloc(1, sizeof(ss_run));
    run->E = (ss_extra *)calloc((size_t)nlocal, sizeof(ss_extra));
    CUDA_CHECK(cudaMallocHost(&run->host_bins, sizeof(unsigned int) * (size_t)c->G * PLAN_BINS)); /* async copies */
    *why = ss_ranks_open(&run->x, c, at, nlocal);
    int peers = 0; /* every rank reaches every other's memory: in this process, or by CUDA IPC */
    if (*why == NULL && c->G > 1)
        peers = nlocal == c->G ? ss_peers_reach(run->x.R, nlocal) : c->node != NULL && ss_ipc_reach(&run->x.R[0], c);
    run->base = run->last = policy_choose(c, nlocal, peers);
    for (int i = 0; i < nlocal && *why == NULL; i++)
        *why = open_extra(run, i);
    if (*why == NULL && c->node != NULL && run->base.exchange != SS_EXCHANGE_LINK) {
        run->ipc = (ss_ipc *)calloc(1, sizeof(ss_ipc));
        ss_ipc_open(run->ipc, &run->x.R[0], &run->E[0], c);
    }
    return run;
}

static void fresh_run(ss_run *run, int dist, uint64_t seed)
{
    ss_ranks_fresh(&run->x, dist, seed);
}

static const char *sort_run(ss_run *run, ss_times *t)
{
    run->last = run->base;
    const char *why = ss_ranks_plan(&run->x, run->base.first);
    return why != NULL ? why : tuned_sort(run, &run->last, t);
}

static int check_run(ss_run *run, int dist, uint64_t seed, int reference, int quiet, ss_shape *shape)
{
    return ss_ranks_check(&run->x, dist, seed, reference, quiet, shape);
}

static void describe(const ss_run *run, char *buf, size_t len)
{
    policy_text(&run->last, &run->x.c, buf, len);
}

static void close_run(ss_run *run)
{
    if (run->ipc != NULL) { /* once this process's GPU is done: the others may still read from it */
        CUDA_CHECK(cudaSetDevice(run->x.R[0].device));
        CUDA_CHECK(cudaDeviceSynchronize());
        ss_ipc_close(run->ipc, &run->x.c);
        free(run->ipc);
    }
    for (int i = 0; i < run->x.nlocal; i++) {
        ss_extra *E = &run->E[i];
        if (run->x.R == NULL || run->x.R[i].layout == NULL)
            continue;
        CUDA_CHECK(cudaSetDevice(run->x.R[i].device));
        CUDA_CHECK(cudaDeviceSynchronize());
        void *bufs[] = {E->bins_d, E->block_bins_d, E->first_bin_d};
        for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; k++)
            if (bufs[k] != NULL)
                CUDA_CHECK(cudaFree(bufs[k]));
        ss_peers_close(E, &run->x.R[i]);
    }
    ss_ranks_close(&run->x);
    CUDA_CHECK(cudaFreeHost(run->host_bins));
    free(run->E), free(run);
}

/* What this step is, for ./run and the tests. */
const ss_step sample_sort_step_info = {
    .lab = {.about = "Step 10 is step 9's sort across GPUs (./run --gpus G, mpirun -np G ./run, ./run --ranks G)\n"
                     "with the ideas that make it fast, each an option its policy picks once per sort and\n"
                     "the result line prints: --splitters (sample, or bins of the keys' top bits), --split\n"
                     "(step 9's tables, or splitters held in registers), --exchange (NCCL's kernels, the\n"
                     "copy engines, or round 0 written straight into its receivers) and --first (the\n"
                     "first chunk's size). Checked as step 9 is.\n",
            .default_n = SS_DEFAULT_N,
            .max_n = SS_MAX_N,
            .max_n_why = SS_MAX_N_WHY},
    .takes = SS_TAKES_SPLITTERS | SS_TAKES_SPLIT | SS_TAKES_EXCHANGE | SS_TAKES_FIRST,
    .defaults = SS_DEFAULTS,
    .reference_max_n = SS_REFERENCE_MAX_N,
    .configure = configure,
    .open = open_run,
    .fresh = fresh_run,
    .sort = sort_run,
    .check = check_run,
    .describe = describe,
    .close = close_run,
};
