/* step9-sample-sort.c - step 9's own tests of the partition plan on the CPU
 * (plan.h), for 1 to 64 simulated ranks and every input distribution: the
 * largest bucket stays within 1.05 N/G, the splitters rise, the cut matches a
 * linear count, one sample key per stratum, the shares cover the input, the
 * buffers hold a share with slack, and a bucket larger than its buffer and
 * bad parameters are refused. The layouts, the exchange's messages (a receive
 * count taken from the wrong side is caught before anything is sent) and the
 * whole algorithm played on the CPU against the stable global sort, pairs
 * included, are in tests/ch13-sort/step9-sample-sort_pipeline.c; the
 * simulated run both use is tests/ch13-sort/plan_sim.h. Seeds are fixed and
 * printed in every message. No GPU needed: CI runs them. (Step 10 uses step
 * 9's plan and exchange; its own tests are step10-sample-sort-tuned.c.) */
#include "plan_sim.h"

/* The splitters in order, every key in a bucket, and the largest bucket against N/G. */
static void check_balance(const sim *s)
{
    for (int t = 1; t + 1 < s->p.B; t++) {
        const int rising = s->p.split_key[t - 1] < s->p.split_key[t] ||
                           (s->p.split_key[t - 1] == s->p.split_key[t] && s->p.split_pos[t - 1] <= s->p.split_pos[t]);
        cr_assert(rising, "%s: splitters %d and %d out of order%s", s->name, t - 1, t, lab_todo_note());
    }
    int64_t total = 0;
    for (int d = 0; d < s->G; d++)
        total += plan_received(&s->p, d);
    cr_assert_eq(total, s->N, "%s: the buckets hold %lld keys, not N", s->name, (long long)total);
    int at = -1;
    const int64_t largest = plan_largest(&s->p, &at);
    const double ideal = (double)s->N / s->G;
    cr_assert(largest <= 1.05 * ideal || largest <= 1,
              "%s: rank %d's bucket holds %lld keys = %.4f N/G (the limit is 1.05)%s", s->name, at, (long long)largest,
              largest / ideal, lab_todo_note());
}

Test(plan, largest_bucket_within_5_percent_every_distribution_1_to_64_ranks)
{
    for (int dist = 0; dist < GEN_COUNT; dist++)
        for (int g = 0; g < NRANKS; g++) {
            sim s;
            plan_run(&s, rank_counts[g], (1 << 19) + 12345, dist, lab_test_seeds[g % LAB_TEST_NSEEDS] + (uint64_t)g,
                     plan_default_chunks(rank_counts[g]), SAMPLE);
            check_balance(&s);
            plan_free(&s.p);
        }
}

Test(plan, every_rank_count_from_1_to_64)
{
    for (int G = 1; G <= 64; G++) { /* each G with one distribution, in turn */
        sim s;
        plan_run(&s, G, 300007, G % GEN_COUNT, 4242 + (uint64_t)G, plan_default_chunks(G), SAMPLE);
        check_balance(&s);
        plan_free(&s.p);
    }
}

Test(plan, the_cut_matches_a_linear_count)
{
    unsigned int sk[64];
    uint64_t sp[64];
    uint64_t x = lab_test_seeds[0];
    for (int trial = 0; trial < 200; trial++) {
        const int ns = trial % 64;
        unsigned int k = 1;
        uint64_t p = 0;
        for (int t = 0; t < ns; t++) { /* rising items with many equal keys */
            x = gen_mix64(x);
            if (x % 3 == 0)
                k += 1 + (unsigned int)(x >> 61), p = x >> 50; /* a larger key: any position */
            else
                p += 1 + (x >> 58);
            sk[t] = k, sp[t] = p;
        }
        for (int q = 0; q < 200; q++) {
            x = gen_mix64(x);
            const unsigned int key = 1 + (unsigned int)(x % (k + 2));
            const uint64_t pos = (x >> 20) % (p + 3);
            int want = 0;
            for (int t = 0; t < ns; t++)
                want += sk[t] < key || (sk[t] == key && sp[t] <= pos);
            cr_assert_eq(
                plan_bucket_of(key, pos, sk, sp, ns), want,
                "plan_bucket_of: item (%u, %llu) among %d splitters (trial %d, seed %llu): %d splitters are <= it%s",
                key, (unsigned long long)pos, ns, trial, (unsigned long long)lab_test_seeds[0], want, lab_todo_note());
        }
    }
}

Test(plan, sample_positions_one_per_stratum)
{
    static const int64_t sizes[] = {0, 1, 5, 8191, 8192, 8193, 100000, 1LL << 33};
    int64_t *pos = (int64_t *)lab_xmalloc(sizeof(int64_t) * SAMPLE);
    for (int i = 0; i < (int)(sizeof sizes / sizeof sizes[0]); i++) {
        const int64_t n = sizes[i];
        const int used = plan_sample_positions(n, SAMPLE, pos);
        cr_assert_eq(used, n < SAMPLE ? (int)n : SAMPLE, "n=%lld", (long long)n);
        for (int t = 0; t < used; t++) {
            const int64_t lo = n <= SAMPLE ? t : (int64_t)((unsigned __int128)t * n / SAMPLE);
            const int64_t hi = n <= SAMPLE ? t + 1 : (int64_t)((unsigned __int128)(t + 1) * n / SAMPLE);
            cr_assert(pos[t] >= lo && pos[t] < hi, "n=%lld: sample %d at %lld, outside its stratum [%lld, %lld)",
                      (long long)n, t, (long long)pos[t], (long long)lo, (long long)hi);
        }
    }
    free(pos);
}

Test(plan, shares_cover_the_input)
{
    static const int64_t sizes[] = {0, 1, 63, 64, 65, 1000, (1LL << 33) + 5};
    for (int i = 0; i < (int)(sizeof sizes / sizeof sizes[0]); i++)
        for (int G = 1; G <= 64; G++) {
            cr_assert_eq(plan_share_start(sizes[i], G, 0), 0);
            cr_assert_eq(plan_share_start(sizes[i], G, G), sizes[i]);
            for (int r = 0; r < G; r++) {
                const int64_t n = plan_share_start(sizes[i], G, r + 1) - plan_share_start(sizes[i], G, r);
                cr_assert(n == sizes[i] / G || n == sizes[i] / G + 1, "N=%lld G=%d rank %d: %lld keys",
                          (long long)sizes[i], G, r, (long long)n);
            }
        }
}

Test(plan, layout_refuses_a_bucket_larger_than_its_buffer)
{
    sim s;
    plan_run(&s, 4, 100000, GEN_UNIFORM, 5, 4, SAMPLE);
    ss_layout L;
    const int64_t largest = plan_largest(&s.p, NULL);
    int refused = 0;
    for (int r = 0; r < 4; r++)
        refused |= plan_layout(&s.p, r, largest, largest - 1, &L) != NULL;
    cr_assert(refused, "%s: a buffer one key short of the largest bucket was accepted", s.name);
    cr_assert_not_null(plan_layout(&s.p, 0, 100, 100000, &L), "a share larger than the partition buffer was accepted");
    plan_free(&s.p);
}

Test(plan, init_refuses_bad_parameters)
{
    ss_plan p;
    cr_assert_not_null(plan_init(&p, -1, 2, 4, 1024, 0.5));
    cr_assert_not_null(plan_init(&p, 10, 0, 4, 1024, 0.5));
    cr_assert_not_null(plan_init(&p, 10, 2000, 1, 1024, 0.5));
    cr_assert_not_null(plan_init(&p, 10, 512, 4, 1024, 0.5), "more than 1024 buckets");
    cr_assert_not_null(plan_init(&p, 10, 2, 0, 1024, 0.5));
    cr_assert_not_null(plan_init(&p, 10, 2, 4, 0, 0.5));
    cr_assert_not_null(plan_init(&p, 10, 2, 4, 1 << 20, 0.5));
    cr_assert_not_null(plan_init(&p, 10, 2, 4, 1024, 0.0));
    cr_assert_not_null(plan_init(&p, 10, 2, 4, 1024, 1.5));
    cr_assert_null(plan_init(&p, 10, 1024, 1, 1024, 1.0));
    plan_free(&p);
    for (int G = 1; G <= PLAN_MAX_RANKS; G++) {
        const int K = plan_default_chunks(G);
        cr_assert(G * K <= PLAN_MAX_BUCKETS && K >= 1 && (G == 1 || K == 2 || G * (K + 1) > PLAN_MAX_BUCKETS),
                  "G=%d: %d chunks", G, K);
    }
}

Test(plan, buffers_hold_a_share_with_slack)
{
    static const int64_t sizes[] = {0, 1, 1000, (1 << 20) + 3, 1LL << 30, (1LL << 33) + 5};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int G = 1; G <= 64; G *= 4)
            for (int K = 1; K <= 8; K += 3)
                for (int r = 0; r < G; r++) {
                    const int64_t N = sizes[z], n = plan_share_start(N, G, r + 1) - plan_share_start(N, G, r);
                    const int64_t cap = plan_capacity(N, G, K, 0.1, r);
                    if (G == 1 && K == 1) /* one rank's one chunk is its share: no slack to pay for */
                        cr_assert(cap == n, "N=%lld G=1: room for exactly its %lld keys, not %lld", (long long)N,
                                  (long long)n, (long long)cap);
                    else
                        cr_assert(cap >= n && cap >= (int64_t)(1.1 * (double)N / G),
                                  "N=%lld G=%d rank %d: room for %lld keys", (long long)N, G, r, (long long)cap);
                    cr_assert(cap <= (int64_t)(1.1 * (double)N / G) + 2, "N=%lld G=%d: at most (1 + slack) N/G keys",
                              (long long)N, G);
                }
}
