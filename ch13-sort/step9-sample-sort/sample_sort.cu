/* sample_sort.cu - ch13 step 9: the sort leaves one GPU. The keys, spread
 * over G GPUs, are split at sampled splitters, exchanged once over NCCL, and
 * each GPU sorts what it received with step 7's (or CUB's) radix sort.
 * Beyond the book: section 13.8 names sample sort for a sequence spread over
 * several GPUs or memories. Sample sort: Frazer and McKellar (1970),
 * oversampled as in Blelloch et al. (1991). The form here partitions first
 * and sorts after one exchange, with no merge, as radix-partitioning
 * multi-GPU sorts do (Ilic et al., "RMG Sort", 2023; Maltenberger et al.,
 * SIGMOD 2022, for what the links cost).
 *
 * The phases, in order (ss_sort; each a function of phases.cuh, their
 * kernels in partition.cuh, the exchange in exchange.c, the plan in plan.c):
 *   gather_sample     S keys of each UNSORTED share at jittered regular places, gathered to all
 *   choose_splitters  G*K - 1 items at the quantiles of the sample
 *   count_buckets     each block's keys per bucket (plan_bucket_of: the cut)
 *   exchange_counts   every rank's counts to all; where everything goes (plan_layout); the ranks
 *                     agree on every message of the exchange before any is sent
 *   scatter_buckets   the share rewritten bucket by bucket, stable (Fig 13.6's split)
 *   exchange_keys     K rounds: in round j every rank sends every other its bucket (d, j)
 *   sort_chunks       each chunk sorted as soon as its round is in, while the next is on the wire
 * Items are (key, global position), so equal keys split evenly and the result
 * is the stable global sort. */
#include "setup.cuh"

/* Step 9's run: its ranks, and nothing more. */
struct ss_run {
    ss_ranks x;
};

/* The whole sort of X's ranks, their input in place (ss_ranks_fresh) and
 * the plan new (ss_ranks_plan). On return every rank's run_k[0, run_n)
 * (run_v) holds its part of the sorted output. NULL, or why the sort could
 * not run (a bucket larger than its buffer, ranks that disagree on the
 * exchange). A sort that does not finish in time stops the process (ss_wait). */
static const char *ss_sort(ss_ranks *X, ss_times *t)
{
    ss_rank *R = X->R;
    const int nlocal = X->nlocal;
    const ss_config *c = &X->c;
    ss_plan *plan = &X->plan;
    if (plan->B == 1)
        return sort_alone(R, c, plan, t);
    double at[3] = {ss_now_ms(), 0, 0};
    mark_begin(R, nlocal);
    gather_sample(R, nlocal, c, X->host_sample);
    choose_splitters(R, nlocal, plan, X->host_sample);
    at[1] = ss_now_ms();
    count_buckets(R, nlocal, plan);
    const char *why = exchange_counts(R, nlocal, c, plan, X->host_counts);
    at[2] = ss_now_ms();
    if (why == NULL) {
        upload_send_off(R, nlocal, plan);
        scatter_buckets(R, nlocal, c, plan);
        exchange_keys(R, nlocal, c, plan);
        why = sort_chunks(R, nlocal, c, 0);
    }
    return finish_sort(R, nlocal, c, at, why, t);
}

/* ---- the step's ways (sample_sort.h's ss_step) ------------------------------------- */

static ss_run *open_run(const ss_config *c, const ss_place *at, int nlocal, const char **why)
{
    ss_run *run = (ss_run *)lab_xmalloc(sizeof(ss_run));
    *why = ss_ranks_open(&run->x, c, at, nlocal);
    return run;
}

static void fresh_run(ss_run *run, int dist, uint64_t seed)
{
    ss_ranks_fresh(&run->x, dist, seed);
}

static const char *sort_run(ss_run *run, ss_times *t)
{
    ss_ranks *X = &run->x;
    const char *why = ss_ranks_plan(X, 1.0); /* every chunk alike */
    return why != NULL ? why : ss_sort(X, t);
}

static int check_run(ss_run *run, int dist, uint64_t seed, int reference, int quiet, ss_shape *shape)
{
    return ss_ranks_check(&run->x, dist, seed, reference, quiet, shape);
}

static void close_run(ss_run *run)
{
    ss_ranks_close(&run->x);
    free(run);
}

/* What this step is, for ./run and the tests. */
const ss_step sample_sort_step_info = {
    .lab = {.about = "Step 9 sorts N u32 keys (or key-value pairs, value = the key's input position) spread\n"
                     "over G ranks by sample sort: ./run --gpus G drives G GPUs from one process over\n"
                     "NCCL; mpirun -np G ./run one GPU per process (built with MPI); ./run --ranks G runs\n"
                     "G ranks on one GPU, exchanging by device copies (every phase on the GPU you have).\n"
                     "Each rank makes its share of the input in place; the output is checked on the GPUs\n"
                     "(each run sorted and stable, inside its splitters, in order across ranks, count and\n"
                     "hashes kept) and, up to 2^28 keys, element by element against the CPU.\n",
            .default_n = SS_DEFAULT_N,
            .max_n = SS_MAX_N,
            .max_n_why = SS_MAX_N_WHY},
    .takes = 0,
    .defaults = SS_DEFAULTS,
    .reference_max_n = SS_REFERENCE_MAX_N,
    .configure = ss_configure,
    .open = open_run,
    .fresh = fresh_run,
    .sort = sort_run,
    .check = check_run,
    .describe = NULL,
    .close = close_run,
};
