/* step9-sample-sort.c - step 9's own tests: the partition plan on the CPU
 * (plan.h) and the exchange's messages (exchange.c), for 1 to 64 simulated
 * ranks and every input distribution: the largest bucket stays within 1.05
 * N/G, the splitters rise, the counts, offsets and sort regions are
 * consistent, the ranks agree on every message (and a receive count taken
 * from the wrong side is caught before anything is sent), and the whole
 * algorithm played on the CPU (the scatter, the exchange by the messages, a
 * stable sort of each chunk) gives exactly the stable global sort, pairs
 * included. Seeds are fixed and printed in every message. No GPU needed: CI
 * runs them. (Step 10 uses step 9's plan and exchange; its own tests are step10-sample-sort-tuned.c.) */
#include <math.h>
#include <string.h>

#include "gen.h"
#include "lab_test.h"
#include "rank.h"
#include "sort_ref.h"

#define FIRST_WEIGHT 0.5
#define SAMPLE       8192

/* One simulated run: its inputs and what the plan made of them. */
typedef struct {
    int G, K, S, dist;
    int64_t N;
    uint64_t seed;
    ss_plan p;
    char name[160]; /* for messages */
} sim;

static int64_t share_start(const sim *s, int r)
{
    return plan_share_start(s->N, s->G, r);
}

/* The bucket of the key at global position g: the cut. */
static int bucket_of(const sim *s, unsigned int key, int64_t g)
{
    return plan_bucket_of(key, (uint64_t)g, s->p.split_key, s->p.split_pos, s->p.B - 1);
}

/* Every rank samples its share, the sample is "gathered", the splitters are
 * chosen, and every rank counts its keys per bucket (what the GPUs do). */
static void plan_run(sim *s, int G, int64_t N, int dist, uint64_t seed, int K, int S)
{
    s->G = G, s->N = N, s->dist = dist, s->seed = seed, s->K = K, s->S = S;
    snprintf(s->name, sizeof s->name, "G=%d N=%lld dist=%s seed=%llu chunks=%d sample=%d", G, (long long)N,
             gen_dist_name(dist), (unsigned long long)seed, K, S);
    const char *why = plan_init(&s->p, N, G, K, S, FIRST_WEIGHT);
    cr_assert_null(why, "%s: plan_init: %s", s->name, why);
    unsigned int *gathered = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)G * S);
    int64_t *pos = (int64_t *)lab_xmalloc(sizeof(int64_t) * (size_t)S);
    for (int r = 0; r < G; r++) {
        const int64_t start = share_start(s, r), n = share_start(s, r + 1) - start;
        const int used = plan_sample_positions(n, S, pos);
        for (int i = 0; i < S; i++) /* the unused ones hold junk: the plan must not read them */
            gathered[(size_t)r * S + i] =
                i < used ? gen_key(dist, seed, (uint64_t)(start + pos[i]), (uint64_t)N) : 0xDEADBEEFu;
    }
    plan_choose_splitters(&s->p, gathered);
    uint64_t *counts = (uint64_t *)calloc((size_t)G * s->p.B, sizeof(uint64_t));
    for (int r = 0; r < G; r++)
        for (int64_t g = share_start(s, r); g < share_start(s, r + 1); g++)
            counts[(size_t)r * s->p.B + bucket_of(s, gen_key(dist, seed, (uint64_t)g, (uint64_t)N), g)]++;
    plan_set_counts(&s->p, counts);
    free(counts), free(gathered), free(pos);
}

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

/* Marks [lo, hi) in cover[], failing on an overlap or a range outside [0, len). */
static void cover_range(const sim *s, unsigned char *cover, int64_t len, int64_t lo, int64_t hi, const char *what,
                        int r)
{
    cr_assert(lo >= 0 && lo <= hi && hi <= len, "%s: rank %d: %s [%lld, %lld) outside [0, %lld)", s->name, r, what,
              (long long)lo, (long long)hi, (long long)len);
    for (int64_t i = lo; i < hi; i++) {
        cr_assert(!cover[i], "%s: rank %d: %s overlaps another at %lld", s->name, r, what, (long long)i);
        cover[i] = 1;
    }
}

/* Rank r's layout: its regions disjoint and complete, and each chunk's place
 * in part free, every key in it sent, once its wait round is done. */
static void check_layout(const sim *s, const ss_layout *l, int r, int64_t cap)
{
    const int G = s->G, K = s->K, B = s->p.B;
    cr_assert_eq(l->n, share_start(s, r + 1) - share_start(s, r), "%s: rank %d's share", s->name, r);
    unsigned char *cover = (unsigned char *)calloc((size_t)cap + 1, 1);
    for (int b = 0; b < B; b++)
        cover_range(s, cover, cap, l->send_off[b], l->send_off[b] + plan_bucket_count(&s->p, r, b), "a bucket in part",
                    r);
    for (int64_t i = l->part_base; i < cap; i++)
        cr_assert(cover[i], "%s: rank %d: part offset %lld belongs to no bucket", s->name, r, (long long)i);
    memset(cover, 0, (size_t)cap + 1);
    for (int j = 0; j < K; j++) {
        cr_assert_eq(l->recv_off[j * G], l->sub_start[j], "%s: rank %d: chunk %d's first piece", s->name, r, j);
        for (int src = 0; src < G; src++) {
            const int64_t at = l->recv_off[j * G + src];
            cover_range(s, cover, cap, at, at + plan_bucket_count(&s->p, src, r * K + j), "a received piece", r);
        }
    }
    for (int64_t i = 0; i < l->sub_start[K]; i++)
        cr_assert(cover[i], "%s: rank %d: recv offset %lld receives nothing", s->name, r, (long long)i);
    cr_assert_eq(l->sub_start[K], plan_received(&s->p, r), "%s: rank %d's total", s->name, r);
    free(cover);
    for (int j = 0; j < K; j++) {
        const int w = l->wait_round[j];
        const int64_t end = l->sub_start[j + 1];
        cr_assert(w >= j && w < K, "%s: rank %d: sort %d waits for round %d", s->name, r, j, w);
        /* after round w, the keys still to be sent lie in [round_end[w], cap) */
        cr_assert(end <= l->round_end[w],
                  "%s: rank %d: sort %d's place [.., %lld) holds keys not sent before round %d ends (%lld)", s->name, r,
                  j, (long long)end, w, (long long)l->round_end[w]);
        cr_assert(w == j || l->round_end[w - 1] < end, "%s: rank %d: sort %d waits longer than it must", s->name, r, j);
    }
}

/* The exchange by every rank's messages (exchange_messages, after the ranks
 * agree on them): round by round, each receive is the matching send copied. */
static void exchange_by_messages(const sim *s, const ss_layout *L, unsigned int *const *pk, unsigned int *const *pv,
                                 unsigned int *const *rk, unsigned int *const *rv)
{
    const int G = s->G;
    const char *why = ss_exchange_agree(&s->p, L);
    cr_assert_null(why, "%s: %s%s", s->name, why, lab_todo_note());
    ss_round *m = (ss_round *)lab_xmalloc(sizeof(ss_round) * (size_t)G);
    for (int r = 0; r < G; r++)
        m[r] = ss_round_alloc(G);
    for (int j = 0; j < s->K; j++) {
        for (int r = 0; r < G; r++)
            exchange_messages(&s->p, &L[r], r, j, &m[r]);
        for (int d = 0; d < G; d++)
            for (int k = 0; k < m[d].nrecv; k++) {
                const ss_message *v = &m[d].recv[k];
                for (int t = 0; t < m[v->peer].nsend; t++)
                    if (m[v->peer].send[t].peer == d) {
                        const size_t bytes = sizeof(unsigned int) * (size_t)v->count;
                        memcpy(rk[d] + v->offset, pk[v->peer] + m[v->peer].send[t].offset, bytes);
                        memcpy(rv[d] + v->offset, pv[v->peer] + m[v->peer].send[t].offset, bytes);
                    }
            }
    }
    for (int r = 0; r < G; r++)
        ss_round_free(&m[r]);
    free(m);
}

/* Each chunk as its local sort leaves it: its pieces, in rank order where
 * they arrived, sorted stably to its place in the rank's run. */
static void sort_chunks(const sim *s, const ss_layout *l, const unsigned int *rk, const unsigned int *rv,
                        unsigned int *out_k, unsigned int *out_v)
{
    for (int j = 0; j < s->K; j++) {
        const int64_t lo = l->sub_start[j], len = l->sub_start[j + 1] - lo;
        memcpy(out_k + lo, rk + lo, sizeof(unsigned int) * (size_t)len);
        memcpy(out_v + lo, rv + lo, sizeof(unsigned int) * (size_t)len);
        sort_ref(out_k + lo, out_v + lo, len);
    }
}

/* The whole algorithm on the CPU by the plan's offsets and the exchange's
 * messages, against the stable global sort. */
static void check_pipeline(sim *s)
{
    const int G = s->G;
    int64_t cap = plan_largest(&s->p, NULL);
    for (int r = 0; r < G; r++)
        if (share_start(s, r + 1) - share_start(s, r) > cap)
            cap = share_start(s, r + 1) - share_start(s, r);
    ss_layout *L = (ss_layout *)lab_xmalloc(sizeof(ss_layout) * (size_t)G);
    unsigned int **buf = (unsigned int **)lab_xmalloc(sizeof(void *) * 4 * (size_t)G);
    unsigned int **pk = buf, **pv = buf + G, **rk = buf + 2 * G, **rv = buf + 3 * G;
    for (int r = 0; r < G; r++) { /* the layout, then the scatter: in input order, so each bucket keeps it */
        const char *why = plan_layout(&s->p, r, cap, cap, &L[r]);
        cr_assert_null(why, "%s: plan_layout: %s", s->name, why);
        check_layout(s, &L[r], r, cap);
        for (int k = 0; k < 4; k++)
            buf[k * G + r] = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)(cap + 1));
        int64_t *at = (int64_t *)lab_xmalloc(sizeof(int64_t) * (size_t)s->p.B);
        memcpy(at, L[r].send_off, sizeof(int64_t) * (size_t)s->p.B);
        for (int64_t g = share_start(s, r); g < share_start(s, r + 1); g++) {
            const unsigned int k = gen_key(s->dist, s->seed, (uint64_t)g, (uint64_t)s->N);
            const int x = bucket_of(s, k, g);
            pk[r][at[x]] = k, pv[r][at[x]] = gen_value((uint64_t)g);
            at[x]++;
        }
        free(at);
    }
    exchange_by_messages(s, L, pk, pv, rk, rv);
    unsigned int *out_k = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)(s->N + 1));
    unsigned int *out_v = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)(s->N + 1));
    int64_t out = 0;
    for (int d = 0; d < G; d++) {
        sort_chunks(s, &L[d], rk[d], rv[d], out_k + out, out_v + out);
        out += L[d].sub_start[s->K];
    }
    cr_assert_eq(out, s->N, "%s: %lld keys came out", s->name, (long long)out);
    unsigned int *want_k = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)(s->N + 1));
    unsigned int *want_v = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)(s->N + 1));
    for (int64_t g = 0; g < s->N; g++)
        want_k[g] = gen_key(s->dist, s->seed, (uint64_t)g, (uint64_t)s->N), want_v[g] = gen_value((uint64_t)g);
    sort_ref(want_k, want_v, s->N);
    for (int64_t i = 0, d = 0, base = 0; i < s->N; i++) {
        while (i >= base + L[d].sub_start[s->K])
            base += L[d].sub_start[s->K], d++;
        cr_assert(out_k[i] == want_k[i] && out_v[i] == want_v[i],
                  "%s: rank %lld index %lld (global %lld): (key %u, value %u), the stable sort has (%u, %u)%s", s->name,
                  (long long)d, (long long)(i - base), (long long)i, out_k[i], out_v[i], want_k[i], want_v[i],
                  lab_todo_note());
    }
    for (int k = 0; k < 4 * G; k++)
        free(buf[k]);
    free(buf), free(out_k), free(out_v), free(want_k), free(want_v), free(L);
}

static const int rank_counts[] = {1, 2, 3, 4, 5, 7, 8, 12, 16, 31, 32, 33, 48, 63, 64};
#define NRANKS ((int)(sizeof rank_counts / sizeof rank_counts[0]))

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

Test(plan, small_inputs_split_exactly)
{
    /* n <= the sample: every key is sampled, so the buckets are the exact quantiles */
    static const int64_t sizes[] = {0, 1, 2, 3, 63, 64, 65, 1000, 4099, 8192};
    for (int i = 0; i < (int)(sizeof sizes / sizeof sizes[0]); i++)
        for (int g = 0; g < NRANKS; g++)
            for (int dist = 0; dist < GEN_COUNT; dist++) {
                sim s;
                const int G = rank_counts[g];
                plan_run(&s, G, sizes[i], dist, 99, plan_default_chunks(G), SAMPLE);
                int at = -1;
                const int64_t largest = plan_largest(&s.p, &at);
                const int64_t most = (sizes[i] + G - 1) / G + 1; /* rounded targets: at most one key above ceil */
                cr_assert(largest <= most, "%s: rank %d holds %lld keys, at most %lld expected%s", s.name, at,
                          (long long)largest, (long long)most, lab_todo_note());
                check_pipeline(&s);
                plan_free(&s.p);
            }
}

Test(plan, pipeline_gives_the_stable_global_sort)
{
    static const int ks[] = {1, 2, 4, 7};
    for (int dist = 0; dist < GEN_COUNT; dist++)
        for (int g = 0; g < NRANKS; g++) { /* the chunks in turn */
            sim s;
            plan_run(&s, rank_counts[g], 50000 + 37 * g, dist, 1000 + (uint64_t)(dist * 100 + g), ks[(dist + g) % 4],
                     512);
            check_pipeline(&s);
            plan_free(&s.p);
        }
}

Test(plan, pipeline_with_a_small_sample_of_a_large_input)
{
    /* the sample sees 1 key in 64 or fewer: the buckets are uneven, the results must still be exact */
    for (int dist = 0; dist < GEN_COUNT; dist++) {
        sim s;
        plan_run(&s, 8, 1 << 18, dist, 77, 4, 256);
        check_pipeline(&s);
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

Test(exchange, every_message_has_its_match_and_the_own_piece_is_a_message)
{
    for (int g = 0; g < NRANKS; g++) {
        sim s;
        const int G = rank_counts[g];
        plan_run(&s, G, 200003, g % GEN_COUNT, lab_test_seeds[g % LAB_TEST_NSEEDS], plan_default_chunks(G), 1024);
        ss_layout *L = (ss_layout *)lab_xmalloc(sizeof(ss_layout) * (size_t)G);
        const int64_t cap = plan_largest(&s.p, NULL) + 200003;
        for (int r = 0; r < G; r++)
            cr_assert_null(plan_layout(&s.p, r, cap, cap, &L[r]), "%s: rank %d's layout", s.name, r);
        const char *why = ss_exchange_agree(&s.p, L);
        cr_assert_null(why, "%s: %s%s", s.name, why, lab_todo_note());
        ss_round m = ss_round_alloc(G);
        int64_t sent = 0, received = 0;
        for (int r = 0; r < G; r++)
            for (int j = 0; j < s.K; j++) {
                exchange_messages(&s.p, &L[r], r, j, &m);
                for (int k = 0; k < m.nsend; k++)
                    cr_assert(m.send[k].count > 0 && m.send[k].peer >= 0 && m.send[k].peer < G,
                              "%s: rank %d round %d: a send of %lld keys to %d", s.name, r, j,
                              (long long)m.send[k].count, m.send[k].peer);
                for (int k = 0; k < m.nsend; k++)
                    sent += m.send[k].count;
                for (int k = 0; k < m.nrecv; k++)
                    received += m.recv[k].count;
            }
        cr_assert(sent == s.N && received == s.N,
                  "%s: %lld keys sent, %lld received, N = %lld (the own piece counts)%s", s.name, (long long)sent,
                  (long long)received, (long long)s.N, lab_todo_note());
        ss_round_free(&m);
        free(L);
        plan_free(&s.p);
    }
}
