/* step9-sample-sort.c - step 9's own tests: the partition plan on the CPU
 * (plan.h) and the exchange's messages (exchange.c), for 1 to 64 simulated
 * ranks and every input distribution: the largest bucket stays within 1.05
 * N/G, the splitters rise, every key of a sub-bucket lies in its radix cut,
 * the counts, offsets and sort regions are consistent, the ranks agree on
 * every message (and a receive count taken from the wrong side is caught
 * before anything is sent), and the whole algorithm played on the CPU (the
 * scatter, the exchange by the messages, a stable sort of each segment)
 * gives exactly the stable global sort, pairs included. Seeds are fixed and
 * printed in every message. No GPU needed: CI runs them. */
#include <math.h>
#include <string.h>

#include "gen.h"
#include "lab_test.h"
#include "sample_sort.h"
#include "sort_ref.h"

#define FIRST_WEIGHT 0.5
#define SAMPLE       8192

/* One simulated run: its inputs and what the plan made of them. */
typedef struct {
    int G, K, F, S, dist;
    int64_t N;
    uint64_t seed;
    ss_plan p;
    char name[160]; /* for messages */
} sim;

static int64_t share_start(const sim *s, int r)
{
    return plan_share_start(s->N, s->G, r);
}

/* The sub-bucket of the key at global position g: the cut, then the radix cut,
 * which must hold it (the key lies in its bucket's range). */
static int sub_bucket_of(const sim *s, unsigned int key, int64_t g)
{
    const int b = plan_bucket_of(key, (uint64_t)g, s->p.split_key, s->p.split_pos, s->p.B - 1);
    const int f = plan_fine_of(key, s->p.shift[b], s->p.fine_base[b]);
    cr_assert(f >= 0 && f < s->p.F, "%s: key %u (position %lld) in bucket %d falls in sub-bucket %d of %d (shift %u)%s",
              s->name, key, (long long)g, b, f, s->p.F, s->p.shift[b], lab_todo_note());
    return b * s->p.F + f;
}

/* Every rank samples its share, the sample is "gathered", the splitters are
 * chosen, and every rank counts its keys per bucket (what the GPUs do). */
static void plan_run(sim *s, int G, int64_t N, int dist, uint64_t seed, int K, int S)
{
    const int F = plan_default_fine(G, K);
    s->G = G, s->N = N, s->dist = dist, s->seed = seed, s->K = K, s->F = F, s->S = S;
    snprintf(s->name, sizeof s->name, "G=%d N=%lld dist=%s seed=%llu chunks=%d fine=%d sample=%d", G, (long long)N,
             gen_dist_name(dist), (unsigned long long)seed, K, F, S);
    const char *why = plan_init(&s->p, N, G, K, F, S, FIRST_WEIGHT);
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
    uint64_t *counts = (uint64_t *)calloc((size_t)G * s->p.BF, sizeof(uint64_t));
    for (int r = 0; r < G; r++)
        for (int64_t g = share_start(s, r); g < share_start(s, r + 1); g++)
            counts[(size_t)r * s->p.BF + sub_bucket_of(s, gen_key(dist, seed, (uint64_t)g, (uint64_t)N), g)]++;
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

/* Rank r's layout: its regions disjoint and complete, its segments those of
 * its chunks, and each chunk's place in part free, every key in it sent, once
 * its wait round is done. */
static void check_layout(const sim *s, const ss_layout *l, int r, int64_t cap)
{
    const int G = s->G, K = s->K, F = s->F, BF = s->p.BF;
    cr_assert_eq(l->n, share_start(s, r + 1) - share_start(s, r), "%s: rank %d's share", s->name, r);
    unsigned char *cover = (unsigned char *)calloc((size_t)cap + 1, 1);
    for (int x = 0; x < BF; x++)
        cover_range(s, cover, cap, l->send_off[x], l->send_off[x] + (int64_t)s->p.counts[(size_t)r * BF + x],
                    "a sub-bucket in part", r);
    for (int64_t i = l->part_base; i < cap; i++)
        cr_assert(cover[i], "%s: rank %d: part offset %lld belongs to no sub-bucket", s->name, r, (long long)i);
    memset(cover, 0, (size_t)cap + 1);
    for (int j = 0; j < K; j++)
        for (int src = 0; src < G; src++) {
            cr_assert_eq(l->recv_off[j * G + src], l->piece_off[(j * G + src) * F], "%s: rank %d: a piece's start",
                         s->name, r);
            for (int f = 0; f < F; f++) {
                const int64_t at = l->piece_off[(j * G + src) * F + f];
                cover_range(s, cover, cap, at,
                            at + (int64_t)s->p.counts[(size_t)src * BF + (size_t)(r * K + j) * F + f],
                            "a received sub-bucket", r);
            }
        }
    for (int64_t i = 0; i < l->sub_start[K]; i++)
        cr_assert(cover[i], "%s: rank %d: recv offset %lld receives nothing", s->name, r, (long long)i);
    cr_assert_eq(l->sub_start[K], plan_received(&s->p, r), "%s: rank %d's total", s->name, r);
    for (int j = 0; j < K; j++) {
        cr_assert_eq(l->seg_start[j * F], l->sub_start[j], "%s: rank %d: chunk %d's first segment", s->name, r, j);
        for (int f = 0; f < F; f++) {
            int64_t len = 0;
            for (int src = 0; src < G; src++)
                len += (int64_t)s->p.counts[(size_t)src * BF + (size_t)(r * K + j) * F + f];
            cr_assert_eq(l->seg_start[j * F + f + 1] - l->seg_start[j * F + f], len,
                         "%s: rank %d: segment %d of chunk %d", s->name, r, f, j);
        }
    }
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

/* Each chunk's segments as the local sort makes them: segment f gathered from
 * its pieces (rank order) to its place in the run, then sorted stably; every
 * key in it agrees with the others on its bits above the chunk's shift. */
static void sort_segments(const sim *s, const ss_layout *l, int d, const unsigned int *rk, const unsigned int *rv,
                          unsigned int *out_k, unsigned int *out_v)
{
    const int G = s->G, K = s->K, F = s->F;
    for (int j = 0; j < K; j++) {
        const unsigned int shift = plan_chunk_bits(&s->p, d, j);
        for (int f = 0; f < F; f++) {
            int64_t at = l->seg_start[j * F + f];
            for (int src = 0; src < G; src++) {
                const int64_t from = l->piece_off[(j * G + src) * F + f];
                const int64_t len = (int64_t)s->p.counts[(size_t)src * s->p.BF + (size_t)(d * K + j) * F + f];
                memcpy(out_k + at, rk + from, sizeof(unsigned int) * (size_t)len);
                memcpy(out_v + at, rv + from, sizeof(unsigned int) * (size_t)len);
                at += len;
            }
            const int64_t lo = l->seg_start[j * F + f], len = at - lo;
            for (int64_t i = lo + 1; i < at; i++)
                cr_assert(((uint64_t)out_k[i] >> shift) == ((uint64_t)out_k[lo] >> shift),
                          "%s: rank %d chunk %d segment %d: keys %u and %u differ above bit %u", s->name, d, j, f,
                          out_k[lo], out_k[i], shift);
            sort_ref(out_k + lo, out_v + lo, len);
        }
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
    for (int r = 0; r < G; r++) { /* the layout, then the scatter: in input order, so each sub-bucket keeps it */
        const char *why = plan_layout(&s->p, r, cap, cap, &L[r]);
        cr_assert_null(why, "%s: plan_layout: %s", s->name, why);
        check_layout(s, &L[r], r, cap);
        for (int k = 0; k < 4; k++)
            buf[k * G + r] = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)(cap + 1));
        int64_t *at = (int64_t *)lab_xmalloc(sizeof(int64_t) * (size_t)s->p.BF);
        memcpy(at, L[r].send_off, sizeof(int64_t) * (size_t)s->p.BF);
        for (int64_t g = share_start(s, r); g < share_start(s, r + 1); g++) {
            const unsigned int k = gen_key(s->dist, s->seed, (uint64_t)g, (uint64_t)s->N);
            const int x = sub_bucket_of(s, k, g);
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
        sort_segments(s, &L[d], d, rk[d], rv[d], out_k + out, out_v + out);
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
            x = plan_mix64(x);
            if (x % 3 == 0)
                k += 1 + (unsigned int)(x >> 61), p = x >> 50; /* a larger key: any position */
            else
                p += 1 + (x >> 58);
            sk[t] = k, sp[t] = p;
        }
        for (int q = 0; q < 200; q++) {
            x = plan_mix64(x);
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

/* The bins' way (plan_bin_splitters): from every rank's exact keys per bin,
 * uniform and rising keys split on bin edges within 0.5 % of N/G of each
 * boundary, every key's bucket by the cut (plan_bucket_of) is the one its bin
 * lies in, and each rank's counts are exact; one key N times fills one bin:
 * refused, the sample decides (eight keys and the Zipf skew: either, checked
 * the same way when accepted). */
Test(plan, bin_splitters_sit_on_bin_edges_and_count_exactly)
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
            cr_assert_null(plan_init(&p, N, G, K, 1, SAMPLE, FIRST_WEIGHT));
            unsigned int *bins = (unsigned int *)calloc((size_t)G * PLAN_BINS, sizeof(unsigned int));
            for (int r = 0; r < G; r++)
                for (int64_t g = plan_share_start(N, G, r); g < plan_share_start(N, G, r + 1); g++)
                    bins[(size_t)r * PLAN_BINS + plan_bin_of(gen_key(dist, seed, (uint64_t)g, (uint64_t)N))]++;
            int first[PLAN_MAX_BUCKETS + 1];
            const int even = plan_bin_splitters(&p, bins, 0.005, first);
            const int spread = dist == GEN_UNIFORM || dist == GEN_SORTED || dist == GEN_REVERSE;
            if (spread)
                cr_assert(even, "%s: refused, but the keys spread over every bin", name);
            if (dist == GEN_EQUAL)
                cr_assert(!even, "%s: accepted, but every key is in one bin", name);
            for (int r = 0; r < G && even; r++) {
                int64_t got[PLAN_MAX_BUCKETS] = {0};
                for (int64_t g = plan_share_start(N, G, r); g < plan_share_start(N, G, r + 1); g++) {
                    const unsigned int key = gen_key(dist, seed, (uint64_t)g, (uint64_t)N), bin = plan_bin_of(key);
                    const int b = plan_bucket_of(key, (uint64_t)g, p.split_key, p.split_pos, p.B - 1);
                    cr_assert((int)bin >= first[b] && (int)bin < first[b + 1],
                              "%s: key %u (bin %u) cut into bucket %d, whose bins are [%d, %d)", name, key, bin, b,
                              first[b], first[b + 1]);
                    got[b]++;
                }
                for (int b = 0; b < p.B; b++)
                    cr_assert_eq((int64_t)p.counts[(size_t)r * p.BF + b], got[b],
                                 "%s: rank %d's count of bucket %d is %llu, its keys there %lld", name, r, b,
                                 (unsigned long long)p.counts[(size_t)r * p.BF + b], (long long)got[b]);
            }
            for (int d = 0; d < G && even; d++) {
                const double want = (double)N / G, off = fabs((double)plan_received(&p, d) - want);
                cr_assert(off <= 2 * 0.005 * want + 1, "%s: rank %d receives %lld keys, N/G = %.0f", name, d,
                          (long long)plan_received(&p, d), want);
            }
            free(bins);
            plan_free(&p);
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
    cr_assert_not_null(plan_init(&p, -1, 2, 4, 1, 1024, 0.5));
    cr_assert_not_null(plan_init(&p, 10, 0, 4, 1, 1024, 0.5));
    cr_assert_not_null(plan_init(&p, 10, 2000, 1, 1, 1024, 0.5));
    cr_assert_not_null(plan_init(&p, 10, 512, 4, 1, 1024, 0.5));
    cr_assert_not_null(plan_init(&p, 10, 2, 0, 1, 1024, 0.5));
    cr_assert_not_null(plan_init(&p, 10, 2, 4, 0, 1024, 0.5), "no sub-buckets");
    cr_assert_not_null(plan_init(&p, 10, 2, 4, 65, 1024, 0.5), "more than 64 sub-buckets a chunk");
    cr_assert_not_null(plan_init(&p, 10, 8, 4, 64, 1024, 0.5), "more than 1024 sub-buckets in all");
    cr_assert_not_null(plan_init(&p, 10, 2, 4, 1, 0, 0.5));
    cr_assert_not_null(plan_init(&p, 10, 2, 4, 1, 1 << 20, 0.5));
    cr_assert_not_null(plan_init(&p, 10, 2, 4, 1, 1024, 0.0));
    cr_assert_null(plan_init(&p, 10, 1024, 1, 1, 1024, 1.0));
    plan_free(&p);
    for (int G = 1; G <= PLAN_MAX_RANKS; G++) {
        const int K = plan_default_chunks(G), F = plan_default_fine(G, K);
        cr_assert(G * K <= PLAN_MAX_BUCKETS && K >= 1, "G=%d", G);
        cr_assert(G * K * F <= PLAN_MAX_SUBS && F >= 1 && F <= PLAN_MAX_FINE, "G=%d: %d sub-buckets a chunk", G, F);
    }
    cr_assert_eq(plan_default_fine(2, 4), 64, "two ranks of four chunks: 64 sub-buckets a chunk");
}

Test(plan, uniform_chunks_of_two_ranks_sort_on_24_bits_or_fewer)
{
    /* the radix cut's point: 2 ranks x 4 chunks x 64 sub-buckets leave at most 24 bits to sort (three
     * 8-bit passes where a whole key takes four) */
    for (int t = 0; t < LAB_TEST_NSEEDS; t++) {
        sim s;
        plan_run(&s, 2, 1 << 20, GEN_UNIFORM, lab_test_seeds[t], 4, SAMPLE);
        for (int d = 0; d < 2; d++)
            for (int j = 0; j < 4; j++)
                cr_assert(plan_chunk_bits(&s.p, d, j) <= 24, "%s: rank %d's chunk %d sorts on %u bits", s.name, d, j,
                          plan_chunk_bits(&s.p, d, j));
        plan_free(&s.p);
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
