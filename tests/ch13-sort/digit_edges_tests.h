/* digit_edges_tests.h - more CPU tests of step 10's splitters at top-byte
 * edges (digit_edges, digit.c): each GPU's boundary at the edge nearest its
 * target in keys, against every edge scanned here; and few distinct keys,
 * whose chunk boundaries cannot lie near their targets, accepted. Uses
 * digit_tests.h's helpers; included once, after it, by
 * tests/ch13-sort/step10-sample-sort-tuned.c. */

/* Keys of every rank below each top-byte edge: below[e], e = 0 .. DIGIT_TOPS. */
static void digit_below_edges(const unsigned int *bins, int G, double *below)
{
    below[0] = 0;
    for (int t = 0; t < DIGIT_TOPS; t++) {
        below[t + 1] = below[t];
        for (int s = 0; s < G; s++)
            below[t + 1] += (double)digit_top_keys(bins, s, t);
    }
}

/* Every third top byte's keys, each rank's, piled into one bin of it, at a place from `seed`. */
static void digit_lump(unsigned int *bins, int G, uint64_t seed)
{
    lab_rng rng = lab_rng_seeded(seed ^ 0x70BB);
    for (int t = 0; t < DIGIT_TOPS; t += 3) {
        const int at = t * DIGIT_PER_TOP + (int)lab_rng_below(&rng, DIGIT_PER_TOP);
        for (int s = 0; s < G; s++) {
            unsigned int *row = bins + (size_t)s * PLAN_BINS;
            for (int e = t * DIGIT_PER_TOP; e < (t + 1) * DIGIT_PER_TOP; e++)
                if (e != at)
                    row[at] += row[e], row[e] = 0;
        }
    }
}

/* Each GPU's boundary: no edge of the 257 lies nearer its target in keys. */
static void digit_check_nearest(const ss_plan *p, const unsigned int *bins, const int *first, const char *name)
{
    double below[DIGIT_TOPS + 1];
    digit_below_edges(bins, p->G, below);
    for (int t = p->K; t < p->B; t += p->K) {
        const double target = plan_boundary_target(p, t), off = fabs(below[first[t] / DIGIT_PER_TOP] - target);
        int best = 0;
        for (int e = 1; e <= DIGIT_TOPS; e++)
            best = fabs(below[e] - target) < fabs(below[best] - target) ? e : best;
        cr_assert(off <= fabs(below[best] - target),
                  "%s: GPU boundary %d at top byte %d, %.1f keys off its target; top byte %d lies %.1f off%s", name, t,
                  first[t] / DIGIT_PER_TOP, off, best, fabs(below[best] - target), lab_todo_note());
    }
}

/* Random bins with the keys of every third top byte piled into one bin of
 * it, where bin index and keys disagree (thin bins alone:
 * digit_tests.h's): each GPU's boundary at the top-byte edge nearest its
 * target in keys, within the slack; the plan as digit_check_plan says. */
Test(digit, a_gpus_boundary_is_the_top_byte_edge_nearest_in_keys)
{
    for (int G = 2; G <= 4; G++)
        for (int K = 1; K <= 3; K++)
            for (int i = 0; i < LAB_TEST_NSEEDS; i++) {
                char name[120];
                snprintf(name, sizeof name, "lumpy bins G=%d chunks=%d seed=%llu", G, K,
                         (unsigned long long)lab_test_seeds[i]);
                int64_t N;
                unsigned int *bins = digit_bins(G, lab_test_seeds[i], &N);
                digit_lump(bins, G, lab_test_seeds[i]);
                ss_plan p;
                int first[PLAN_MAX_BUCKETS + 1];
                cr_assert_null(plan_init(&p, N, G, K, 4096, 0.5));
                cr_assert(digit_edges(&p, bins, DIGIT_SLACK, first),
                          "%s: refused, but every top byte holds < 1 %% of N / G%s", name, lab_todo_note());
                digit_check_plan(&p, bins, first, name);
                digit_check_nearest(&p, bins, first, name);
                free(bins);
                plan_free(&p);
            }
}

/* Few distinct keys (--dist few): 8 top bytes from the seed, each N / 8
 * keys in one bin at a random place in it, spread over the ranks at random;
 * every other bin empty. Two GPUs of two chunks (first chunk 0.2, as the
 * policy takes on two GPUs) and four of three (0.75): accepted, each GPU's
 * boundary on a value's edge, each chunk's on a top-byte edge between its
 * GPU's, however far from its target (a chunk's size is only the pipeline's). */
Test(digit, few_distinct_keys_split_between_values_however_the_chunks_fall)
{
    static const struct {
        int G, K;
        double first;
    } runs[] = {{2, 2, 0.2}, {4, 3, 0.75}};
    const int64_t V = 100003; /* keys of each value */
    int far = 0;              /* chunk boundaries accepted past the slack */
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++)
        for (int i = 0; i < LAB_TEST_NSEEDS; i++) {
            const int G = runs[k].G, K = runs[k].K;
            char name[120];
            snprintf(name, sizeof name, "few keys G=%d chunks=%d first=%.2f seed=%llu", G, K, runs[k].first,
                     (unsigned long long)lab_test_seeds[i]);
            lab_rng rng = lab_rng_seeded(lab_test_seeds[i]);
            unsigned int *bins = (unsigned int *)calloc((size_t)G * PLAN_BINS, sizeof(unsigned int));
            int taken[DIGIT_TOPS] = {0};
            for (int v = 0; v < 8; v++) {
                int t = (int)lab_rng_below(&rng, DIGIT_TOPS);
                while (taken[t]) /* 8 distinct top bytes */
                    t = (t + 1) % DIGIT_TOPS;
                taken[t] = 1;
                const int bin = t * DIGIT_PER_TOP + (int)lab_rng_below(&rng, DIGIT_PER_TOP);
                int64_t left = V;
                for (int s = 0; s < G; s++) { /* a random part to each rank, the rest to the last */
                    const unsigned int n = s < G - 1 ? lab_rng_below(&rng, (uint32_t)left + 1) : (unsigned int)left;
                    bins[(size_t)s * PLAN_BINS + bin] += n;
                    left -= n;
                }
            }
            ss_plan p;
            int first[PLAN_MAX_BUCKETS + 1];
            cr_assert_null(plan_init(&p, 8 * V, G, K, 4096, runs[k].first));
            cr_assert(digit_edges(&p, bins, DIGIT_SLACK, first),
                      "%s: refused, but every GPU's boundary falls between two values%s", name, lab_todo_note());
            digit_check_plan(&p, bins, first, name); /* GPU boundaries within the slack, chunks between them */
            digit_check_nearest(&p, bins, first, name);
            for (int t = 1; t < p.B; t++) {
                const double below = digit_keys_below(bins, G, first[t] / DIGIT_PER_TOP);
                cr_assert(t % K || fmod(below, (double)V) == 0,
                          "%s: GPU boundary %d at top byte %d, %.0f keys below: inside a value%s", name, t,
                          first[t] / DIGIT_PER_TOP, below, lab_todo_note());
                far += fabs(below - plan_boundary_target(&p, t)) > DIGIT_SLACK * (double)p.N / G;
            }
            free(bins);
            plan_free(&p);
        }
    cr_assert(far > 0, "the test's few keys put every chunk boundary within the slack of its target");
}
