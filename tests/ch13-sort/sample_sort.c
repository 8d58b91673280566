/* sample_sort.c - the suite of chapter 13's multi-GPU sample sort (kernel
 * file sample_sort.cu, step 9); the plan's own tests on the CPU are in
 * tests/ch13-sort/step9-sample-sort.c.
 * CPU tests (CI, no GPU): the step's descriptor complete and its defaults
 * accepted, bad configurations refused, the buffers' sizes, the inputs'
 * shapes, and ./run refusing bad options with exit 2 before it looks for a
 * GPU. GPU tests, on one GPU: the step's phases driven here as `./run --gpus
 * 1` drives them (one process, ncclCommInitAll), every distribution, sizes 0
 * to 2^24 + 3, keys and pairs, 1 to 5 chunks (4 make every phase run on one
 * GPU: sample, splitters, counts, scatter, exchange, sorts), both local
 * sorts; each sort checked by the step's checks that scale and element by
 * element against the CPU (values are input positions: stability is
 * checked). Then ./run itself, in both launch forms: `./run --gpus 1` and
 * `mpirun -np 1 ./run` (skipped with the reason where ./run was not built
 * beside this suite, or mpirun or MPI is missing). */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gen.h"
#include "lab_test.h"
#include "sample_sort.h"

#define STEP (&sample_sort_step_info)

/* ---- CPU tests ------------------------------------------------------------- */

static ss_config config(int G, int64_t N, int K, int with_values, ss_local local)
{
    ss_config c = STEP->defaults;
    c.G = G, c.N = N, c.K = K, c.with_values = with_values, c.local = local;
    return c;
}

/* The local sort ./run takes by default: step 7's when it is linked into this build. */
static ss_local default_local(void)
{
    return ss_have_onesweep() ? SS_LOCAL_ONESWEEP : SS_LOCAL_CUB;
}

Test(sample_sort_step, the_descriptor_is_complete_and_its_defaults_accepted)
{
    const ss_step *s = STEP;
    const unsigned want = LAB_OPT_DIST | LAB_OPT_KEYS_ONLY | LAB_OPT_GPUS | LAB_OPT_LOCAL;
    cr_assert_eq(s->spec.options, want, "./run takes --dist, --keys-only, --gpus and --local (and -n, --seed, ...)");
    for (int d = 0; d < GEN_COUNT; d++)
        cr_assert(lab_name_in(gen_dist_name(d), s->spec.dists), "--dist takes %s", gen_dist_name(d));
    cr_assert(lab_name_in("all", s->spec.dists), "--dist all runs every distribution");
    cr_assert(lab_name_in("onesweep", s->spec.locals) && lab_name_in("cub", s->spec.locals), "--local onesweep or cub");
    cr_assert(s->spec.about != NULL && strstr(s->spec.about, "--chunks") != NULL, "the --help paragraph names --chunks");
    cr_assert(s->default_n > 0 && s->default_n <= s->spec.max_n, "the default size within -n's limit");
    cr_assert_eq(s->reference_max_n, 1LL << 28, "the CPU reference up to 2^28 keys (issue 14)");
    cr_assert(s->spec.max_n >= 1LL << 33, "-n takes 2^33 keys (32 GiB, two H200s)");
    for (int G = 1; G <= 64; G *= 2)
        for (int pairs = 0; pairs < 2; pairs++) {
            const ss_config c = config(G, s->default_n, plan_default_chunks(G), pairs, default_local());
            const char *why = ss_config_check(&c);
            cr_assert_null(why, "the defaults on %d GPUs (%s) must be accepted: %s", G, pairs ? "pairs" : "keys", why);
        }
}

Test(sample_sort_step, bad_configurations_are_refused_without_a_gpu)
{
    static const struct {
        int G, K, S;
        double first_weight, slack;
        const char *what;
    } bad[] = {{1, 0, 8192, 0.5, 0.1, "no chunks"},      {2, 600, 8192, 0.5, 0.1, "ranks x chunks above 1024"},
               {0, 1, 8192, 0.5, 0.1, "no GPU"},          {2, 4, 0, 0.5, 0.1, "an empty sample"},
               {2, 4, 1 << 17, 0.5, 0.1, "a sample above 65536"}, {2, 4, 8192, 0.0, 0.1, "a first chunk of weight 0"},
               {2, 4, 8192, 0.5, -0.1, "negative slack"}, {2, 4, 8192, 0.5, 1.5, "slack above 1"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ss_config c = config(bad[i].G, 1000, bad[i].K, 1, SS_LOCAL_CUB);
        c.S = bad[i].S, c.first_weight = bad[i].first_weight, c.slack = bad[i].slack;
        cr_assert_not_null(ss_config_check(&c), "%s must be refused", bad[i].what);
    }
    ss_config c = config(1, -1, 1, 1, SS_LOCAL_CUB);
    cr_assert_not_null(ss_config_check(&c), "a negative N must be refused");
    c = config(2, 1000, 4, 1, SS_LOCAL_ONESWEEP);
    cr_assert((ss_config_check(&c) == NULL) == ss_have_onesweep(),
              "--local onesweep is taken exactly when step 7 is linked into this build (it is%s)",
              ss_have_onesweep() ? "" : " not");
}

Test(sample_sort_step, buffers_hold_a_share_with_slack_and_a_chunk_with_room)
{
    static const int64_t sizes[] = {0, 1, 1000, (1 << 20) + 3, 1LL << 30, (1LL << 33) + 5};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int G = 1; G <= 64; G *= 4)
            for (int K = 1; K <= 8; K += 3) {
                const ss_config c = config(G, sizes[z], K, 1, SS_LOCAL_CUB);
                for (int r = 0; r < G; r++) {
                    const int64_t n = plan_share_start(c.N, G, r + 1) - plan_share_start(c.N, G, r);
                    const int64_t cap = ss_capacity(&c, r), room = ss_chunk_room(&c, r);
                    if (G == 1) /* one GPU's bucket is its share: no slack to pay for */
                        cr_assert(cap == n, "N=%lld G=1: room for exactly its %lld keys, not %lld", (long long)c.N,
                                  (long long)n, (long long)cap);
                    else
                        cr_assert(cap >= n && cap >= (int64_t)(1.1 * (double)c.N / G),
                                  "N=%lld G=%d rank %d: room for %lld keys", (long long)c.N, G, r, (long long)cap);
                    cr_assert(cap <= (int64_t)(1.1 * (double)c.N / G) + 2, "N=%lld G=%d: at most (1 + slack) N/G keys",
                              (long long)c.N, G);
                    const double biggest = (K == 1 ? 1.0 : 1.0 / (c.first_weight + K - 1)) * (double)cap;
                    cr_assert(room <= cap && (room == cap || (double)room >= 1.25 * biggest),
                              "N=%lld G=%d K=%d: a chunk's room %lld, its largest target %.0f keys", (long long)c.N, G, K,
                              (long long)room, biggest);
                }
            }
}

Test(sample_sort_inputs, distributions_have_their_shape)
{
    const int64_t N = 100000;
    unsigned int prev = 0;
    for (int64_t g = 0; g < N; g++) {
        const unsigned int k = gen_key(GEN_SORTED, 3, (uint64_t)g, (uint64_t)N);
        cr_assert(k >= prev && k != 0, "sorted: key %lld", (long long)g);
        prev = k;
    }
    prev = 0xFFFFFFFFu;
    for (int64_t g = 0; g < N; g++) {
        const unsigned int k = gen_key(GEN_REVERSE, 3, (uint64_t)g, (uint64_t)N);
        cr_assert(k <= prev && k != 0, "reverse: key %lld", (long long)g);
        prev = k;
    }
    unsigned int few[16];
    int nfew = 0;
    int64_t top = 0;
    const unsigned int heavy = 2654435761u; /* rank 1, times the odd multiplier */
    for (int64_t g = 0; g < N; g++) {
        const uint64_t at = (uint64_t)g, n = (uint64_t)N;
        cr_assert_eq(gen_key(GEN_EQUAL, 3, at, n), gen_key(GEN_EQUAL, 3, 0, n));
        const unsigned int k = gen_key(GEN_FEW, 3, at, n);
        int seen = 0;
        for (int i = 0; i < nfew; i++)
            seen |= few[i] == k;
        if (!seen && nfew < 16)
            few[nfew++] = k;
        top += gen_key(GEN_ZIPF, 3, at, n) == heavy;
        cr_assert_neq(gen_key(GEN_UNIFORM, 3, at, n), 0u);
        cr_assert_eq(gen_value(at), (unsigned int)g, "values are input positions");
    }
    cr_assert(nfew >= 6 && nfew <= 8, "few: %d distinct keys", nfew);
    cr_assert(top > N * 45 / 100 && top < N * 55 / 100, "zipf: the heaviest key is %lld of %lld", (long long)top, (long long)N);
    cr_assert_eq(gen_dist_of("zipf"), GEN_ZIPF);
    cr_assert_eq(gen_dist_of("zip"), -1);
}

/* ---- ./run, beside this suite in build/<step>/ --------------------------------- */

/* The path of the step's ./run (build/<step>/run, where this test binary is), or NULL when it is not built. */
static const char *run_path(void)
{
    static char path[4096];
    const ssize_t len = readlink("/proc/self/exe", path, sizeof path - 8);
    if (len <= 0)
        return NULL;
    path[len] = '\0';
    char *slash = strrchr(path, '/');
    if (slash == NULL)
        return NULL;
    strcpy(slash + 1, "run");
    return access(path, X_OK) == 0 ? path : NULL;
}

/* Runs a shell command; its exit status, its output (the last len - 1 bytes) in out. */
static int run_command(const char *cmd, char *out, size_t len)
{
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p, "cannot run %s", cmd);
    size_t at = 0;
    char line[1024];
    out[0] = '\0';
    while (fgets(line, sizeof line, p) != NULL) {
        const size_t n = strlen(line);
        if (at + n >= len) /* keep the end: the failures and the result lines */
            at = 0;
        memcpy(out + at, line, n + 1);
        at += n;
    }
    const int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Test(sample_sort_run, bad_options_are_exit_2_before_the_gpu_is_looked_for)
{
    const char *run = run_path();
    if (run == NULL)
        cr_skip_test("./run is not built beside this suite (make builds build/<step>/run with it)");
    static const char *const bad[] = {"--chunks 0", "--chunks", "--chunks 1025", "--gpus 0", "--dist nope",
                                      "--local quick", "--block 256", "-n 2^41", "--gpus 2 --chunks 600 -n 1000",
                                      "--tile 1024"};
    char cmd[4600], out[4096];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "CUDA_VISIBLE_DEVICES= %s %s 2>&1", run, bad[i]);
        const int rc = run_command(cmd, out, sizeof out);
        cr_assert_eq(rc, LAB_EXIT_USAGE, "./run %s: exit %d, expected 2 (a bad option), said: %s", bad[i], rc, out);
    }
}

/* ---- GPU tests: the phases on one GPU, driven from this process ------------------- */

/* GPU 0's communicator of one rank, made once per test process. */
static ncclComm_t gpu0_comm(void)
{
    static ncclComm_t comm = NULL;
    int dev = 0;
    if (comm == NULL)
        NCCL_CHECK(ncclCommInitAll(&comm, 1, &dev));
    return comm;
}

/* One rank on GPU 0, as ./run --gpus 1 drives it: sort a fresh input and run
 * every check (the ones that scale, and the CPU reference). */
static void sort_and_check(int64_t N, int dist, int with_values, int K, double first_weight, ss_local local,
                           uint64_t seed)
{
    ss_config c = config(1, N, K, with_values, local);
    c.first_weight = first_weight;
    char name[200];
    snprintf(name, sizeof name, "N=%lld dist=%s %s chunks=%d first-weight=%.2f local=%s seed=%llu", (long long)N,
             gen_dist_name(dist), with_values ? "pairs" : "keys", K, first_weight,
             local == SS_LOCAL_CUB ? "cub" : "onesweep", (unsigned long long)seed);
    cr_assert_null(ss_config_check(&c), "%s: refused", name);
    ss_rank R;
    memset(&R, 0, sizeof R);
    R.comm = gpu0_comm();
    const char *why = ss_setup(&R, &c);
    cr_assert_null(why, "%s: setup: %s", name, why);
    ss_plan plan;
    cr_assert_null(plan_init(&plan, N, 1, K, c.S, c.first_weight));
    ss_generate(&R, &c, dist, seed);
    const ss_hash in = ss_hash_input(&R, &c);
    ss_times t;
    why = ss_sort(&R, 1, &c, &plan, &t);
    cr_assert_null(why, "%s: %s%s", name, why, lab_todo_note());
    const int fails = ss_check(&R, 1, &c, &plan, &in) + ss_check_reference(&R, 1, &c, &plan, dist, seed, 0);
    cr_assert_eq(fails, 0, "%s: %d checks failed (the lines above say which)%s", name, fails, lab_todo_note());
    cr_assert_eq(R.run_n, N, "%s: the one GPU holds %lld keys", name, (long long)R.run_n);
    plan_free(&plan);
    ss_teardown(&R);
}

GPU_TEST(sample_sort_gpu, every_distribution_and_size_four_chunks_cub)
{
    static const int64_t sizes[] = {0, 1, 1000, (1 << 20) + 3};
    for (int dist = 0; dist < GEN_COUNT; dist++)
        for (int z = 0; z < 4; z++)
            for (int pairs = 0; pairs < 2; pairs++)
                sort_and_check(sizes[z], dist, pairs, 4, 0.5, SS_LOCAL_CUB, lab_test_seeds[(dist + z) % LAB_TEST_NSEEDS]);
}

GPU_TEST(sample_sort_gpu, every_distribution_four_chunks_default_local_sort)
{
    static const int64_t sizes[] = {1000, (1 << 20) + 3, 3 << 20};
    for (int dist = 0; dist < GEN_COUNT; dist++)
        for (int z = 0; z < 3; z++)
            sort_and_check(sizes[z], dist, (dist + z) % 2, 4, 0.5, default_local(), lab_test_seeds[z]);
}

GPU_TEST(sample_sort_gpu, one_three_and_five_chunks)
{
    static const int ks[] = {1, 3, 5};
    static const double weights[] = {0.5, 1.0, 0.25};
    for (int k = 0; k < 3; k++)
        for (int dist = 0; dist < GEN_COUNT; dist += 1)
            sort_and_check((1 << 20) + 77 * dist, dist, (k + dist) % 2, ks[k], weights[k],
                           k == 1 ? SS_LOCAL_CUB : default_local(), lab_test_seeds[(k + dist) % LAB_TEST_NSEEDS]);
}

GPU_TEST(sample_sort_gpu, ties_and_skew_at_2_pow_24)
{
    static const int dists[] = {GEN_EQUAL, GEN_FEW, GEN_ZIPF, GEN_UNIFORM};
    for (int d = 0; d < 4; d++)
        sort_and_check((1 << 24) + 3, dists[d], 1, 4, 0.5, d % 2 ? SS_LOCAL_CUB : default_local(),
                       lab_test_seeds[d % LAB_TEST_NSEEDS]);
}

/* ---- GPU tests: ./run in both launch forms ------------------------------------------- */

static void expect_run_passes(const char *launcher, const char *args)
{
    const char *run = run_path();
    if (run == NULL)
        cr_skip_test("./run is not built beside this suite (make builds build/<step>/run with it)");
    char cmd[4800], out[8192];
    snprintf(cmd, sizeof cmd, "NCCL_NVLS_ENABLE=0 %s %s %s 2>&1", launcher, run, args);
    const int rc = run_command(cmd, out, sizeof out);
    cr_assert_eq(rc, 0, "%s: exit %d, expected 0; it said:\n%s", cmd, rc, out);
    cr_assert(strstr(out, "FAIL") == NULL && strstr(out, "PASS") != NULL, "%s: said:\n%s", cmd, out);
}

GPU_TEST(sample_sort_run, gpus_1_every_distribution_keys_and_pairs)
{
    expect_run_passes("", "--gpus 1 -n 0,1000,2^20+3 --dist all --chunks 4 --reps 1");
    expect_run_passes("", "--gpus 1 -n 0,1000,2^20+3 --dist all --chunks 4 --reps 1 --keys-only");
    expect_run_passes("", "--gpus 1 -n 1000,2^20+3 --dist all --reps 1");
}

GPU_TEST(sample_sort_run, mpirun_np_1_every_distribution_keys_and_pairs)
{
    char out[8192];
    if (run_path() == NULL)
        cr_skip_test("./run is not built beside this suite (make builds build/<step>/run with it)");
    if (run_command("command -v mpirun >/dev/null 2>&1", out, sizeof out) != 0)
        cr_skip_test("mpirun is not on PATH: the MPI form (mpirun -np G ./run) was not run");
    char cmd[4600];
    snprintf(cmd, sizeof cmd, "nm %s 2>/dev/null | grep -q ' U MPI_Init'", run_path());
    if (run_command(cmd, out, sizeof out) != 0)
        cr_skip_test("./run was built without MPI (no mpicc at build time): the MPI form was not run");
    const char *mpirun = "mpirun --allow-run-as-root --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE -np 1";
    expect_run_passes(mpirun, "-n 0,1000,2^20+3 --dist all --chunks 4 --reps 1");
    expect_run_passes(mpirun, "-n 1000,2^20+3 --dist all --chunks 4 --reps 1 --keys-only");
    snprintf(cmd, sizeof cmd, "%s %s -n 1000 --reps 1 2>&1", mpirun, run_path());
    run_command(cmd, out, sizeof out);
    cr_assert(strstr(out, "x 1, MPI)") != NULL, "mpirun -np 1 ./run must bootstrap NCCL through MPI; it said:\n%s", out);
}
