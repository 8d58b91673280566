/* sample_sort_driver.c - ./run for ch13 step 9, the sample sort across GPUs.
 * Three ways to run, one code (the step's phases loop over the ranks this
 * process owns):
 *   ./run --gpus G          one process drives G GPUs (ncclCommInitAll)
 *   mpirun -np G ./run      one GPU per rank (built with -DLAB_MPI where mpicc
 *                           is there), the communicator bootstrapped through MPI
 *   ./run --ranks G         G ranks on one GPU, exchanging by device copies
 * (mpirun -np P ./run --gpus g: P processes of g GPUs each, G = P g.)
 * Each run makes a fresh input on the GPUs (gen.h: key p of N from the
 * distribution, value p), sorts it once and checks that sort on the GPUs
 * (ss_check) and, up to the step's reference size, element by element
 * against the CPU (ss_check_reference); then it times --reps sorts, each of a
 * fresh input. Everything about the step (defaults, options, limits) it asks
 * of the step's descriptor, sample_sort_step_info. Exit 0 when every run
 * passed, 1 on a failure, 2 on a bad option (or more GPUs asked for than
 * there are), 3 without a GPU, 4 on a CUDA or NCCL error. */
#include <math.h>
#include <string.h>
#ifdef LAB_MPI
#include <mpi.h>
#endif

#include "gen.h"
#include "report.h"
#include "sample_sort.h"

#define STEP (&sample_sort_step_info)

/* This process among all: its place in the MPI world (1 process, rank 0, when not launched by mpirun). */
typedef struct {
    int size, rank, local_rank; /* local_rank: among the processes of this node */
    int mpi;                    /* launched by mpirun: the communicator is bootstrapped through MPI */
} world;

static world world_join(int *argc, char ***argv)
{
    world w = {.size = 1, .rank = 0, .local_rank = 0, .mpi = 0};
#ifdef LAB_MPI
    if (getenv("OMPI_COMM_WORLD_SIZE") != NULL || getenv("PMI_SIZE") != NULL || getenv("PMIX_RANK") != NULL) {
        MPI_Comm node;
        MPI_Init(argc, argv);
        MPI_Comm_size(MPI_COMM_WORLD, &w.size);
        MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w.rank, MPI_INFO_NULL, &node);
        MPI_Comm_rank(node, &w.local_rank);
        MPI_Comm_free(&node);
        w.mpi = 1;
    }
#else
    (void)argc, (void)argv;
#endif
    return w;
}

static void world_leave(const world *w, int code)
{
#ifdef LAB_MPI
    if (w->mpi)
        MPI_Finalize();
#endif
    (void)w;
    exit(code);
}

static void world_barrier(const world *w)
{
#ifdef LAB_MPI
    if (w->size > 1)
        MPI_Barrier(MPI_COMM_WORLD);
#endif
    (void)w;
}

/* x over every process: the largest (a phase's time is the slowest rank's) or the sum. */
static double world_all(const world *w, double x, int largest)
{
#ifdef LAB_MPI
    if (w->size > 1)
        MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, largest ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD);
#endif
    (void)w, (void)largest;
    return x;
}

/* ---- options: the lab's, and the step's own ------------------------------------------ */

typedef struct {
    lab_run run;
    const char *dist, *local, *exchange, *splitters;
    int keys_only, gpus, ranks, chunks, fine; /* chunks, fine 0: the plan's defaults */
    int first;                                /* the first chunk's size in % of another's (0: the step's) */
    int timeout_s;                            /* 0: the watchdog's default */
    int dists[GEN_COUNT], ndists;
} run_opts;

/* The run's configuration for G ranks, N keys. */
static ss_config config_of(const run_opts *ro, const world *w, int G, int64_t N, int with_values)
{
    ss_config c = STEP->defaults;
    c.G = G, c.N = N, c.with_values = with_values;
    c.local = (ss_local)lab_name_index(ro->local, STEP->locals);
    c.link = ro->ranks > 0 ? SS_LINK_COPIES : SS_LINK_NCCL;
    c.copy_engines = c.link == SS_LINK_NCCL && strcmp(ro->exchange, "nccl") != 0 && w->size == 1 && G > 1;
    c.direct_first = c.copy_engines && strcmp(ro->exchange, "direct") == 0;
    c.bin_splitters = strcmp(ro->splitters, "auto") == 0;
    c.K = ro->chunks > 0 ? ro->chunks : plan_default_chunks(G);
    c.first_weight = ro->first > 0 ? ro->first / 100.0 : ss_default_first(STEP, G, with_values);
    if (c.local == SS_LOCAL_AUTO) { /* whole chunks unless --fine says; then the step's pick for these keys */
        c.F = ro->fine > 0 ? ro->fine : 1;
        c.local = ss_auto_local(&c);
    } else
        c.F = ss_fine_for(c.local, G, c.K, ro->fine);
    c.timeout_s = (double)ro->timeout_s;
    return c;
}

static void parse_args(int argc, char **argv, run_opts *ro, const world *w)
{
    memset(ro, 0, sizeof *ro);
    static const char *const exchanges[] = {"nccl", "copy", "direct", NULL};
    static const char *const splitters[] = {"auto", "sample", NULL};
    ro->dist = "uniform", ro->local = STEP->locals[STEP->defaults.local], ro->gpus = 1, ro->exchange = "direct";
    ro->splitters = "auto";
    static char first_help[200], two[48];
    const double(*fw)[2] = STEP->first_weight; /* [more than two ranks][pairs] */
    if (fw[0][0] == fw[0][1])
        snprintf(two, sizeof two, "%.0f", 100 * fw[0][0]);
    else
        snprintf(two, sizeof two, "%.0f, pairs %.0f", 100 * fw[0][0], 100 * fw[0][1]);
    snprintf(first_help, sizeof first_help,
             "the first chunk's size, in %% of each other chunk's: small, so the sorts start early (default %s; "
             "on more than two ranks %.0f, pairs %.0f)",
             two, 100 * fw[1][0], 100 * fw[1][1]);
    const lab_opt opts[] = {
        {.name = "--dist",
         .kind = LAB_ARG_NAME,
         .at = &ro->dist,
         .names = STEP->dists,
         .metavar = "D",
         .help = "input distribution (all: each in turn)"},
        {.name = "--keys-only", .kind = LAB_ARG_FLAG, .at = &ro->keys_only, .help = "sort keys without values"},
        {.name = "--gpus",
         .kind = LAB_ARG_INT,
         .at = &ro->gpus,
         .lo = 1,
         .hi = PLAN_MAX_RANKS,
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
         .hi = PLAN_MAX_BUCKETS,
         .metavar = "K",
         .help = "chunks per rank: rounds of the exchange, each sorted as it arrives (default: 2, 1 on one rank)"},
        {.name = "--first",
         .kind = LAB_ARG_INT,
         .at = &ro->first,
         .lo = 1,
         .hi = 100,
         .metavar = "P",
         .help = first_help},
        {.name = "--fine",
         .kind = LAB_ARG_INT,
         .at = &ro->fine,
         .lo = 1,
         .hi = PLAN_MAX_FINE,
         .metavar = "F",
         .help = "sub-buckets per chunk: the radix cut, segments of its sort (default: up to 64 with --local onesweep, "
                 "else 1)"},
        {.name = "--local",
         .kind = LAB_ARG_NAME,
         .at = &ro->local,
         .names = STEP->locals,
         .metavar = "L",
         .help =
             "the local sort: step 7's (over the sub-buckets), CUB's on the whole chunk, or auto: step 7's on whole "
             "chunks of keys, CUB's for pairs"},
        {.name = "--exchange",
         .kind = LAB_ARG_NAME,
         .at = &ro->exchange,
         .names = exchanges,
         .metavar = "E",
         .help = "the keys between GPUs of one process: their copy engines, or NCCL's kernels (mpirun: NCCL); "
                 "direct (the default): the copy engines, but the scatter writes the first round's keys straight "
                 "into the receivers' memory"},
        {.name = "--splitters",
         .kind = LAB_ARG_NAME,
         .at = &ro->splitters,
         .names = splitters,
         .metavar = "W",
         .help = "auto (the default): at bin edges, from every key's top 12 bits, where that splits the keys "
                 "evenly, else from the sample; sample: always from the sample, then a count pass"},
        {.name = "--timeout",
         .kind = LAB_ARG_INT,
         .at = &ro->timeout_s,
         .lo = 1,
         .hi = 86400,
         .metavar = "S",
         .help = "seconds a sort may take before the watchdog stops it (default: 5 plus 1 a GB of share)"},
    };
    lab_parse_step(argc, argv, &STEP->lab, "", 5, opts, (int)(sizeof opts / sizeof opts[0]), &ro->run);
    if (ro->ranks > 0 && (ro->gpus > 1 || w->size > 1)) {
        fprintf(stderr, "%s: --ranks runs every rank on one GPU in this process: not with --gpus or mpirun\n",
                lab_step_name);
        exit(LAB_EXIT_USAGE);
    }
    ro->ndists = 0;
    for (int d = 0; d < GEN_COUNT; d++)
        if (strcmp(ro->dist, "all") == 0 || d == gen_dist_of(ro->dist))
            ro->dists[ro->ndists++] = d;
    const int G = ro->ranks > 0 ? ro->ranks : w->size * ro->gpus;
    for (int s = 0; s < ro->run.nsizes; s++) { /* every size, with the run's G, before any GPU is looked for */
        const ss_config c = config_of(ro, w, G, ro->run.sizes[s], !ro->keys_only);
        const char *why = ss_config_check(&c);
        if (why != NULL) {
            fprintf(stderr, "%s: -n %lld on %d rank%s: %s (./run --help)\n", lab_step_name, (long long)c.N, c.G,
                    c.G == 1 ? "" : "s", why);
            exit(LAB_EXIT_USAGE);
        }
    }
}

/* ---- one configuration: setup, the checked sort, the timed ones, the report -------- */

/* Each owned rank's device buffers against 2.25 x its share + 256 MiB. The
 * device memory it holds now (cudaMemGetInfo: NCCL's buffers too, and any
 * other process's on the same GPU), as x share, the largest into *peak.
 * Returns the failures. */
static int check_memory(const ss_rank *R, int nlocal, const ss_config *c, double *peak)
{
    int fails = 0;
    for (int i = 0; i < nlocal; i++) {
        size_t free_now, total;
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaMemGetInfo(&free_now, &total));
        const double own = (double)R[i].bytes_allocated; /* ranks sharing a GPU: each counts its own */
        const double used = c->link == SS_LINK_COPIES ? own : (double)R[i].free_before - (double)free_now;
        const double share = (double)R[i].n * sizeof(unsigned int) * (c->with_values ? 2 : 1);
        const double limit = 2.25 * share + 256.0 * (1 << 20), mib = 1 << 20;
        *peak = fmax(*peak, share > 0 ? used / share : 0);
        if (own > limit && (double)R[i].sort_temp_bytes >= share) /* a local sort with a second buffer of its own */
            printf("  NOTE GPU %d: %.0f MiB of buffers, above 2.25 x its share + 256 MiB = %.0f MiB: the local sort's"
                   " tables (%.0f MiB) hold a second buffer of their own\n",
                   R[i].rank, own / mib, limit / mib, (double)R[i].sort_temp_bytes / mib);
        else if (own > limit)
            fails++, printf("  FAIL GPU %d: %.0f MiB of buffers, above 2.25 x its share + 256 MiB = %.0f MiB\n",
                            R[i].rank, own / mib, limit / mib);
        else if (used > limit)
            printf("  NOTE GPU %d: its buffers take %.0f MiB, but %.0f MiB of the device went since they were made"
                   " (NCCL's buffers, or another process on this GPU), above %.0f MiB\n",
                   R[i].rank, own / mib, used / mib, limit / mib);
    }
    return fails;
}

/* A fresh input (seed) on every owned rank, sorted: NULL or why it could not run. */
static const char *sort_fresh(ss_rank *R, int nlocal, const ss_config *c, int dist, uint64_t seed, ss_plan *plan,
                              ss_hash *in, ss_times *t, const world *w)
{
    const char *why = plan_init(plan, c->N, c->G, c->K, c->F, c->S, c->first_weight);
    if (why != NULL)
        return why;
    for (int i = 0; i < nlocal; i++) {
        ss_generate(&R[i], c, dist, seed);
        in[i] = ss_hash_input(&R[i], c);
    }
    world_barrier(w);
    return ss_sort(R, nlocal, c, plan, t);
}

/* The checked sort, then the timed ones; the phases' medians into ph[]. 1 when every check passed. */
typedef struct {
    lab_timing total;
    double ph[6];  /* splitters, count, scatter, exchange, sort, waited: medians */
    double bucket; /* the largest bucket / (N / G) */
    double peak;   /* the largest device memory used / the share's bytes */
} run_figures;

static int run_config(ss_rank *R, int nlocal, const run_opts *ro, const ss_config *c, int dist, run_figures *f,
                      const world *w)
{
    const int reps = ro->run.reps;
    ss_plan plan;
    ss_times t;
    ss_hash *in = (ss_hash *)lab_xmalloc(sizeof(ss_hash) * (size_t)nlocal);
    double *x = (double *)lab_xmalloc(sizeof(double) * 7 * (size_t)reps);
    int fails = 0;
    memset(f, 0, sizeof *f);
    const char *why = sort_fresh(R, nlocal, c, dist, ro->run.seed, &plan, in, &t, w);
    if (why != NULL) {
        if (w->rank == 0)
            printf("  FAIL: %s%s\n", why, lab_todo_note());
        fails++;
    } else {
        fails += ss_check(R, nlocal, c, &plan, in);
        if (c->N <= STEP->reference_max_n)
            fails += ss_check_reference(R, nlocal, c, &plan, dist, ro->run.seed, ro->run.quiet || ro->run.csv);
        f->bucket = c->N > 0 ? (double)plan_largest(&plan, NULL) / ((double)c->N / c->G) : 0;
        fails += check_memory(R, nlocal, c, &f->peak);
        f->peak = world_all(w, f->peak, 1);
    }
    plan_free(&plan);
    for (int rep = 0; rep < reps && (int)world_all(w, fails, 0) == 0; rep++) { /* every process runs every rep */
        why = sort_fresh(R, nlocal, c, dist, ro->run.seed + 1 + (uint64_t)rep, &plan, in, &t, w);
        plan_free(&plan);
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
    free(in), free(x);
    return fails == 0;
}

/* The same sort on one GPU (R's device, one rank: step 7's sort of the whole
 * input, nothing split or sent), timed as the G-rank runs are: the median
 * total in ms, or 0 when it does not fit (above 2^30 keys) or fails. So each
 * multi-GPU line says, measured in the same run, whether G GPUs paid for
 * themselves at this size. */
static double one_gpu_ms(const ss_rank *R, const run_opts *ro, int64_t N, int dist, int with_values)
{
    if (N > (1LL << 30))
        return 0;
    run_opts one = *ro;
    one.gpus = 1, one.ranks = 0, one.chunks = 0, one.fine = 0;
    const world alone = {.size = 1, .rank = 0, .local_rank = 0, .mpi = 0};
    const ss_config c = config_of(&one, &alone, 1, N, with_values);
    const int reps = ro->run.reps;
    double *ms = (double *)lab_xmalloc(sizeof(double) * (size_t)reps);
    ss_rank r;
    memset(&r, 0, sizeof r);
    r.device = R->device;
    ss_plan plan;
    ss_hash in;
    ss_times t;
    int ok = ss_setup(&r, &c, NULL) == NULL;
    for (int rep = -1; rep < reps && ok; rep++) { /* rep -1 warms up */
        ok = sort_fresh(&r, 1, &c, dist, ro->run.seed + 1 + (uint64_t)(rep + 1), &plan, &in, &t, &alone) == NULL;
        plan_free(&plan);
        if (rep >= 0)
            ms[rep] = t.total;
    }
    ss_teardown(&r);
    const double median = ok ? lab_timing_of(ms, reps).median_ms : 0;
    free(ms);
    return median;
}

/* One (N, distribution, keys or pairs) on the process's ranks: the result line; 1 if it passed. */
static int run_one(ss_rank *R, int nlocal, const run_opts *ro, int G, int64_t N, int dist, int with_values,
                   const world *w)
{
    const ss_config c = config_of(ro, w, G, N, with_values);
    for (int i = 0; i < nlocal; i++) {
        const char *why = ss_setup(&R[i], &c, c.link == SS_LINK_COPIES && i > 0 ? &R[0] : NULL);
        if (why != NULL) {
            printf("  FAIL GPU %d: cannot set up: %s\n", R[i].rank, why);
            world_leave(w, LAB_EXIT_FAIL);
        }
    }
    if (c.copy_engines)
        ss_link_peers(R, nlocal);
    run_figures f;
    const int pass = run_config(R, nlocal, ro, &c, dist, &f, w);
    for (int i = 0; i < nlocal; i++)
        ss_teardown(&R[i]);
    const double one =
        pass && G > 1 && c.link == SS_LINK_NCCL && w->rank == 0 ? one_gpu_ms(&R[0], ro, N, dist, with_values) : 0;
    world_barrier(w);
    if (w->rank == 0) {
        char params[640];
        int at = snprintf(params, sizeof params,
                          "%s=%d local=%s chunks=%d first=%.0f fine=%d dist=%s type=uint %s ms_splitters=%.4f"
                          " ms_count=%.4f ms_scatter=%.4f ms_exchange=%.4f ms_sort=%.4f waited=%.4f bucket=%.4f"
                          " peak=%.2f",
                          c.link == SS_LINK_COPIES ? "ranks" : "gpus", G, STEP->locals[c.local], c.K,
                          100 * c.first_weight, c.F, gen_dist_name(dist), with_values ? "pairs" : "keys", f.ph[0],
                          f.ph[1], f.ph[2], f.ph[3], f.ph[4], f.ph[5], f.bucket, f.peak);
        if (c.copy_engines)
            at += snprintf(params + at, sizeof params - (size_t)at, " exchange=%s", c.direct_first ? "direct" : "copy");
        if (!c.bin_splitters)
            at += snprintf(params + at, sizeof params - (size_t)at, " splitters=sample");
        if (one > 0)
            snprintf(params + at, sizeof params - (size_t)at, " ms_one_gpu=%.4f", one);
        /* the least a sort moves: read and write every key (and value) once */
        const lab_result r = {.step = lab_step_name,
                              .params = params,
                              .n = N,
                              .bytes = 2.0 * (with_values ? 2 : 1) * sizeof(unsigned int) * (double)N,
                              .time = f.total,
                              .pass = pass};
        lab_print_result(&ro->run, &r);
        if (one > 0 && one < f.total.median_ms && !ro->run.csv)
            printf(
                "  NOTE: one GPU sorts these %lld keys faster: %.3f ms against %.3f ms on %d (ms_one_gpu=, same run)\n",
                (long long)N, one, f.total.median_ms, G);
        if (!pass && !ro->run.csv)
            lab_print_todo_hint();
        fflush(stdout);
    }
    return pass;
}

/* ---- the ranks: devices and communicators --------------------------------------------- */

static void init_comms(ss_rank *R, int nlocal, int G, const world *w)
{
    ncclComm_t *comms = (ncclComm_t *)lab_xmalloc(sizeof(ncclComm_t) * (size_t)nlocal);
    int *devs = (int *)lab_xmalloc(sizeof(int) * (size_t)nlocal);
    for (int i = 0; i < nlocal; i++)
        devs[i] = R[i].device;
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
            NCCL_CHECK(ncclCommInitRank(&comms[i], G, id, R[i].rank));
        }
        NCCL_CHECK(ncclGroupEnd());
#endif
    }
    (void)G;
    for (int i = 0; i < nlocal; i++)
        R[i].comm = comms[i];
    free(comms), free(devs);
}

static void print_header(const ss_rank *R, int G, int nlocal, const run_opts *ro, const world *w)
{
    struct cudaDeviceProp prop;
    int nccl_version = 0;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, R[0].device));
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
    ss_rank *R = (ss_rank *)calloc((size_t)nlocal, sizeof(ss_rank));
    if (R == NULL)
        world_leave(&w, LAB_EXIT_USAGE);
    for (int i = 0; i < nlocal; i++) /* --ranks: every rank on GPU 0 */
        R[i].rank = w.rank * nlocal + i, R[i].device = ro.ranks > 0 ? 0 : (w.local_rank * nlocal + i) % ndev;
    if (ro.ranks == 0)
        init_comms(R, nlocal, G, &w);
    if (w.rank == 0 && !ro.run.csv)
        print_header(R, G, nlocal, &ro, &w);
    int failed = 0;
    for (int s = 0; s < ro.run.nsizes; s++)
        for (int d = 0; d < ro.ndists; d++)
            failed += !run_one(R, nlocal, &ro, G, ro.run.sizes[s], ro.dists[d], !ro.keys_only, &w);
    for (int i = 0; i < nlocal && ro.ranks == 0; i++)
        NCCL_CHECK(ncclCommDestroy(R[i].comm));
    free(R);
    world_leave(&w, failed == 0 ? LAB_EXIT_PASS : LAB_EXIT_FAIL);
    return 0;
}
