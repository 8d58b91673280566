/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step9` gives graded hints. */
/* plan.c - the sample sort's partition plan (plan.h): sample positions,
 * splitters, and each rank's layout of the exchange. Plain C, no GPU. */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "sort_ref.h"

const char *plan_init(ss_plan *p, int64_t N, int G, int K, int S, double first_weight)
{
    memset(p, 0, sizeof *p);
    if (N < 0)
        return "N must be 0 or more";
    if (G < 1 || G > PLAN_MAX_RANKS)
        return "the number of ranks must be 1 to 1024";
    if (K < 1 || (int64_t)G * K > PLAN_MAX_BUCKETS)
        return "chunks (per rank) must be 1 or more, and ranks x chunks at most 1024";
    if (S < 1 || S > PLAN_MAX_SAMPLE)
        return "the sample must be 1 to 65536 keys per rank";
    if (!(first_weight > 0.0 && first_weight <= 1.0))
        return "the first chunk's weight must be in (0, 1]";
    p->G = G, p->K = K, p->B = G * K, p->N = N, p->S = S;
    p->first_weight = first_weight;
    p->split_key = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)p->B);
    p->split_pos = (uint64_t *)lab_xmalloc(sizeof(uint64_t) * (size_t)p->B);
    p->counts = (uint64_t *)calloc((size_t)G * (size_t)p->B, sizeof(uint64_t));
    if (p->counts == NULL) {
        plan_free(p);
        return "out of host memory for the plan";
    }
    return NULL;
}

void plan_free(ss_plan *p)
{
    free(p->split_key), free(p->split_pos), free(p->counts);
    memset(p, 0, sizeof *p);
}

int plan_default_chunks(int G)
{
    if (G <= 1)
        return 1;
    const int most = PLAN_MAX_BUCKETS / G;
    return most < 2 ? most : 2; /* two rounds: fastest on two H100s and two H200s (docs/ch13-sample-sort-measured.md) */
}

int64_t plan_capacity(int64_t N, int G, int K, double slack, int r)
{
    const int64_t n = plan_share_start(N, G, r + 1) - plan_share_start(N, G, r);
    if (G == 1 && K == 1)
        return n;
    const int64_t room = (int64_t)((1.0 + slack) * ((double)N / G)) + 1;
    return room > n ? room : n;
}

double plan_sub_share(const ss_plan *p, int j)
{
    return (j == 0 ? p->first_weight : 1.0) / (p->first_weight + (p->K - 1));
}

int plan_sample_positions(int64_t n, int S, int64_t *pos)
{
    memset(pos, 0, sizeof(int64_t) * (size_t)S);
    if (n <= 0)
        return 0;
    if (n <= S) {
        for (int64_t i = 0; i < n; i++)
            pos[i] = i;
        return (int)n;
    }
    const int64_t q = n / S, rem = n % S; /* stratum i ends at (i + 1) n / S = (i + 1) q + (i + 1) rem / S */
    int64_t lo = 0, carried = 0;          /* carried: (i + 1) rem mod S, so no division per stratum */
    for (int i = 0; i < S; i++) {         /* stratum i: [lo, hi), at least one key since n > S */
        carried += rem;
        const int64_t hi = lo + q + (carried >= S);
        carried -= carried >= S ? S : 0;
        const uint64_t jitter = gen_mix64(0x5A4D504Cull ^ (uint64_t)i); /* scaled to [0, hi - lo): no division */
        pos[i] = lo + (int64_t)(((unsigned __int128)jitter * (uint64_t)(hi - lo)) >> 64);
        lo = hi;
    }
    return S;
}

double plan_boundary_target(const ss_plan *p, int t)
{
    const int d = t / p->K, j = t % p->K;
    double within = 0.0;
    for (int i = 0; i < j; i++)
        within += plan_sub_share(p, i);
    return (double)p->N * (d + within) / p->G;
}

void plan_choose_splitters(ss_plan *p, const unsigned int *gathered)
{
    const int G = p->G, S = p->S;
    const size_t most = (size_t)G * S;
    int64_t *pos = (int64_t *)lab_xmalloc(sizeof(int64_t) * (size_t)S);
    uint64_t *item_pos = (uint64_t *)lab_xmalloc(sizeof(uint64_t) * most);
    double *item_w = (double *)lab_xmalloc(sizeof(double) * most);
    unsigned int *key = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * most);
    unsigned int *item = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * most);
    int64_t m = 0;
    for (int r = 0; r < G; r++) { /* rank-major, positions rising: the items in global position order */
        const int64_t start = plan_share_start(p->N, G, r), n = plan_share_start(p->N, G, r + 1) - start;
        const int used = plan_sample_positions(n, S, pos);
        for (int i = 0; i < used; i++, m++) {
            key[m] = gathered[(size_t)r * S + i];
            item[m] = (unsigned int)m;
            item_pos[m] = (uint64_t)(start + pos[i]);
            item_w[m] = (double)n / used; /* each sampled key stands for n / used keys of its share */
        }
    }
    sort_ref(key, item, m); /* stable: the items in (key, position) order */
    /* TODO(7): plan_choose_splitters(), the splitters: walk the sorted items adding up their
       weights; splitter t - 1 (t = 1 .. B - 1) is the first item whose weight, counted to its
       middle, reaches plan_boundary_target(p, t) */
    free(pos), free(item_pos), free(item_w), free(key), free(item);
}

void plan_set_counts(ss_plan *p, const uint64_t *counts)
{
    memcpy(p->counts, counts, sizeof(uint64_t) * (size_t)p->G * (size_t)p->B);
}

int64_t plan_bucket_count(const ss_plan *p, int s, int b)
{
    return (int64_t)p->counts[(size_t)s * p->B + b];
}

int64_t plan_received(const ss_plan *p, int d)
{
    int64_t total = 0;
    for (int s = 0; s < p->G; s++)
        for (int j = 0; j < p->K; j++)
            total += plan_bucket_count(p, s, d * p->K + j);
    return total;
}

int64_t plan_largest(const ss_plan *p, int *rank)
{
    int64_t most = -1;
    for (int d = 0; d < p->G; d++) {
        const int64_t got = plan_received(p, d);
        if (got > most) {
            most = got;
            if (rank != NULL)
                *rank = d;
        }
    }
    return most;
}

int64_t plan_output_start(const ss_plan *p, int r)
{
    int64_t at = 0;
    for (int d = 0; d < r; d++)
        at += plan_received(p, d);
    return at;
}

/* part: round-major (round j: destinations 0 .. G-1), after the free front;
 * fills send_off and round_end. */
static void lay_out_part(const ss_plan *p, int r, ss_layout *L)
{
    int64_t at = L->part_base;
    for (int j = 0; j < p->K; j++) {
        for (int d = 0; d < p->G; d++) {
            const int b = d * p->K + j;
            L->send_off[b] = at;
            at += plan_bucket_count(p, r, b);
        }
        L->round_end[j] = at;
    }
}

/* recv: chunk-major, each chunk's pieces in rank order. */
static void lay_out_recv(const ss_plan *p, int r, ss_layout *L)
{
    const int G = p->G, K = p->K;
    int64_t got = 0;
    for (int j = 0; j < K; j++) {
        L->sub_start[j] = got;
        for (int s = 0; s < G; s++) {
            L->recv_off[j * G + s] = got;
            got += plan_bucket_count(p, s, r * K + j);
        }
    }
    L->sub_start[K] = got;
}

const char *plan_layout(const ss_plan *p, int r, int64_t part_cap, int64_t recv_cap, ss_layout *L)
{
    static __thread char why[200];
    const int K = p->K;
    L->r = r;
    L->n = plan_share_start(p->N, p->G, r + 1) - plan_share_start(p->N, p->G, r);
    L->part_cap = part_cap;
    L->part_base = part_cap - L->n;
    if (L->part_base < 0) {
        snprintf(why, sizeof why, "rank %d: its share (%lld keys) does not fit the partition buffer (%lld)", r,
                 (long long)L->n, (long long)part_cap);
        return why;
    }
    lay_out_part(p, r, L);
    if (L->round_end[K - 1] != part_cap) {
        snprintf(why, sizeof why, "rank %d: its counts add up to %lld keys, its share is %lld", r,
                 (long long)(L->round_end[K - 1] - L->part_base), (long long)L->n);
        return why;
    }
    lay_out_recv(p, r, L);
    if (L->sub_start[K] > recv_cap || L->sub_start[K] > part_cap) {
        snprintf(why, sizeof why,
                 "rank %d's bucket holds %lld keys, more than its buffer's %lld (N/G = %.0f): the splitters missed", r,
                 (long long)L->sub_start[K], (long long)(recv_cap < part_cap ? recv_cap : part_cap),
                 (double)p->N / p->G);
        return why;
    }
    /* chunk j's sorted run goes to part's [sub_start[j], sub_start[j+1]): the
     * sort waits for the first round after which no key still to be sent lies there */
    for (int j = 0; j < K; j++) {
        int w = j;
        while (w < K - 1 && L->round_end[w] < L->sub_start[j + 1])
            w++;
        L->wait_round[j] = w;
    }
    return NULL;
}
