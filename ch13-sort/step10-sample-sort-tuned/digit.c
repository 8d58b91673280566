/* digit.c - ch13 step 10's split by the top byte (--split digit; tuned.h):
 * the splitters at top-byte edges, where each sender's keys of each top byte
 * go, and the tiles of each chunk's three passes. Plain C, no GPU. */
#include <math.h>
#include <stdlib.h>

#include "tuned.h"

/* Rank s's keys whose top byte is t: its DIGIT_PER_TOP bins. */
static uint64_t top_count(const unsigned int *bins, int s, int t)
{
    uint64_t in = 0;
    for (int e = t * DIGIT_PER_TOP; e < (t + 1) * DIGIT_PER_TOP; e++)
        in += bins[(size_t)s * PLAN_BINS + e];
    return in;
}

/* The top-byte edge in [lo, hi] nearest target in keys, not in bin index: it never jumps over a heavy value. */
static int nearest_edge(const uint64_t *below, double target, int lo, int hi)
{
    int e = lo;
    while (e < hi && (double)below[e + 1] <= target) /* below[] rises: walk on while the next edge is not past */
        e++;
    if (e < hi && (double)below[e + 1] - target < target - (double)below[e])
        e++;
    return e;
}

int digit_edges(ss_plan *p, const unsigned int *bins, double slack, int *first_bin)
{
    const int G = p->G, K = p->K, B = p->B;
    uint64_t below[DIGIT_TOPS + 1] = {0}; /* keys of every rank in the top bytes [0, e) */
    int edge[PLAN_BIN_BUCKETS + 1];
    if (B > PLAN_BIN_BUCKETS)
        return 0;
    for (int e = 0; e < DIGIT_TOPS; e++) {
        below[e + 1] = below[e];
        for (int s = 0; s < G; s++)
            below[e + 1] += top_count(bins, s, e);
    }
    edge[0] = 0, edge[B] = DIGIT_TOPS;
    for (int t = K; t < B; t += K) { /* a GPU's edge sets the balance: a top byte heavier than the slack refuses */
        const double target = plan_boundary_target(p, t);
        edge[t] = nearest_edge(below, target, edge[t - K], DIGIT_TOPS);
        if (fabs((double)below[edge[t]] - target) > slack * (double)p->N / G)
            return 0;
    }
    for (int t = 1; t < B; t++) /* a chunk's size moves only the pipeline, not the balance: any distance will do */
        if (t % K)
            edge[t] = nearest_edge(below, plan_boundary_target(p, t), edge[t - 1], edge[t - t % K + K]);
    for (int t = 0; t <= B; t++)
        first_bin[t] = edge[t] * DIGIT_PER_TOP;
    plan_bins_apply(p, bins, first_bin);
    return 1;
}

int digit_fits(const ss_plan *p)
{
    for (int r = 0; r < p->G; r++)
        if (plan_share_start(p->N, p->G, r + 1) - plan_share_start(p->N, p->G, r) > DIGIT_MAX_SHARE)
            return 0;
    for (int b = 0; b < p->B; b++) {
        int64_t in = 0;
        for (int s = 0; s < p->G; s++)
            in += plan_bucket_count(p, s, b);
        if (in > DIGIT_MAX_CHUNK)
            return 0;
    }
    return 1;
}

void digit_split_offsets(const ss_plan *p, const unsigned int *bins, int s, const int *first_bin,
                         const int64_t *send_off, int64_t *dst)
{
    for (int b = 0; b < p->B; b++) {
        int64_t at = send_off[b];
        for (int t = first_bin[b] / DIGIT_PER_TOP; t < first_bin[b + 1] / DIGIT_PER_TOP; t++) {
            dst[t] = at;
            at += (int64_t)top_count(bins, s, t);
        }
    }
}

digit_ranges digit_ranges_alloc(int ranges)
{
    digit_ranges A;
    const size_t R = (size_t)ranges;
    A.ranges = 0, A.tiles = 0;
    A.words = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (5 * R + 1));
    A.in_at = A.words, A.len = A.in_at + R, A.tile_at = A.len + R, A.first = A.tile_at + R + 1;
    A.seg = A.first + R;
    return A;
}

void digit_ranges_free(digit_ranges *A)
{
    free(A->words);
    A->words = NULL;
}

/* Range r (keys at `at`, n of them, of segment `seg`) appended: its tiles after the last range's. */
static void add_range(digit_ranges *A, unsigned int at, unsigned int n, unsigned int seg, unsigned int first,
                      unsigned int tile)
{
    const int r = A->ranges++;
    A->in_at[r] = at, A->len[r] = n, A->seg[r] = seg, A->first[r] = first;
    A->tile_at[r] = A->tiles;
    A->tiles += (n + tile - 1) / tile;
    A->tile_at[r + 1] = A->tiles;
}

void digit_chunk_ranges(const unsigned int *bins, int G, int t_lo, int t_hi, const int64_t *piece_at, unsigned int tile,
                        digit_ranges *A, digit_ranges *B, unsigned int *seg_out)
{
    int64_t *next = (int64_t *)lab_xmalloc(sizeof(int64_t) * (size_t)G); /* sender s's next top byte's keys */
    for (int s = 0; s < G; s++)
        next[s] = piece_at[s];
    A->ranges = 0, A->tiles = 0, B->ranges = 0, B->tiles = 0;
    unsigned int out = 0;
    for (int t = t_lo; t < t_hi; t++) {
        const unsigned int seg = (unsigned int)(t - t_lo), first = A->tiles;
        seg_out[seg] = out;
        for (int s = 0; s < G; s++) {
            const unsigned int n = (unsigned int)top_count(bins, s, t);
            add_range(A, (unsigned int)next[s], n, seg, first, tile);
            next[s] += n;
            out += n;
        }
        add_range(B, seg_out[seg], out - seg_out[seg], seg, B->tiles, tile);
    }
    seg_out[t_hi - t_lo] = out;
    free(next);
}
