/* sample_sort.c - the suite of chapter 13's sort across GPUs (kernel file
 * sample_sort.cu: steps 9 and 10), through the step's descriptor alone
 * (common/ch13-sort/sample_sort.h); the plan's own tests on the CPU are in
 * tests/ch13-sort/step9-sample-sort.c, step 10's ideas' in
 * step10-sample-sort-tuned.c.
 * CPU tests (CI, no GPU): the descriptor complete and its defaults accepted,
 * bad configurations refused, the inputs' shapes, and ./run refusing bad
 * options with exit 2 before it looks for a GPU. GPU tests, on the one GPU
 * every student has: the step's sort for 1 to 8 ranks sharing GPU 0 (as
 * `./run --ranks G` drives them: the exchange by device copies), so every
 * phase and every TODO runs, the exchange included: every distribution,
 * sizes 0 to 2^24 + 3, keys and pairs, 1 to 5 chunks, both local sorts, and
 * for a step that takes them every choice of its policy; each sort checked
 * by the checks that scale and element by element against the CPU (values
 * are input positions: stability is checked). Then ./run itself: `--ranks
 * G`, `--gpus 1`, `mpirun -np 1`, and on a machine with several GPUs `--gpus
 * G` and `mpirun -np G` over all of them (each skipped with its reason where
 * ./run was not built beside this suite, or mpirun, MPI or a second GPU is
 * missing), a lost message and a stalled peer stopped, not hung, and the
 * network transport between processes (tests/ch13-sort/sample_sort_forms.h). */
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gen.h"
#include "lab_test.h"
#include "sample_sort.h"

#define STEP (&sample_sort_step_info)

/* The step's configuration of G ranks on one GPU (one rank: over NCCL, as ./run --gpus 1). */
static ss_config config(int G, int64_t N, int K, int with_values, ss_local local)
{
    ss_config c = STEP->defaults;
    c.G = G, c.N = N, c.K = K, c.with_values = with_values, c.local = local;
    c.link = G > 1 ? SS_LINK_COPIES : SS_LINK_NCCL;
    c.asked = (ss_asked){.splitters = "auto", .split = "auto", .exchange = "auto", .first = 0};
    return c;
}

/* ---- CPU tests ------------------------------------------------------------- */

Test(sample_sort_step, the_descriptor_is_complete_and_its_defaults_accepted)
{
    const ss_step *s = STEP;
    cr_assert(s->configure && s->open && s->fresh && s->sort && s->check && s->close, "every way of the step is set");
    cr_assert(s->lab.about != NULL && strstr(s->lab.about, "--ranks") != NULL, "the --help paragraph names --ranks");
    cr_assert(s->lab.default_n > 0 && s->lab.default_n <= s->lab.max_n, "the default size within -n's limit");
    cr_assert_eq(s->reference_max_n, 1LL << 28, "the CPU reference up to 2^28 keys (issue 14)");
    cr_assert(s->lab.max_n >= 1LL << 33, "-n takes 2^33 keys (32 GiB, two H200s)");
    cr_assert(s->takes == 0 || s->describe != NULL, "a step with a policy prints it on the result line");
    for (int G = 1; G <= 64; G *= 2)
        for (int pairs = 0; pairs < 2; pairs++) {
            ss_config c = config(G, s->lab.default_n, 0, pairs, SS_LOCAL_AUTO);
            const char *why = s->configure(&c);
            cr_assert_null(why, "the defaults on %d GPUs (%s) must be accepted: %s", G, pairs ? "pairs" : "keys", why);
            cr_assert(c.K >= 1 && c.local != SS_LOCAL_AUTO, "G=%d: configure fills in the chunks and the local sort",
                      G);
            cr_assert_eq(c.local, pairs ? SS_LOCAL_CUB : SS_LOCAL_ONESWEEP,
                         "auto: step 7's sort for keys, CUB's for pairs (G=%d)", G);
        }
    ss_config big = config(2, 1LL << 32, 0, 0, SS_LOCAL_AUTO);
    cr_assert_null(s->configure(&big));
    cr_assert_eq(big.local, SS_LOCAL_CUB, "2^32 keys on two GPUs: a buffer past step 7's 2^31 - 1 keys takes CUB's");
}

Test(sample_sort_step, bad_configurations_are_refused_without_a_gpu)
{
    static const struct {
        int G, K, S;
        double slack;
        const char *what;
    } bad[] = {{.G = 2, .K = 600, .S = 8192, .slack = 0.1, .what = "ranks x chunks above 1024"},
               {.G = 0, .K = 1, .S = 8192, .slack = 0.1, .what = "no rank"},
               {.G = 2, .K = 4, .S = 0, .slack = 0.1, .what = "an empty sample"},
               {.G = 2, .K = 4, .S = 1 << 17, .slack = 0.1, .what = "a sample above 65536"},
               {.G = 2, .K = 4, .S = 8192, .slack = -0.1, .what = "negative slack"},
               {.G = 2, .K = 4, .S = 8192, .slack = 1.5, .what = "slack above 1"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ss_config c = config(bad[i].G, 1000, bad[i].K, 1, SS_LOCAL_CUB);
        c.S = bad[i].S, c.slack = bad[i].slack;
        cr_assert_not_null(STEP->configure(&c), "%s must be refused", bad[i].what);
    }
    ss_config c = config(1, -1, 1, 1, SS_LOCAL_CUB);
    cr_assert_not_null(STEP->configure(&c), "a negative N must be refused");
    c = config(2, 1LL << 32, 2, 0, SS_LOCAL_ONESWEEP);
    cr_assert_not_null(STEP->configure(&c), "step 7's sort of a buffer above 2^31 - 1 keys must be refused");
    c = config(2, 1000, 0, 0, SS_LOCAL_AUTO);
    c.timeout_s = -1;
    cr_assert_not_null(STEP->configure(&c), "a negative watchdog limit must be refused");
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
    cr_assert(top > N * 45 / 100 && top < N * 55 / 100, "zipf: the heaviest key is %lld of %lld", (long long)top,
              (long long)N);
    cr_assert_eq(gen_dist_of("zipf"), GEN_ZIPF);
    cr_assert_eq(gen_dist_of("zip"), -1);
}

/* ---- ./run, beside this suite in build/<step>/ --------------------------------- */

Test(sample_sort_run, bad_options_are_exit_2_before_the_gpu_is_looked_for)
{
    const char *run = lab_test_need_run();
    static const char *const bad[] = {"--chunks 0",    "--chunks",
                                      "--chunks 1025", "--gpus 0",
                                      "--dist nope",   "--local quick",
                                      "--block 256",   "-n 2^41",
                                      "--tile 1024",   "--ranks 0",
                                      "--ranks 65",    "--ranks 2 --gpus 2",
                                      "--timeout 0",   "--exchange ce",
                                      "--exchange",    "--gpus abc",
                                      "--fine 4",      "--splitters median",
                                      "--split hash",  "--first 0",
                                      "--first 101",   "--gpus 2 --chunks 600 -n 1000"};
    char cmd[4600], out[4096];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "CUDA_VISIBLE_DEVICES= %s %s 2>&1", run, bad[i]);
        const int rc = lab_test_command(cmd, out, sizeof out);
        cr_assert_eq(rc, LAB_EXIT_USAGE, "./run %s: exit %d, expected 2 (a bad option), said: %s", bad[i], rc, out);
    }
    static const char *const ideas[] = {"--splitters sample", "--split table", "--exchange copy", "--first 30"};
    for (size_t i = 0; i < sizeof ideas / sizeof ideas[0]; i++) { /* step 10's options: only a step that takes them */
        snprintf(cmd, sizeof cmd, "CUDA_VISIBLE_DEVICES= %s %s -n 1000 2>&1", run, ideas[i]);
        const int rc = lab_test_command(cmd, out, sizeof out), taken = STEP->takes != 0;
        cr_assert(taken ? rc == LAB_EXIT_NOGPU : rc == LAB_EXIT_USAGE,
                  "./run %s on a step that %s it: exit %d, said: %s", ideas[i], taken ? "takes" : "does not take", rc,
                  out);
    }
}

/* ---- GPU tests: G ranks on GPU 0, driven from this process ----------------------- */

/* GPU 0's communicator of one rank, made once per test process (G = 1 runs over NCCL as
 * ./run --gpus 1 does; G > 1 ranks share the GPU and exchange by device copies). */
static ncclComm_t gpu0_comm(void)
{
    static ncclComm_t comm = NULL;
    int dev = 0;
    if (comm == NULL)
        NCCL_CHECK(ncclCommInitAll(&comm, 1, &dev));
    return comm;
}

typedef struct {
    int G, K, with_values, dist;
    int64_t N;
    ss_local local;
    uint64_t seed;
    const char *splitters, *split, *exchange; /* the policy's choices, where the step takes them (NULL: auto) */
    int first;
} sort_case;

/* G ranks on GPU 0, as ./run --ranks G (or --gpus 1) drives them: sort a
 * fresh input and run every check (the ones that scale, and the CPU's). */
static void sort_and_check(sort_case k)
{
    ss_config c = config(k.G, k.N, k.K, k.with_values, k.local);
    c.asked = (ss_asked){.splitters = k.splitters ? k.splitters : "auto",
                         .split = k.split ? k.split : "auto",
                         .exchange = k.exchange ? k.exchange : "auto",
                         .first = k.first};
    char name[320], policy[200] = "";
    int at = snprintf(name, sizeof name, "ranks=%d N=%lld dist=%s %s chunks=%d local=%s seed=%llu", k.G, (long long)k.N,
                      gen_dist_name(k.dist), k.with_values ? "pairs" : "keys", k.K, ss_local_names()[k.local],
                      (unsigned long long)k.seed);
    if (STEP->takes != 0)
        snprintf(name + at, sizeof name - (size_t)at, " asked: splitters=%s split=%s exchange=%s first=%d",
                 c.asked.splitters, c.asked.split, c.asked.exchange, k.first);
    const char *why = STEP->configure(&c);
    cr_assert_null(why, "%s: refused: %s", name, why);
    ss_place *place = (ss_place *)calloc((size_t)k.G, sizeof(ss_place));
    for (int i = 0; i < k.G; i++)
        place[i] = (ss_place){.rank = i, .device = 0, .comm = k.G == 1 ? gpu0_comm() : NULL};
    ss_run *run = STEP->open(&c, place, k.G, &why);
    cr_assert_null(why, "%s: setup: %s", name, why);
    STEP->fresh(run, k.dist, k.seed);
    ss_times t;
    why = STEP->sort(run, &t);
    if (STEP->describe != NULL)
        STEP->describe(run, policy, sizeof policy);
    cr_assert_null(why, "%s (ran:%s): %s%s", name, policy, why, lab_todo_note());
    ss_shape shape;
    const int fails = STEP->check(run, k.dist, k.seed, 1, 0, &shape);
    cr_assert_eq(fails, 0, "%s (ran:%s): %d checks failed (the lines above say which)%s", name, policy, fails,
                 lab_todo_note());
    STEP->close(run);
    free(place);
}

GPU_TEST(sample_sort_gpu, ranks_on_one_gpu_every_distribution_and_size)
{
    static const int64_t sizes[] = {0, 1, 1000, (1 << 20) + 3};
    static const int ranks[] = {2, 3, 4, 8};
    for (int dist = 0; dist < GEN_COUNT; dist++)
        for (int z = 0; z < 4; z++)
            for (int pairs = 0; pairs < 2; pairs++)
                sort_and_check((sort_case){.G = ranks[(dist + z) % 4],
                                           .K = 4,
                                           .with_values = pairs,
                                           .dist = dist,
                                           .N = sizes[z],
                                           .local = SS_LOCAL_ONESWEEP,
                                           .seed = lab_test_seed(dist + z)});
}

GPU_TEST(sample_sort_gpu, ranks_and_chunks_in_turn)
{
    static const int ks[] = {1, 3, 5};
    for (int k = 0; k < 3; k++)
        for (int dist = 0; dist < GEN_COUNT; dist++)
            sort_and_check((sort_case){.G = 2 + (k + dist) % 3,
                                       .K = ks[k],
                                       .with_values = (k + dist) % 2,
                                       .dist = dist,
                                       .N = (1 << 20) + 77 * dist,
                                       .local = SS_LOCAL_ONESWEEP,
                                       .seed = lab_test_seed(k + dist),
                                       .first = 25 + 25 * k});
}

GPU_TEST(sample_sort_gpu, cub_local_sort_and_one_rank)
{
    for (int dist = 0; dist < GEN_COUNT; dist++) {
        sort_and_check((sort_case){.G = 3,
                                   .K = 2,
                                   .with_values = dist % 2,
                                   .dist = dist,
                                   .N = 3 << 19,
                                   .local = SS_LOCAL_CUB,
                                   .seed = lab_test_seed(dist)});
        sort_and_check((sort_case){.G = 1,
                                   .K = 1 + 3 * (dist % 2),
                                   .with_values = 1 - dist % 2,
                                   .dist = dist,
                                   .N = (1 << 20) + 5,
                                   .local = dist < 3 ? SS_LOCAL_ONESWEEP : SS_LOCAL_CUB,
                                   .seed = lab_test_seed(dist)});
    }
}

/* Up to 8 buckets (two and four GPUs' default): step 10 counts and splits them
 * in registers (3 splitters held up to 4 buckets, 7 up to 8), step 9 in its
 * tables; tiles cut short at a block's end and the share's, ties on the
 * splitters, the splitters from bins and from the sample. */
GPU_TEST(sample_sort_gpu, few_buckets)
{
    static const int ranks[] = {2, 3, 4, 2, 4, 5}, chunks[] = {2, 1, 1, 3, 2, 1}; /* 4, 3, 4, 6, 8, 5 buckets */
    for (int dist = 0; dist < GEN_COUNT; dist++)
        for (int pairs = 0; pairs < 2; pairs++)
            sort_and_check((sort_case){.G = ranks[(dist + 3 * pairs) % 6],
                                       .K = chunks[(dist + 3 * pairs) % 6],
                                       .with_values = pairs,
                                       .splitters = pairs ? "sample" : "auto", /* the count in registers too */
                                       .dist = dist,
                                       .N = (3 << 20) + 4096 * dist + 77 * pairs + 1,
                                       .local = SS_LOCAL_CUB,
                                       .seed = lab_test_seed(dist + pairs),
                                       .first = 30 + 20 * pairs});
}

GPU_TEST(sample_sort_gpu, ties_and_skew_at_2_pow_24_on_four_ranks)
{
    static const int dists[] = {GEN_EQUAL, GEN_FEW, GEN_ZIPF, GEN_UNIFORM};
    for (int d = 0; d < 4; d++)
        sort_and_check((sort_case){.G = 4,
                                   .K = 2 + 2 * (d % 2),
                                   .with_values = 1,
                                   .dist = dists[d],
                                   .N = (1 << 24) + 3,
                                   .local = SS_LOCAL_ONESWEEP,
                                   .seed = lab_test_seed(d)});
}

/* Every choice of a step's policy (step 10's options), on two and four ranks:
 * the splitters from the sample or bins, the split in tables or registers,
 * the exchange by device copies, by a stream a piece, or round 0 direct. A
 * step with no policy (step 9) runs its one path on the same inputs. */
GPU_TEST(sample_sort_gpu, every_choice_of_the_policy)
{
    static const char *const splitters[] = {"sample", "bins"}, *const splits[] = {"table", "held"};
    static const char *const exchanges[] = {"link", "copy", "direct"};
    int n = 0;
    for (int w = 0; w < 2; w++)
        for (int p = 0; p < 2; p++)
            for (int e = 0; e < 3; e++, n++)
                sort_and_check((sort_case){.G = 2 + 2 * (n % 2),
                                           .K = 2,
                                           .with_values = n % 3 == 0,
                                           .dist = (n * 5) % GEN_COUNT,
                                           .N = (1 << 21) + 4093 * n,
                                           .local = SS_LOCAL_AUTO,
                                           .seed = lab_test_seed(n),
                                           .splitters = splitters[w],
                                           .split = splits[p],
                                           .exchange = exchanges[e],
                                           .first = n % 2 ? 0 : 20});
}

#include "sample_sort_forms.h" /* GPU tests: ./run in every launch form, between processes too */
