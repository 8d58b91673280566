/* reduce.c - ch10, every step: the chapter's host side the tests lean on,
 * tested on the CPU (CI, no GPU): the operator and its identity for every
 * kind, the reference on the book's examples, the inputs, the exactness rule
 * and the float bound, the check's words for an output never written, and
 * the kinds' names. The suite asks the step's descriptor (reduce_step_info)
 * what it takes and tests exactly that, in its parts: reduce_launch.c (the
 * descriptor, its launch check, and the launcher on every input it takes),
 * reduce_races.c (a missing barrier fails every time) and reduce_analysis.c
 * (the book's analysis tables and the --example picture). A step's own tests
 * (the --analyze counts, its picture) are in tests/ch10-reduction/<step>.c. */
#include <string.h>

#include "reduce_test.h"

const reduce_kind reduce_test_float_sum = {.op = REDUCE_SUM, .type = REDUCE_FLOAT};

/* ---- CPU: the operator, the identity, the reference, the bound ------------- */

Test(reduce_host, identity_is_neutral_for_every_kind)
{
    const float fs[] = {-3.5f, 0.25f, 1e30f, -1e30f, 7.0f};
    const int is[] = {-9, 1, 0x7fffffff, (int)0x80000000, 123456};
    for (int k = 0; k < 6; k++) {
        const reduce_kind kind = all_kinds[k];
        for (int v = 0; v < 5; v++) {
            const reduce_t x = kind.type == REDUCE_FLOAT ? reduce_float_bits(fs[v]) : is[v];
            cr_assert_eq(reduce_combine(kind, reduce_identity(kind), x), x, "%s %s: identity op x != x for x #%d",
                         reduce_op_name(kind.op), reduce_type_name(kind.type), v);
            cr_assert_eq(reduce_combine(kind, x, reduce_identity(kind)), x, "%s %s: x op identity != x for x #%d",
                         reduce_op_name(kind.op), reduce_type_name(kind.type), v);
        }
    }
}

Test(reduce_host, operator_is_sum_max_min_and_int_sums_wrap)
{
    const reduce_kind isum = all_kinds[0], imax = all_kinds[1], imin = all_kinds[2];
    const reduce_kind fmax_ = all_kinds[4], fmin_ = all_kinds[5];
    cr_assert_eq(reduce_combine(isum, 7, -9), -2);
    cr_assert_eq(reduce_combine(isum, 0x7fffffff, 1), (int)0x80000000, "int sums wrap modulo 2^32, as the GPU adds");
    cr_assert_eq(reduce_combine(imax, -7, -9), -7);
    cr_assert_eq(reduce_combine(imin, -7, -9), -9);
    cr_assert_float_eq(reduce_as_float(reduce_combine(float_sum, reduce_float_bits(2.5f), reduce_float_bits(-1.0f))),
                       1.5f, 0.0f);
    cr_assert_eq(reduce_as_float(reduce_combine(fmax_, reduce_float_bits(-7.5f), reduce_float_bits(-9.0f))), -7.5f);
    cr_assert_eq(reduce_as_float(reduce_combine(fmin_, reduce_float_bits(-7.5f), reduce_float_bits(-9.0f))), -9.0f);
    cr_assert(isinf(reduce_as_float(reduce_identity(fmax_))) && reduce_as_float(reduce_identity(fmax_)) < 0,
              "the identity of a float max is -inf (section 10.1)");
}

Test(reduce_host, reference_on_the_books_examples)
{
    /* Fig 10.3: the max of 3 1 7 0 4 1 6 3 is 7; section 10.1: 7.0 + 2.1 + 5.3 + 9.0 + 11.2 = 34.6 */
    const int fig_10_3[] = {3, 1, 7, 0, 4, 1, 6, 3};
    const float s10_1[] = {7.0f, 2.1f, 5.3f, 9.0f, 11.2f};
    reduce_t x[8];
    reduce_ref_result r;
    reduce_ref(all_kinds[1], fig_10_3, 8, &r);
    cr_assert_eq(r.want, 7);
    cr_assert(r.exact);
    for (int i = 0; i < 5; i++)
        x[i] = reduce_float_bits(s10_1[i]);
    reduce_ref(float_sum, x, 5, &r);
    cr_assert(fabs(r.sum - 34.6) < 1e-5 && !r.exact, "34.6 from inputs that are not integers: checked with the bound");
    for (int k = 0; k < 6; k++) {
        reduce_ref(all_kinds[k], x, 0, &r);
        cr_assert_eq(r.want, reduce_identity(all_kinds[k]), "the reduction of nothing is the identity");
    }
}

Test(reduce_host, inputs_are_never_zero_and_stay_in_range)
{
    const int64_t n = 100003;
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * (size_t)n);
    for (int d = 0; reduce_dists[d] != NULL; d++)
        for (int t = 0; t < 2; t++) {
            lab_rng rng = lab_rng_seeded(lab_test_seed(d));
            cr_assert_eq(reduce_make_input(reduce_dists[d], (reduce_type)t, &rng, x, n), 0);
            int neg = 0, pos = 0;
            for (int64_t i = 0; i < n; i++) {
                const double v = t ? reduce_as_float(x[i]) : x[i];
                cr_assert(v != 0.0 && fabs(v) <= 1000.0, "%s %s: x[%lld] = %g", reduce_dists[d], t ? "float" : "int",
                          (long long)i, v);
                neg += v<0, pos += v> 0;
            }
            if (strcmp(reduce_dists[d], "digits") == 0)
                cr_assert(neg == 0, "digits are 1..9");
            if (strcmp(reduce_dists[d], "negative") == 0)
                cr_assert(pos == 0, "negative is -9..-1");
            if (strcmp(reduce_dists[d], "mixed") == 0 || strcmp(reduce_dists[d], "uniform") == 0)
                cr_assert(neg > n / 3 && pos > n / 3, "%s has both signs", reduce_dists[d]);
        }
    lab_rng rng = lab_rng_seeded(1);
    cr_assert_eq(reduce_make_input("nonsense", REDUCE_INT, &rng, x, 4), -1, "unknown distributions are refused");
    free(x);
}

Test(reduce_host, float_sums_are_exact_only_while_every_partial_sum_is)
{
    const int64_t n = 1 << 22;
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * (size_t)n);
    lab_rng rng = lab_rng_seeded(lab_test_seed(0));
    reduce_ref_result r;
    reduce_make_input("digits", REDUCE_FLOAT, &rng, x, n);
    reduce_ref(float_sum, x, 1 << 20, &r); /* at most 9 x 2^20 < 2^24 */
    cr_assert(r.exact, "integer inputs with sum |x| < 2^24 must match exactly");
    reduce_ref(float_sum, x, n, &r); /* about 5 x 2^22 > 2^24 */
    cr_assert(!r.exact, "above 2^24 a float sum rounds: the bound applies");
    reduce_make_input("uniform", REDUCE_FLOAT, &rng, x, 1000);
    reduce_ref(float_sum, x, 1000, &r);
    cr_assert(!r.exact);
    free(x);
}

/* Sums x in float in the order step 5 uses (per thread, tree, block after
 * block): its error must be within the bound, and the bound must be small
 * enough to see one element go missing. */
Test(reduce_host, float_bound_holds_for_the_steps_order_and_is_not_vacuous)
{
    const int64_t n = 100003;
    const int block = 256, coarsen = 8;
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * (size_t)n);
    float s[256];
    for (int seed = 0; seed < LAB_TEST_NSEEDS; seed++) {
        lab_rng rng = lab_rng_seeded(lab_test_seed(seed));
        reduce_make_input("uniform", REDUCE_FLOAT, &rng, x, n);
        reduce_ref_result r;
        reduce_ref(float_sum, x, n, &r);
        reduce_params p = {.kind = float_sum, .block = block, .coarsen = coarsen};
        cr_assert_null(reduce_coarsened_check(n, &p));
        float total = 0.0f;
        double largest = 0.0;
        for (int b = 0; b < p.grid; b++) {
            for (int t = 0; t < block; t++) {
                float sum = 0.0f;
                for (int tile = 0; tile < 2 * coarsen; tile++) {
                    const int64_t i = (int64_t)2 * coarsen * block * b + t + (int64_t)tile * block;
                    if (i < n)
                        sum += reduce_as_float(x[i]);
                }
                s[t] = sum;
            }
            for (int stride = block / 2; stride >= 1; stride /= 2)
                for (int t = 0; t < stride; t++)
                    s[t] += s[t + stride];
            total += s[0];
        }
        for (int64_t i = 0; i < n; i++)
            largest = fabs(reduce_as_float(x[i])) > largest ? fabs(reduce_as_float(x[i])) : largest;
        const double bound = reduce_float_bound(r.sum_abs, reduce_tree_height(&p));
        cr_assert(fabs((double)total - r.sum) <= bound, "seed %llu: float error %g exceeds the bound %g",
                  (unsigned long long)lab_test_seed(seed), fabs((double)total - r.sum), bound);
        cr_assert(bound < 0.5 * largest, "seed %llu: the bound %g would not see the largest element (%g) go missing",
                  (unsigned long long)lab_test_seed(seed), bound, largest);
        char why[256];
        cr_assert(!reduce_check(float_sum, reduce_float_bits((float)(r.sum - largest)), &r, reduce_tree_height(&p), why,
                                sizeof why),
                  "a sum missing its largest element must fail the check");
    }
    /* at 2^24 with the default launch (block 1024, coarsen 8: 1024 blocks) the bound is 6e-5 of sum |x| */
    const reduce_params big = {.kind = float_sum, .block = 1024, .grid = 1024, .coarsen = 8, .per_thread = 16};
    cr_assert(reduce_float_bound(1.0, reduce_tree_height(&big)) < 1e-4);
    free(x);
}

Test(reduce_host, a_never_written_output_says_so)
{
    reduce_t x[4] = {1, 2, 3, 4};
    reduce_ref_result r;
    char why[256];
    const reduce_kind isum = all_kinds[0];
    reduce_ref(isum, x, 4, &r);
    cr_assert(!reduce_check(isum, (reduce_t)LAB_POISON_WORD, &r, 12, why, sizeof why));
    cr_assert(strstr(why, "never written") != NULL, "the poison must be named as such: %s", why);
}

Test(reduce_host, kinds_parse)
{
    reduce_kind k;
    cr_assert_eq(reduce_parse_kind("max", "float", &k), 0);
    cr_assert(k.op == REDUCE_MAX && k.type == REDUCE_FLOAT);
    cr_assert_eq(reduce_parse_kind("prod", "int", &k), -1);
    cr_assert_eq(reduce_parse_kind("sum", "double", &k), -1);
}
