/* reduce_test.h - what chapter 10's suite (reduce.c and its parts
 * reduce_launch.c, reduce_races.c and reduce_analysis.c, built with every
 * step) shares among its parts and lends the steps' own test files
 * (tests/ch10-reduction/<step folder>.c). */
#ifndef REDUCE_TEST_H
#define REDUCE_TEST_H

#include "lab_test.h"
#include "reduce_host.h"
#include "reduce_ref.h"

/* The step under test: its descriptor (reduce.h). */
#define STEP (&reduce_step_info)

/* The six kinds: sum, max and min of ints, then of floats. */
static const reduce_kind all_kinds[6] = {
    {.op = REDUCE_SUM, .type = REDUCE_INT},   {.op = REDUCE_MAX, .type = REDUCE_INT},
    {.op = REDUCE_MIN, .type = REDUCE_INT},   {.op = REDUCE_SUM, .type = REDUCE_FLOAT},
    {.op = REDUCE_MAX, .type = REDUCE_FLOAT}, {.op = REDUCE_MIN, .type = REDUCE_FLOAT},
};
extern const reduce_kind reduce_test_float_sum;
#define float_sum reduce_test_float_sum

/* 1 when the step takes the option (REDUCE_TAKES_*). */
static int takes(unsigned option)
{
    return (STEP->takes & option) != 0;
}

/* The forms to run: 1..count of its --variant names, or 0 when it has none. */
static int variant_count(void)
{
    int n = 0;
    while (takes(REDUCE_TAKES_VARIANT) && STEP->lab.variants[n] != NULL)
        n++;
    return n;
}

static int variant_at(int v)
{
    return variant_count() > 0 ? v : 0;
}

/* Runs the step once on n elements and checks the one result. */
void reduce_test_step(int64_t n, reduce_kind kind, const char *dist, uint64_t seed, int block, int coarsen, int variant,
                      int grid);

/* Runs the step's instrumented kernel once on n digits (one block of N/2
 * threads): its counters (c) and what --analyze makes of them (a). */
void reduce_test_counts(int64_t n, reduce_counters *c, reduce_analysis *a);

/* --analyze's counts at n, worked out by hand from the figures
 * (docs/ch10-reduction.md; where the book differs, docs/errata.md). */
void reduce_test_expect_counts(int64_t n, long long warp_steps, long long results, long long requests, long long out,
                               long long divergent_steps);

/* --example's picture of a run at n: one string of element marks and one of
 * thread marks per time step (reduce_example_picture), as the book draws it. */
void reduce_test_expect_picture(int64_t n, const char *const *elements, const char *const *threads, int steps);

#endif
