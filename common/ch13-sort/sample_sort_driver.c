/* sample_sort_driver.c - ./run for ch13 step 9, the sample sort across GPUs.
 * Two ways to run, one code (the step's phases loop over the ranks this
 * process owns):
 *   ./run --gpus G          one process drives G GPUs (ncclCommInitAll)
 *   mpirun -np G ./run      one GPU per rank (built with -DLAB_MPI where mpicc
 *                           is there), the communicator bootstrapped through MPI
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
    world w = {1, 0, 0, 0};
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

/* ---- options: the lab's, and --chunks -------------------------------------------- */

typedef struct {
    lab_opts o;
    int chunks;              /* 0: plan_default_chunks(G) */
    ss_local local;
    int dists[GEN_COUNT], ndists;
} run_opts;

/* --chunks K is this step's own option, which the lab's parser does not
 * know: taken out of argv here and checked, before the GPU is looked for. */
static int take_chunks(int *argc, char **argv)
{
    int chunks = 0, kept = 1;
    for (int a = 1; a < *argc; a++) {
        if (strcmp(argv[a], "--chunks") != 0) {
            argv[kept++] = argv[a];
            continue;
        }
        char *end = NULL;
        const long k = a + 1 < *argc ? strtol(argv[a + 1], &end, 10) : 0;
        if (a + 1 >= *argc || *end != '\0' || k < 1 || k > PLAN_MAX_BUCKETS) {
            fprintf(stderr, "%s: --chunks takes 1 to %d (./run --help lists this step's options)\n", lab_step_name,
                    PLAN_MAX_BUCKETS);
            exit(LAB_EXIT_USAGE);
        }
        chunks = (int)k;
        a++;
    }
    *argc = kept;
    argv[kept] = NULL;
    return chunks;
}

/* The run's configuration for G ranks, N keys. */
static ss_config config_of(const run_opts *ro, int G, int64_t N, int with_values)
{
    ss_config c = STEP->defaults;
    c.G = G, c.N = N, c.with_values = with_values, c.local = ro->local;
    c.K = ro->chunks > 0 ? ro->chunks : plan_default_chunks(G);
    return c;
}

static void parse(int argc, char **argv, run_opts *ro, const world *w)
{
    const lab_opt_spec spec = STEP->spec;
    ro->chunks = take_chunks(&argc, argv);
    ro->o = lab_opts_defaults();
    ro->o.size = ro->o.sizes[0] = STEP->default_n;
    ro->o.dist = "uniform", ro->o.reps = 5;
    ro->o.local = ss_have_onesweep() ? "onesweep" : "cub"; /* step 7 when it is linked in */
    lab_parse_opts(argc, argv, &ro->o, &spec, lab_step_name);
    if (ro->o.nsizes == 0)
        ro->o.nsizes = 1;
    ro->local = strcmp(ro->o.local, "cub") == 0 ? SS_LOCAL_CUB : SS_LOCAL_ONESWEEP;
    ro->ndists = 0;
    for (int d = 0; d < GEN_COUNT; d++)
        if (strcmp(ro->o.dist, "all") == 0 || d == gen_dist_of(ro->o.dist))
            ro->dists[ro->ndists++] = d;
    for (int s = 0; s < ro->o.nsizes; s++) { /* every size, with the run's G, before any GPU is looked for */
        const ss_config c = config_of(ro, w->size * ro->o.gpus, ro->o.sizes[s], !ro->o.keys_only);
        const char *why = ss_config_check(&c);
        if (why != NULL) {
            fprintf(stderr, "%s: -n %lld on %d GPU%s: %s (./run --help)\n", lab_step_name, (long long)c.N, c.G,
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
        const double used = (double)R[i].free_before - (double)free_now, own = (double)R[i].bytes_allocated;
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
    const char *why = plan_init(plan, c->N, c->G, c->K, c->S, c->first_weight);
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
    double ph[6];    /* splitters, count, scatter, exchange, sort, waited: medians */
    double bucket;   /* the largest bucket / (N / G) */
    double peak;     /* the largest device memory used / the share's bytes */
} run_figures;

static int run_config(ss_rank *R, int nlocal, const run_opts *ro, const ss_config *c, int dist, run_figures *f,
                      const world *w)
{
    const int reps = ro->o.reps;
    ss_plan plan;
    ss_times t;
    ss_hash *in = (ss_hash *)lab_xmalloc(sizeof(ss_hash) * (size_t)nlocal);
    double *x = (double *)lab_xmalloc(sizeof(double) * 7 * (size_t)reps);
    int fails = 0;
    memset(f, 0, sizeof *f);
    const char *why = sort_fresh(R, nlocal, c, dist, ro->o.seed, &plan, in, &t, w);
    if (why != NULL) {
        if (w->rank == 0)
            printf("  FAIL: %s%s\n", why, lab_todo_note());
        fails++;
    } else {
        fails += ss_check(R, nlocal, c, &plan, in);
        if (c->N <= STEP->reference_max_n)
            fails += ss_check_reference(R, nlocal, c, &plan, dist, ro->o.seed, ro->o.quiet || ro->o.csv);
        f->bucket = c->N > 0 ? (double)plan_largest(&plan, NULL) / ((double)c->N / c->G) : 0;
        fails += check_memory(R, nlocal, c, &f->peak);
        f->peak = world_all(w, f->peak, 1);
    }
    plan_free(&plan);
    for (int rep = 0; rep < reps && (int)world_all(w, fails, 0) == 0; rep++) { /* every process runs every rep */
        why = sort_fresh(R, nlocal, c, dist, ro->o.seed + 1 + (uint64_t)rep, &plan, in, &t, w);
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

static const char *local_name(ss_local local)
{
    return local == SS_LOCAL_CUB ? "cub" : "onesweep";
}

/* One (N, distribution, keys or pairs) on the process's ranks: the result line; 1 if it passed. */
static int run_one(ss_rank *R, int nlocal, const run_opts *ro, int G, int64_t N, int dist, int with_values,
                   const world *w)
{
    const ss_config c = config_of(ro, G, N, with_values);
    for (int i = 0; i < nlocal; i++) {
        const char *why = ss_setup(&R[i], &c);
        if (why != NULL) {
            printf("  FAIL GPU %d: cannot set up: %s\n", R[i].rank, why);
            world_leave(w, LAB_EXIT_FAIL);
        }
    }
    run_figures f;
    const int pass = run_config(R, nlocal, ro, &c, dist, &f, w);
    for (int i = 0; i < nlocal; i++)
        ss_teardown(&R[i]);
    if (w->rank == 0) {
        char params[512];
        snprintf(params, sizeof params,
                 "gpus=%d local=%s chunks=%d dist=%s type=uint %s ms_splitters=%.4f ms_count=%.4f ms_scatter=%.4f"
                 " ms_exchange=%.4f ms_sort=%.4f waited=%.4f bucket=%.4f peak=%.2f",
                 G, local_name(c.local), c.K, gen_dist_name(dist), with_values ? "pairs" : "keys", f.ph[0], f.ph[1],
                 f.ph[2], f.ph[3], f.ph[4], f.ph[5], f.bucket, f.peak);
        /* the least a sort moves: read and write every key (and value) once */
        const lab_result r = {lab_step_name, params, N, 2.0 * (with_values ? 2 : 1) * sizeof(unsigned int) * (double)N,
                              f.total, pass};
        lab_print_result(&ro->o, &r);
        if (!pass && !ro->o.csv)
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
    printf("# %s: %d GPU%s (%d process%s x %d, %s), %s, NCCL %d, NCCL_NVLS_ENABLE=%s, local sort %s, seed %llu\n",
           lab_step_name, G, G == 1 ? "" : "s", w->size, w->size == 1 ? "" : "es", nlocal,
           w->mpi ? "MPI" : "one process: ncclCommInitAll", prop.name, nccl_version, getenv("NCCL_NVLS_ENABLE"),
           local_name(ro->local), (unsigned long long)ro->o.seed);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const world w = world_join(&argc, &argv);
    run_opts ro;
    parse(argc, argv, &ro, &w);
    setenv("NCCL_NVLS_ENABLE", "0", 0); /* NVLink multicast stays off, unless the caller says otherwise */
    char why[256];
    if (!lab_gpu_available(why, sizeof why)) {
        fprintf(stderr, "%s: nothing was run: %s\n", lab_step_name, why);
        world_leave(&w, LAB_EXIT_NOGPU);
    }
    int ndev = 0;
    CUDA_CHECK(cudaGetDeviceCount(&ndev));
    const int nlocal = ro.o.gpus, G = w.size * nlocal;
    if (nlocal > ndev) {
        fprintf(stderr, "%s: --gpus %d, but %d GPU%s visible\n", lab_step_name, nlocal, ndev, ndev == 1 ? " is" : "s are");
        world_leave(&w, LAB_EXIT_USAGE);
    }
    ss_rank *R = (ss_rank *)calloc((size_t)nlocal, sizeof(ss_rank));
    for (int i = 0; i < nlocal; i++)
        R[i].rank = w.rank * nlocal + i, R[i].device = (w.local_rank * nlocal + i) % ndev;
    init_comms(R, nlocal, G, &w);
    if (w.rank == 0 && !ro.o.csv)
        print_header(R, G, nlocal, &ro, &w);
    int failed = 0;
    for (int s = 0; s < ro.o.nsizes; s++)
        for (int d = 0; d < ro.ndists; d++)
            failed += !run_one(R, nlocal, &ro, G, ro.o.sizes[s], ro.dists[d], !ro.o.keys_only, &w);
    for (int i = 0; i < nlocal; i++)
        NCCL_CHECK(ncclCommDestroy(R[i].comm));
    free(R);
    world_leave(&w, failed == 0 ? LAB_EXIT_PASS : LAB_EXIT_FAIL);
    return 0;
}
