/* plan_sim.h - one simulated run of step 9's partition plan (plan.h) on the
 * CPU, for G ranks of one process: every rank samples its share, the sample
 * is gathered, the splitters chosen and every rank's keys counted per bucket,
 * as the GPUs do; and the rank counts the tests run it for. Shared by step
 * 9's own tests: tests/ch13-sort/step9-sample-sort.c (the plan) and
 * step9-sample-sort_pipeline.c (the whole algorithm played by the plan's
 * layouts and the exchange's messages). */
#ifndef LAB_PLAN_SIM_H
#define LAB_PLAN_SIM_H

#include "gen.h"
#include "lab_test.h"
#include "rank.h"

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

static const int rank_counts[] = {1, 2, 3, 4, 5, 7, 8, 12, 16, 31, 32, 33, 48, 63, 64};
#define NRANKS ((int)(sizeof rank_counts / sizeof rank_counts[0]))

#endif
