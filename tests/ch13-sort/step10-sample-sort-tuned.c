/* step10-sample-sort-tuned.c - step 10's own tests. On the CPU: the
 * splitters at bin edges (bins.c), the policy's choices (policy.c), the
 * offsets of round 0 written straight into its receivers (peers.c), for
 * simulated ranks, and the split by the top byte's plan (digit.c:
 * tests/ch13-sort/digit_tests.h). On a GPU: ./run with that split, and with
 * the older splits it replaced as the default, for ranks sharing GPU 0 (each
 * skipped with its reason without a GPU or ./run). The sort itself, with
 * every choice of the policy, is the suite's (tests/ch13-sort/sample_sort.c),
 * and step 9's plan and exchange, which step 10 uses, are tested with step 9.
 * The CPU tests need no GPU: CI runs them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "lab_test.h"
#include "tuned.h"

/* The bins' way (plan_bin_splitters): from every rank's exact keys per bin,
 * uniform and rising keys split on bin edges within 0.5 % of N/G of each
 * boundary, every key's bucket by the cut (plan_bucket_of) is the one its bin
 * lies in, and each rank's counts are exact; one key N times fills one bin:
 * refused, the sample decides (eight keys and the Zipf skew: either, checked
 * the same way when accepted). */
Test(bins, splitters_sit_on_bin_edges_and_count_exactly)
{
    static const int ranks[] = {1, 2, 3, 4, 8};
    for (int dist = 0; dist < GEN_COUNT; dist++)
        for (int q = 0; q < 5; q++) {
            const int G = ranks[q], K = 2;
            const int64_t N = (1 << 20) + 4097 * q + dist;
            const uint64_t seed = lab_test_seeds[(dist + q) % LAB_TEST_NSEEDS];
            char name[160];
            snprintf(name, sizeof name, "G=%d N=%lld dist=%s seed=%llu chunks=%d", G, (long long)N, gen_dist_name(dist),
                     (unsigned long long)seed, K);
            ss_plan p;
            cr_assert_null(plan_init(&p, N, G, K, 4096, 0.5));
            unsigned int *bins = (unsigned int *)calloc((size_t)G * PLAN_BINS, sizeof(unsigned int));
            for (int r = 0; r < G; r++)
                for (int64_t g = plan_share_start(N, G, r); g < plan_share_start(N, G, r + 1); g++)
                    bins[(size_t)r * PLAN_BINS + plan_bin_of(gen_key(dist, seed, (uint64_t)g, (uint64_t)N))]++;
            int first[PLAN_MAX_BUCKETS + 1];
            const int even = plan_bin_splitters(&p, bins, 0.005, first);
            const int spread = dist == GEN_UNIFORM || dist == GEN_SORTED || dist == GEN_REVERSE;
            if (spread)
                cr_assert(even, "%s: refused, but the keys spread over every bin%s", name, lab_todo_note());
            if (dist == GEN_EQUAL)
                cr_assert(!even, "%s: accepted, but every key is in one bin%s", name, lab_todo_note());
            for (int r = 0; r < G && even; r++) {
                int64_t got[PLAN_MAX_BUCKETS] = {0};
                for (int64_t g = plan_share_start(N, G, r); g < plan_share_start(N, G, r + 1); g++) {
                    const unsigned int key = gen_key(dist, seed, (uint64_t)g, (uint64_t)N), bin = plan_bin_of(key);
                    const int b = plan_bucket_of(key, (uint64_t)g, p.split_key, p.split_pos, p.B - 1);
                    cr_assert((int)bin >= first[b] && (int)bin < first[b + 1],
                              "%s: key %u (bin %u) cut into bucket %d, whose bins are [%d, %d)%s", name, key, bin, b,
                              first[b], first[b + 1], lab_todo_note());
                    got[b]++;
                }
                for (int b = 0; b < p.B; b++)
                    cr_assert_eq((int64_t)p.counts[(size_t)r * p.B + b], got[b],
                                 "%s: rank %d's count of bucket %d is %llu, its keys there %lld%s", name, r, b,
                                 (unsigned long long)p.counts[(size_t)r * p.B + b], (long long)got[b], lab_todo_note());
            }
            for (int d = 0; d < G && even; d++) {
                const double want = (double)N / G, off = fabs((double)plan_received(&p, d) - want);
                cr_assert(off <= 2 * 0.005 * want + 1, "%s: rank %d receives %lld keys, N/G = %.0f%s", name, d,
                          (long long)plan_received(&p, d), want, lab_todo_note());
            }
            free(bins);
            plan_free(&p);
        }
}

/* A configuration of G ranks, K chunks, keys or pairs, as ./run makes it. */
static ss_config config(int G, int K, int pairs, const char *splitters, const char *split, const char *exchange,
                        int first)
{
    ss_config c = sample_sort_step_info.defaults;
    c.G = G, c.K = K, c.N = 1 << 24, c.with_values = pairs, c.link = SS_LINK_NCCL;
    c.asked = (ss_asked){.splitters = splitters, .split = split, .exchange = exchange, .first = first};
    return c;
}

Test(policy, auto_takes_the_fastest_measured)
{
    static const struct {
        int G, K, pairs, nlocal, peers;
        int bins, held;
        ss_exchange exchange;
        double first;
        int digit; /* the split by the top byte: wherever the bins' splitters apply */
    } want[] = {{2, 4, 0, 2, 1, 1, 7, SS_EXCHANGE_DIRECT, 0.5, 1}, /* two GPUs, keys: the default of the ablation */
                {2, 2, 1, 2, 1, 1, 3, SS_EXCHANGE_DIRECT, 0.3, 1}, /* pairs: two chunks, a smaller first */
                {2, 2, 0, 2, 1, 1, 3, SS_EXCHANGE_DIRECT, 0.5, 1}, /* --chunks 2: 4 buckets, 3 held splitters */
                {4, 2, 0, 4, 1, 1, 7, SS_EXCHANGE_DIRECT, 0.75, 1},   {4, 2, 1, 4, 1, 1, 7, SS_EXCHANGE_DIRECT, 1.0, 1},
                {8, 2, 0, 8, 1, 1, 0, SS_EXCHANGE_DIRECT, 0.75, 1},   /* 16 buckets: step 9's tables held no more */
                {32, 2, 0, 32, 1, 1, 0, SS_EXCHANGE_DIRECT, 0.75, 1}, /* 64 buckets: the most the bins serve */
                {64, 2, 0, 64, 1, 0, 0, SS_EXCHANGE_DIRECT, 0.75, 0}, /* 128 buckets: the sample's splitters */
                {2, 4, 0, 1, 1, 1, 7, SS_EXCHANGE_LINK, 0.5, 1},      /* mpirun across nodes: NCCL */
                {2, 4, 0, 2, 0, 1, 7, SS_EXCHANGE_LINK, 0.5, 1},      /* GPUs that do not reach each other */
                {1, 1, 0, 1, 1, 0, 3, SS_EXCHANGE_LINK, 0.5, 0}};     /* one GPU: one bucket, nothing to split */
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const ss_config c = config(want[i].G, want[i].K, want[i].pairs, "auto", "auto", "auto", 0);
        const ss_policy p = policy_choose(&c, want[i].nlocal, want[i].peers);
        cr_assert(p.bins == want[i].bins && p.held == want[i].held && p.exchange == want[i].exchange &&
                      fabs(p.first - want[i].first) < 1e-9 && p.digit == want[i].digit,
                  "G=%d K=%d %s, %d ranks here, peers %d: bins %d held %d exchange %d first %.2f digit %d; expected %d "
                  "%d %d %.2f %d",
                  want[i].G, want[i].K, want[i].pairs ? "pairs" : "keys", want[i].nlocal, want[i].peers, p.bins, p.held,
                  (int)p.exchange, p.first, p.digit, want[i].bins, want[i].held, (int)want[i].exchange, want[i].first,
                  want[i].digit);
    }
    /* mpirun on one node (c.node): the processes joined by CUDA IPC take the copy engines, if their GPUs reach */
    static const ss_node node = {NULL, NULL};
    ss_config c = config(2, 2, 0, "auto", "auto", "auto", 0);
    c.node = &node;
    cr_assert_eq(policy_choose(&c, 1, 1).exchange, SS_EXCHANGE_DIRECT, "mpirun on one node, GPUs that reach: direct");
    cr_assert(fabs(policy_choose(&c, 1, 1).first - 0.6) < 1e-9 && fabs(policy_choose(&c, 1, 0).first - 0.5) < 1e-9,
              "two processes joined by CUDA IPC: a first chunk of 60 %% (NCCL's: 50 %%)");
    c.with_values = 1;
    cr_assert(fabs(policy_choose(&c, 1, 1).first - 0.6) < 1e-9, "pairs, two processes joined: 60 %%");
    c.with_values = 0, c.G = 4;
    cr_assert(fabs(policy_choose(&c, 1, 1).first - 0.75) < 1e-9, "four processes joined keep 75 %%");
    c.G = 2;
    cr_assert_eq(policy_choose(&c, 1, 0).exchange, SS_EXCHANGE_LINK, "mpirun on one node, GPUs that do not: NCCL");
    c.asked.exchange = "link";
    cr_assert_eq(policy_choose(&c, 1, 1).exchange, SS_EXCHANGE_LINK, "--exchange link under mpirun: NCCL");
}

/* The split by the top byte: on wherever the bins' splitters apply (each
 * sort then checks its chunks fit: digit_fits), off where another split or
 * the sample is asked; printed as split=digit; refused where it cannot run. */
Test(policy, the_split_by_the_top_byte_where_the_bins_apply)
{
    static const struct {
        const char *splitters, *split;
        int64_t N;
        int digit;
        const char *why;
    } want[] = {{"auto", "auto", 1 << 24, 1, "the default"},
                {"bins", "digit", 1 << 24, 1, "asked"},
                {"auto", "held", 1 << 24, 0, "--split held asked"},
                {"auto", "table", 1 << 24, 0, "--split table asked"},
                {"sample", "auto", 1 << 24, 0, "the sample's splitters lie on no top-byte edge"},
                {"auto", "auto", 1LL << 31, 1, "2^31 keys on two: 1.1 x 2^30 keys a buffer"},
                {"auto", "auto", 1LL << 32, 1, "2^32 keys on two: a buffer past 2^31 - 1 keys, its chunks not"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ss_config c = config(2, 2, 0, want[i].splitters, want[i].split, "auto", 0);
        c.N = want[i].N;
        const ss_policy p = policy_choose(&c, 2, 1);
        cr_assert_eq(p.digit, want[i].digit, "splitters=%s split=%s N=%lld (%s): digit %d, expected %d",
                     want[i].splitters, want[i].split, (long long)want[i].N, want[i].why, p.digit, want[i].digit);
    }
    ss_config c = config(2, 2, 0, "auto", "auto", "auto", 0);
    ss_policy p = policy_choose(&c, 2, 1);
    char text[200];
    policy_text(&p, &c, text, sizeof text);
    cr_assert_str_eq(text, " splitters=bins split=digit exchange=direct first=50", "two GPUs, keys: the default");
    cr_assert(!policy_asked_split(&c), "auto asks for no other split");
    c.asked.split = "digit";
    cr_assert(!policy_asked_split(&c), "--split digit is the top byte's split: four GPUs take three chunks");
    c.asked.split = "held";
    cr_assert(policy_asked_split(&c), "--split held is another split: four GPUs keep two chunks");
    static const struct {
        int G;
        const char *splitters, *split;
        int pairs, K;
    } chunks[] = {
        {4, "auto", "auto", 0, 3},   {8, "auto", "digit", 0, 3}, {2, "auto", "auto", 0, 4},
        {2, "auto", "digit", 0, 4},  {2, "auto", "auto", 1, 0},  {2, "auto", "held", 0, 0},
        {2, "sample", "auto", 0, 0}, {3, "auto", "auto", 0, 0},  {4, "auto", "held", 0, 0},
        {4, "sample", "auto", 0, 0}, {4, "auto", "auto", 1, 3},  {32, "auto", "auto", 0, 0}}; /* 32 x 3: past 64 */
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        c = config(chunks[i].G, 0, chunks[i].pairs, chunks[i].splitters, chunks[i].split, "auto", 0);
        cr_assert_eq(policy_chunks(&c), chunks[i].K, "G=%d %s splitters=%s split=%s: %d chunks, expected %d",
                     chunks[i].G, chunks[i].pairs ? "pairs" : "keys", chunks[i].splitters, chunks[i].split,
                     policy_chunks(&c), chunks[i].K);
    }
    c = config(2, 2, 0, "sample", "digit", "auto", 0);
    cr_assert_not_null(policy_check(&c), "--split digit needs the bins' splitters, not the sample's");
    c = config(33, 2, 0, "auto", "digit", "auto", 0);
    cr_assert_not_null(policy_check(&c), "--split digit on 66 buckets: more than the bins serve");
    c = config(32, 2, 0, "auto", "digit", "auto", 0);
    cr_assert_null(policy_check(&c), "--split digit on 64 buckets: the bins serve them");
}

Test(policy, what_is_asked_runs_and_is_printed)
{
    ss_config c = config(2, 2, 0, "sample", "table", "copy", 50);
    ss_policy p = policy_choose(&c, 2, 1);
    cr_assert(!p.bins && p.held == 0 && p.exchange == SS_EXCHANGE_COPY && fabs(p.first - 0.5) < 1e-9);
    char text[200];
    policy_text(&p, &c, text, sizeof text);
    cr_assert_str_eq(text, " splitters=sample split=table exchange=copy first=50");
    c = config(4, 2, 1, "bins", "held", "link", 0);
    p = policy_choose(&c, 4, 1);
    policy_text(&p, &c, text, sizeof text);
    cr_assert_str_eq(text, " splitters=bins split=held7 exchange=nccl first=100");
    c.link = SS_LINK_COPIES;
    policy_text(&p, &c, text, sizeof text);
    cr_assert_str_eq(text, " splitters=bins split=held7 exchange=device first=100", "--ranks: step 9's device copies");
    c = config(2, 4, 0, "auto", "held", "auto", 0);
    cr_assert_null(policy_check(&c), "8 buckets: the split in registers holds them");
    c = config(2, 5, 0, "auto", "held", "auto", 0);
    cr_assert_not_null(policy_check(&c), "10 buckets are more than 7 held splitters cut");
    c = config(64, 2, 0, "bins", "auto", "auto", 0);
    cr_assert_not_null(policy_check(&c), "128 buckets are more than the bins serve");
    c = config(64, 2, 0, "auto", "auto", "auto", 0);
    cr_assert_null(policy_check(&c), "auto never asks for what cannot run");
}

/* Ranks whose part buffers sit at made-up addresses: only their differences matter. */
static void fake_ranks(ss_rank *R, ss_layout *L, const ss_plan *p, int64_t cap, int stride)
{
    for (int r = 0; r < p->G; r++) {
        memset(&R[r], 0, sizeof R[r]);
        R[r].rank = r, R[r].cap = cap, R[r].layout = &L[r];
        R[r].part_k = (unsigned int *)(uintptr_t)(0x10000000u + (uintptr_t)r * stride * sizeof(unsigned int));
        cr_assert_null(plan_layout(p, r, cap, cap, &L[r]));
    }
}

/* Round 0 direct: bucket (d, 0) of rank i lands, from rank i's own part, at
 * rank d's part + its recv offset for rank i; every other bucket where rank
 * i's layout says; and the chunk must fit the front of part its own scatter
 * leaves alone. */
Test(direct, round_0_lands_in_its_receivers_part)
{
    for (int G = 2; G <= 5; G++) {
        ss_plan p;
        const int K = 2;
        const int64_t N = 100000 + 7 * G, cap = plan_capacity(N, G, K, 0.1, 0);
        cr_assert_null(plan_init(&p, N, G, K, 4096, 0.3));
        uint64_t *counts = (uint64_t *)calloc((size_t)G * G * K, sizeof(uint64_t));
        for (int r = 0; r < G; r++) /* each rank's share spread over the buckets, a little unevenly */
            for (int b = 0; b < G * K; b++)
                counts[(size_t)r * G * K + b] =
                    (uint64_t)((plan_share_start(N, G, r + 1) - plan_share_start(N, G, r)) / (G * K)) +
                    (b == G * K - 1 ? (uint64_t)((plan_share_start(N, G, r + 1) - plan_share_start(N, G, r)) % (G * K))
                                    : 0);
        plan_set_counts(&p, counts);
        ss_rank R[5];
        ss_layout L[5];
        fake_ranks(R, L, &p, cap, 3 * (int)cap + 1000);
        cr_assert(ss_direct_fits(R, G, &p), "G=%d: chunk 0 fits part's front on every rank", G);
        int64_t send_off[16];
        for (int i = 0; i < G; i++) {
            ss_direct_send_off(R, G, &p, i, send_off);
            for (int b = 0; b < G * K; b++) {
                const int d = b / K;
                const uintptr_t lands = (uintptr_t)(R[i].part_k + send_off[b]);
                const uintptr_t want = b % K == 0 ? (uintptr_t)(R[d].part_k + L[d].recv_off[i])
                                                  : (uintptr_t)(R[i].part_k + L[i].send_off[b]);
                cr_assert_eq(lands, want, "G=%d: rank %d's bucket %d lands %lld keys off%s", G, i, b,
                             (long long)(((intptr_t)lands - (intptr_t)want) / (intptr_t)sizeof(unsigned int)),
                             lab_todo_note());
            }
        }
        fake_ranks(R, L, &p, cap, 3 * (int)cap + 1000);
        R[1].cap = cap + 1;
        cr_assert(!ss_direct_fits(R, G, &p), "G=%d: two caps, two offsets for part_v: not direct", G);
        cr_assert(!ss_direct_fits(R, G - 1, &p), "G=%d: a rank in another process: not direct", G);
        free(counts);
        plan_free(&p);
    }
}

#include "digit_tests.h" /* CPU tests: the split by the top byte's plan (digit.c) */
#include "digit_edges_tests.h"

/* ---- GPU tests: ./run, beside this suite, with its ranks on GPU 0 ------------------ */

/* ./run with args must exit 0, print PASS and no FAIL, and name `ran` on a
 * result line (what the policy ran: a split that fell back proves nothing). */
static void expect_run_ran(const char *args, const char *ran)
{
    const char *run = lab_test_need_run();
    char cmd[4800], out[16384];
    snprintf(cmd, sizeof cmd, "NCCL_NVLS_ENABLE=0 %s %s 2>&1", run, args);
    const int rc = lab_test_command(cmd, out, sizeof out);
    cr_assert_eq(rc, 0, "%s: exit %d, expected 0; it said:\n%s", cmd, rc, out);
    cr_assert(strstr(out, "FAIL") == NULL && strstr(out, "PASS") != NULL, "%s: said:\n%s", cmd, out);
    cr_assert(strstr(out, ran) != NULL, "%s: no result line says %s; it said:\n%s", cmd, ran, out);
}

/* Odd sizes: a tile, a top byte's range and a chunk cut short everywhere. */
#define DIGIT_RUN_SIZES "-n 1000,14597,2^20+3 --dist all --reps 1"

/* The split by the top byte on 2, 3 and 4 ranks (2, 2 and 3 chunks), keys
 * and pairs, every distribution: uniform, sorted and reverse run it, the
 * bins refuse the others, which fall back. Every sort is checked element by
 * element against the CPU (values are input positions: stability too). */
GPU_TEST(digit_run, ranks_on_one_gpu_every_distribution_keys_and_pairs)
{
    char args[256];
    for (int G = 2; G <= 4; G++)
        for (int pairs = 0; pairs < 2; pairs++) {
            snprintf(args, sizeof args, "--ranks %d --split digit %s%s", G, DIGIT_RUN_SIZES,
                     pairs ? "" : " --keys-only");
            expect_run_ran(args, "split=digit");
        }
}

/* One chunk a rank and three, and round 0 by the copy engines; then ties:
 * with seed 77 the 8 keys of --dist few have a top-byte edge where two ranks
 * of one chunk split them, so the bins accept them and the split sorts ~N/8
 * copies of each key, whose values must stay in input order. */
GPU_TEST(digit_run, one_and_three_chunks_the_copy_engines_and_ties)
{
    static const char *const forms[] = {"--ranks 2 --chunks 1", "--ranks 3 --chunks 1", "--ranks 2 --chunks 3",
                                        "--ranks 3 --chunks 3", "--ranks 4 --exchange copy"};
    char args[320];
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++)
        for (int pairs = 0; pairs < 2; pairs++) {
            snprintf(args, sizeof args, "%s --split digit %s%s", forms[f], DIGIT_RUN_SIZES,
                     pairs ? "" : " --keys-only");
            expect_run_ran(args, strstr(forms[f], "copy") ? "split=digit exchange=copy" : "split=digit");
        }
    expect_run_ran("--ranks 2 --chunks 1 --split digit --dist few --seed 77 -n 14597,2^20+3 --reps 1", "split=digit");
}

/* The splits digit replaced as the default, on the keys it now takes
 * (uniform, sorted, reverse): held in registers (4 and 8 buckets) and step
 * 9's tables, which would otherwise run only on the keys the bins refuse. */
GPU_TEST(digit_run, the_older_splits_still_run_on_uniform_keys)
{
    expect_run_ran("--ranks 2 --split held " DIGIT_RUN_SIZES, "split=held3");
    expect_run_ran("--ranks 2 --split held " DIGIT_RUN_SIZES " --keys-only", "split=held3");
    expect_run_ran("--ranks 4 --split held " DIGIT_RUN_SIZES, "split=held7");
    expect_run_ran("--ranks 4 --split held " DIGIT_RUN_SIZES " --keys-only", "split=held7");
    expect_run_ran("--ranks 3 --split table " DIGIT_RUN_SIZES " --keys-only", "split=table");
}
