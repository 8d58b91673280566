/* step9-sample-sort_pipeline.c - step 9's whole algorithm played on the CPU
 * by the plan's offsets (plan.h) and the exchange's messages (exchange.c),
 * for 1 to 64 simulated ranks and every input distribution: each rank's
 * layout disjoint and complete and each sort's place free when it starts,
 * the ranks agreeing on every message (and a receive count taken from the
 * wrong side caught before anything is sent), small inputs split exactly, and
 * the scatter, the exchange by the messages and a stable sort of each chunk
 * giving exactly the stable global sort, pairs included. Part of step 9's own
 * tests, beside tests/ch13-sort/step9-sample-sort.c (the plan itself); the
 * simulated run is tests/ch13-sort/plan_sim.h. Seeds are fixed and printed in
 * every message. No GPU needed: CI runs them. */
#include <string.h>

#include "plan_sim.h"
#include "sort_ref.h"

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
