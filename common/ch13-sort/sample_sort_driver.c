/* sample_sort_driver.c - ./run for chapter 13's sort across GPUs (steps 9
 * and 10). Three ways to run, one code (a step sorts the ranks its process
 * owns):
 *   ./run --gpus G          one process drives G GPUs (ncclCommInitAll)
 *   mpirun -np G ./run      one GPU per rank (built with -DLAB_MPI where mpicc
 *                           is there), the communicator bootstrapped through MPI
 *   ./run --ranks G         G ranks on one GPU, exchanging by device copies
 * (mpirun -np P ./run --gpus g: P processes of g GPUs each, G = P g.)
 * Each configuration sorts a fresh input once and checks it (the checks that
 * scale, and up to the step's reference size the CPU's), then times --reps
 * sorts, each of a fresh input. Everything about the step (its defaults, its
 * options, its policy) it asks of the step's descriptor,
 * sample_sort_step_info. Exit 0 when every run passed, 1 on a failure, 2 on a
 * bad option (or more GPUs asked for than there are), 3 without a GPU, 4 on a
 * CUDA or NCCL error. */
#include <string.h>

#include "gen.h"
#include "report.h"
#include "sample_sort.h"
#include "sample_world.h"

#define STEP (&sample_sort_step_info)

/* ---- options: the lab's, the sort's, and those of the step's own ideas ---------------- */

typedef struct {
    lab_run run;
    const char *dist, *local;
    int keys_only, gpus, ranks, chunks, timeout_s; /* chunks, timeout_s 0: the step's defaults */
    ss_asked asked;
    int dists[GEN_COUNT], ndists;
} run_opts;

/* The run's configuration for G ranks, N keys, with the step's derived values. */
static ss_config config_of(const run_opts *ro, int G, int64_t N, int with_values, const char **why)
{
    ss_config c = STEP->defaults;
    c.G = G, c.N = N, c.with_values = with_values, c.K = ro->chunks, c.timeout_s = (double)ro->timeout_s;
    c.local = (ss_local)lab_name_index(ro->local, ss_local_names());
    c.link = ro->ranks > 0 ? SS_LINK_COPIES : SS_LINK_NCCL;
    c.asked = ro->asked;
    *why = STEP->configure(&c);
    return c;
}

static const char *const dist_names[] = {"uniform", "sorted", "reverse", "equal", "few", "zipf", "all", NULL};
static const char *const splitters[] = {"auto", "sample", "bins", NULL}, *const splits[] = {"auto", "table", "held",
                                                                                            "digit", NULL};
static const char *const exchanges[] = {"auto", "link", "copy", "direct", NULL};

static void parse_args(int argc, char **argv, run_opts *ro, const world *w)
{
    memset(ro, 0, sizeof *ro);
    ro->dist = "uniform", ro->local = ss_local_names()[STEP->defaults.local], ro->gpus = 1;
    ro->asked = (ss_asked){.splitters = "auto", .split = "auto", .exchange = "auto", .first = 0};
    const unsigned takes = STEP->takes;
    const lab_opt opts[] = {
        {.name = "--dist",
         .kind = LAB_ARG_NAME,
         .at = &ro->dist,
         .names = dist_names,
         .metavar = "D",
         .help = "input distribution (all: each in turn)"},
        {.name = "--keys-only", .kind = LAB_ARG_FLAG, .at = &ro->keys_only, .help = "sort keys without values"},
        {.name = "--gpus",
         .kind = LAB_ARG_INT,
         .at = &ro->gpus,
         .lo = 1,
         .hi = SS_MAX_RANKS,
         .metavar = "G",
         .help = "GPUs this one process drives, over NCCL"},
        {.name = "--ranks",
         .kind = LAB_ARG_INT,
         .at = &ro->ranks,
         .lo = 1,
         .hi = 64,
         .metavar = "R",
         .help = "R ranks on one GPU, exchanging by device copies (default: off)"},
        {.name = "--chunks",
         .kind = LAB_ARG_INT,
         .at = &ro->chunks,
         .lo = 1,
         .hi = SS_MAX_RANKS,
         .metavar = "K",
         .help = "chunks per rank: rounds of the exchange, each sorted as it arrives (default: 2, 1 on one rank; step "
                 "10: 4 for keys on two GPUs, 3 from four)"},
        {.name = "--local",
         .kind = LAB_ARG_NAME,
         .at = &ro->local,
         .names = ss_local_names(),
         .metavar = "L",
         .help = "each chunk's sort: step 7's, CUB's, or auto: step 7's for keys, CUB's for pairs"},
        {.name = "--timeout",
         .kind = LAB_ARG_INT,
         .at = &ro->timeout_s,
         .lo = 1,
         .hi = 86400,
         .metavar = "S",
         .help = "seconds a sort may take before the watchdog stops it (default: 5 plus 1 a GB of share)"},
        lab_opt_if(takes & SS_TAKES_SPLITTERS,
                   (lab_opt){.name = "--splitters",
                             .kind = LAB_ARG_NAME,
                             .at = &ro->asked.splitters,
                             .names = splitters,
                             .metavar = "W",
                             .help = "sample: from the sample, then a count pass; bins: at bin edges of every key's "
                                     "top 12 bits where they split evenly, else the sample; auto: the policy's"}),
        lab_opt_if(takes & SS_TAKES_SPLIT,
                   (lab_opt){.name = "--split",
                             .kind = LAB_ARG_NAME,
                             .at = &ro->asked.split,
                             .names = splits,
                             .metavar = "P",
                             .help = "table: the partition in shared-memory tables (step 9's); held: splitters "
                                     "held in registers (up to 8 buckets); digit: the scatter as the sort's "
                                     "first radix pass, on the top byte, each chunk then sorted in three "
                                     "passes; auto: the policy's"}),
        lab_opt_if(takes & SS_TAKES_EXCHANGE,
                   (lab_opt){.name = "--exchange",
                             .kind = LAB_ARG_NAME,
                             .at = &ro->asked.exchange,
                             .names = exchanges,
                             .metavar = "E",
                             .help = "link: NCCL's kernels (device copies on one GPU); copy: the copy engines; "
                                     "direct: round 0 written by the scatter into its receivers, then the copy "
                                     "engines; auto: the policy's (one process; mpirun: NCCL)"}),
        lab_opt_if(takes & SS_TAKES_FIRST,
                   (lab_opt){.name = "--first",
                             .kind = LAB_ARG_INT,
                             .at = &ro->asked.first,
                             .lo = 1,
                             .hi = 100,
                             .metavar = "P",
                             .help = "the first chunk's size, in % of each other chunk's (default: "
                                     "the policy's, by GPUs and keys or pairs)"}),
    };
    lab_parse_step(argc, argv, &STEP->lab, "", 5, opts, (int)(sizeof opts / sizeof opts[0]), &ro->run);
    if (ro->ranks > 0 && (ro->gpus > 1 || w->size > 1)) {
        fprintf(stderr, "%s: --ranks runs every rank on one GPU in this process: not with --gpus or mpirun\n",
                lab_step_name);
        exit(LAB_EXIT_USAGE);
    }
    for (int d = 0; d < GEN_COUNT; d++)
        if (strcmp(ro->dist, "all") == 0 || d == gen_dist_of(ro->dist))
            ro->dists[ro->ndists++] = d;
    const int G = ro->ranks > 0 ? ro->ranks : w->size * ro->gpus;
    for (int s = 0; s < ro->run.nsizes; s++) { /* every size, with the run's G, before any GPU is looked for */
        const char *why;
        const ss_config c = config_of(ro, G, ro->run.sizes[s], !ro->keys_only, &why);
        if (why != NULL) {
            fprintf(stderr, "%s: -n %lld on %d rank%s: %s (./run --help)\n", lab_step_name, (long long)c.N, c.G,
                    c.G == 1 ? "" : "s", why);
            exit(LAB_EXIT_USAGE);
        }
    }
}

/* ---- one configuration: the checked sort, the timed ones, the report ---------------- */

typedef struct {
    lab_timing total;
    double ph[6]; /* splitters, count, scatter, exchange, sort, waited: medians */
    ss_shape shape;
    char policy[200]; /* the step's description of what it chose */
} run_figures;

/* The checked sort, then the timed ones, each of a fresh input. 1 when every check passed. */
static int run_config(ss_run *run, const run_opts *ro, const ss_config *c, int dist, run_figures *f, const world *w)
{
    const int reps = ro->run.reps;
    double *x = (double *)lab_xmalloc(sizeof(double) * 7 * (size_t)reps);
    ss_times t;
    STEP->fresh(run, dist, ro->run.seed);
    world_barrier(w);
    const char *why = STEP->sort(run, &t);
    int fails = why != NULL;
    if (why != NULL && w->rank == 0)
        printf("  FAIL: %s%s\n", why, lab_todo_note());
    if (why == NULL) {
        const int quiet = ro->run.quiet || ro->run.csv;
        fails += STEP->check(run, dist, ro->run.seed, c->N <= STEP->reference_max_n, quiet, &f->shape);
        f->shape.peak = world_all(w, f->shape.peak, 1);
    }
    if (STEP->describe != NULL)
        STEP->describe(run, f->policy, sizeof f->policy);
    for (int rep = 0; rep < reps && (int)world_all(w, fails, 0) == 0; rep++) { /* every process runs every rep */
        STEP->fresh(run, dist, ro->run.seed + 1 + (uint64_t)rep);
        world_barrier(w);
        why = STEP->sort(run, &t);
        if (why != NULL) {
            if (w->rank == 0)
                printf("  FAIL: %s\n", why);
            fails++;
            break;
        }
        const double phase[7] = {t.total, t.splitters, t.count, t.scatter, t.exchange, t.sort, t.waited};
        for (int p = 0; p < 7; p++)
            x[p * reps + rep] = world_all(w, phase[p], 1);
    }
    fails = (int)world_all(w, fails, 0);
    if (fails == 0) {
        f->total = lab_timing_of(x, reps);
        for (int p = 0; p < 6; p++)
            f->ph[p] = lab_timing_of(x + (p + 1) * reps, reps).median_ms;
    }
    free(x);
    return fails == 0;
}

/* The same sort on one GPU (at's device, one rank: the step's local sort of
 * the whole input, nothing split or sent), timed as the G-rank runs are: the
 * median total in ms, or 0 when it does not fit (above 2^30 keys) or fails.
 * So each multi-GPU line says, measured in the same run, whether G GPUs paid
 * for themselves at this size. */
static double one_gpu_ms(const ss_place *at, const run_opts *ro, int64_t N, int dist, int with_values)
{
    if (N > (1LL << 30))
        return 0;
    run_opts one = *ro;
    one.gpus = 1, one.ranks = 0, one.chunks = 0;
    const char *why;
    const ss_config c = config_of(&one, 1, N, with_values, &why);
    const ss_place alone = {.rank = 0, .device = at->device, .comm = NULL};
    ss_run *run = why == NULL ? STEP->open(&c, &alone, 1, &why) : NULL;
    double *ms = (double *)lab_xmalloc(sizeof(double) * (size_t)ro->run.reps);
    ss_times t;
    for (int rep = -1; rep < ro->run.reps && why == NULL; rep++) { /* rep -1 warms up */
        STEP->fresh(run, dist, ro->run.seed + 1 + (uint64_t)(rep + 1));
        why = STEP->sort(run, &t);
        if (rep >= 0)
            ms[rep] = t.total;
    }
    if (run != NULL)
        STEP->close(run);
    const double median = why == NULL ? lab_timing_of(ms, ro->run.reps).median_ms : 0;
    free(ms);
    return median;
}

/* One (N, distribution, keys or pairs) on the process's ranks: the result line; 1 if it passed. */
static int run_one(const ss_place *at, int nlocal, const run_opts *ro, int G, int64_t N, int dist, int with_values,
                   const world *w)
{
    const char *why;
    ss_config c = config_of(ro, G, N, with_values, &why);
    c.node = ro->ranks > 0 ? NULL : world_node(w, nlocal);
    ss_run *run = STEP->open(&c, at, nlocal, &why);
    if (why != NULL) {
        printf("  FAIL GPU %d: cannot set up: %s\n", at[0].rank, why);
        world_leave(w, LAB_EXIT_FAIL);
    }
    run_figures f;
    memset(&f, 0, sizeof f);
    const int pass = run_config(run, ro, &c, dist, &f, w);
    STEP->close(run);
    const double one =
        pass && G > 1 && c.link == SS_LINK_NCCL && w->rank == 0 ? one_gpu_ms(&at[0], ro, N, dist, with_values) : 0;
    world_barrier(w);
    if (w->rank != 0)
        return pass;
    char params[640];
    int n = snprintf(params, sizeof params,
                     "%s=%d local=%s chunks=%d dist=%s type=uint %s ms_splitters=%.4f ms_count=%.4f"
                     " ms_scatter=%.4f ms_exchange=%.4f ms_sort=%.4f waited=%.4f bucket=%.4f peak=%.2f%s",
                     c.link == SS_LINK_COPIES ? "ranks" : "gpus", G, ss_local_names()[c.local], c.K,
                     gen_dist_name(dist), with_values ? "pairs" : "keys", f.ph[0], f.ph[1], f.ph[2], f.ph[3], f.ph[4],
                     f.ph[5], f.shape.bucket, f.shape.peak, f.policy);
    if (one > 0)
        snprintf(params + n, sizeof params - (size_t)n, " ms_one_gpu=%.4f", one);
    /* the least a sort moves: read and write every key (and value) once */
    const lab_result r = {.step = lab_step_name,
                          .params = params,
                          .n = N,
                          .bytes = 2.0 * (with_values ? 2 : 1) * sizeof(unsigned int) * (double)N,
                          .time = f.total,
                          .pass = pass};
    lab_print_result(&ro->run, &r);
    if (one > 0 && one < f.total.median_ms && !ro->run.csv)
        printf("  NOTE: one GPU sorts these %lld keys faster: %.3f ms against %.3f ms on %d (ms_one_gpu=, same run)\n",
               (long long)N, one, f.total.median_ms, G);
    if (!pass && !ro->run.csv)
        lab_print_todo_hint();
    fflush(stdout);
    return pass;
}

/* ---- the ranks: devices and communicators --------------------------------------------- */

static void init_comms(ss_place *at, int nlocal, int G, const world *w)
{
    ncclComm_t *comms = (ncclComm_t *)lab_xmalloc(sizeof(ncclComm_t) * (size_t)nlocal);
    int *devs = (int *)lab_xmalloc(sizeof(int) * (size_t)nlocal);
    for (int i = 0; i < nlocal; i++)
        devs[i] = at[i].device;
    if (!w->mpi) {
        NCCL_CHECK(ncclCommInitAll(comms, nlocal, devs));
    } else { /* rank 0's id to every process; each process's ranks join in one group */
#ifdef LAB_MPI
        ncclUniqueId id;
        if (w->rank == 0)
            NCCL_CHECK(ncclGetUniqueId(&id));
        MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
        NCCL_CHECK(ncclGroupStart());
        for (int i = 0; i < nlocal; i++) {
            CUDA_CHECK(cudaSetDevice(devs[i]));
            NCCL_CHECK(ncclCommInitRank(&comms[i], G, id, at[i].rank));
        }
        NCCL_CHECK(ncclGroupEnd());
#endif
    }
    (void)G;
    for (int i = 0; i < nlocal; i++)
        at[i].comm = comms[i];
    free(comms), free(devs);
}

static void print_header(const ss_place *at, int G, int nlocal, const run_opts *ro, const world *w)
{
    struct cudaDeviceProp prop;
    int nccl_version = 0;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, at[0].device));
    NCCL_CHECK(ncclGetVersion(&nccl_version));
    const char *how = ro->ranks > 0 ? "ranks on one GPU: device copies"
                      : w->mpi      ? "MPI"
                                    : "one process: ncclCommInitAll";
    printf("# %s: %d rank%s (%d process%s x %d, %s), %s, NCCL %d, NCCL_NVLS_ENABLE=%s, local sort %s, seed %llu\n",
           lab_step_name, G, G == 1 ? "" : "s", w->size, w->size == 1 ? "" : "es", nlocal, how, prop.name, nccl_version,
           getenv("NCCL_NVLS_ENABLE"), ro->local, (unsigned long long)ro->run.seed);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const world w = world_join(&argc, &argv);
    run_opts ro;
    parse_args(argc, argv, &ro, &w);
    setenv("NCCL_NVLS_ENABLE", "0", 0); /* NVLink multicast stays off, unless the caller says otherwise */
    char why[256];
    if (!lab_gpu_available(why, sizeof why)) {
        fprintf(stderr, "%s: nothing was run: %s\n", lab_step_name, why);
        world_leave(&w, LAB_EXIT_NOGPU);
    }
    int ndev = 0;
    CUDA_CHECK(cudaGetDeviceCount(&ndev));
    const int nlocal = ro.ranks > 0 ? ro.ranks : ro.gpus, G = ro.ranks > 0 ? ro.ranks : w.size * nlocal;
    if (ro.ranks == 0 && nlocal > ndev) {
        fprintf(stderr, "%s: --gpus %d, but %d GPU%s visible (--ranks %d runs %d ranks on one)\n", lab_step_name,
                nlocal, ndev, ndev == 1 ? " is" : "s are", nlocal, nlocal);
        world_leave(&w, LAB_EXIT_USAGE);
    }
    ss_place *at = (ss_place *)calloc((size_t)nlocal, sizeof(ss_place));
    if (at == NULL)
        world_leave(&w, LAB_EXIT_USAGE);
    for (int i = 0; i < nlocal; i++) /* --ranks: every rank on GPU 0 */
        at[i].rank = w.rank * nlocal + i, at[i].device = ro.ranks > 0 ? 0 : (w.local_rank * nlocal + i) % ndev;
    if (ro.ranks == 0)
        init_comms(at, nlocal, G, &w);
    if (w.rank == 0 && !ro.run.csv)
        print_header(at, G, nlocal, &ro, &w);
    int failed = 0;
    for (int s = 0; s < ro.run.nsizes; s++)
        for (int d = 0; d < ro.ndists; d++)
            failed += !run_one(at, nlocal, &ro, G, ro.run.sizes[s], ro.dists[d], !ro.keys_only, &w);
    for (int i = 0; i < nlocal && ro.ranks == 0; i++)
        NCCL_CHECK(ncclCommDestroy(at[i].comm));
    free(at);
    world_leave(&w, failed == 0 ? LAB_EXIT_PASS : LAB_EXIT_FAIL);
    return 0;
}
