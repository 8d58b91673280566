/* bins.c - ch13 step 10's splitters at bin edges (tuned.h): from exact
 * counts of every key's top bits, where they split evenly. Plain C, no GPU. */
#include <math.h>
#include <stdlib.h>

#include "tuned.h"

int plan_bin_splitters(ss_plan *p, const unsigned int *bins, double slack, int *first_bin)
{
    const int G = p->G, B = p->B;
    uint64_t *below = (uint64_t *)lab_xmalloc(sizeof(uint64_t) * (PLAN_BINS + 1)); /* keys in bins [0, e) */
    below[0] = 0;
    for (int e = 0; e < PLAN_BINS; e++) {
        uint64_t in = 0;
        for (int r = 0; r < G; r++)
            in += bins[(size_t)r * PLAN_BINS + e];
        below[e + 1] = below[e] + in;
    }
    int ok = below[PLAN_BINS] == (uint64_t)p->N;
    first_bin[0] = 0, first_bin[B] = PLAN_BINS;
    for (int t = 1, e = 0; t < B && ok; t++) {
        const double target = plan_boundary_target(p, t);
        /* exercise: plan_bin_splitters(), the edges: boundary t goes to the bin edge e nearest its target, at or after the last boundary's edge (below[e] keys lie in bins [0, e)); first_bin[t] = e; ok stays 1 while |below[e] - target| <= slack * N / G */
        /* hint: walk e forward (never back) while below[e + 1] <= target: then below[e] <= target < below[e + 1] (or e = PLAN_BINS); take e + 1 instead when it lies nearer the target */
        /* hint: fabs((double)below[e] - target) <= slack * (double)p->N / G: a bin too heavy for that (one key many times) leaves ok 0, and the sample decides */
        while (e < PLAN_BINS && (double)below[e + 1] <= target)
            e++;
        if (e < PLAN_BINS && (double)below[e + 1] - target < target - (double)below[e])
            e++;
        first_bin[t] = e;
        ok = fabs((double)below[e] - target) <= slack * (double)p->N / G;
        /* exercise stub: (void)target, (void)slack; first_bin[t] = e; */
        /* end exercise */
    }
    free(below);
    if (ok)
        plan_bins_apply(p, bins, first_bin);
    return ok;
}

void plan_bins_apply(ss_plan *p, const unsigned int *bins, const int *first_bin)
{
    const int G = p->G, B = p->B;
    for (int t = 1; t < B; t++) { /* the edge's first item; edge PLAN_BINS: past every key */
        const int e = first_bin[t];
        p->split_key[t - 1] = e < PLAN_BINS ? (unsigned int)e << (32 - PLAN_BIN_BITS) : 0xFFFFFFFFu;
        p->split_pos[t - 1] = e < PLAN_BINS ? 0 : UINT64_MAX;
    }
    for (int r = 0; r < G; r++)
        for (int b = 0; b < B; b++) {
            uint64_t in = 0;
            for (int e = first_bin[b]; e < first_bin[b + 1]; e++)
                in += bins[(size_t)r * PLAN_BINS + e];
            p->counts[(size_t)r * B + b] = in;
        }
}
