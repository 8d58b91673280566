/* merge_cpu.c - ch12's merge steps (2 on), on the CPU (CI, no GPU): the
 * step's checks refuse what cannot run and take what its descriptor says,
 * its workspace is what it declares, and the reference itself is sorted,
 * stable and a permutation of its inputs, for pairs and float keys, with a
 * check that names a wrong tie and an output never written. Part of chapter
 * 12's merge suite (tests/ch12-merge/merge.c), linked with it into every
 * merge step's test binary. */
#include <string.h>

#include "merge_test.h"

Test(merge_params, refuses_what_cannot_run)
{
    const merge_step *s = &merge_step_info;
    merge_params zero_block = s->defaults, big_block = s->defaults, no_coarsen = s->defaults;
    const merge_params *ok = &s->defaults;
    const merge_args none = {.m = 100, .n = 100};
    zero_block.block = 0, big_block.block = 2048, no_coarsen.coarsen = 0;
    cr_assert_not_null(merge_check(s, 50, 50, 0, 0, &zero_block), "block 0 must be refused");
    cr_assert_not_null(merge_check(s, 50, 50, 0, 0, &big_block), "block 2048 must be refused");
    cr_assert_not_null(merge_launch(&none, &big_block), "merge_launch must refuse block 2048 before touching the GPU");
    if (s->takes & MERGE_TAKES_COARSEN)
        cr_assert_not_null(merge_check(s, 50, 50, 0, 0, &no_coarsen), "coarsen 0 must be refused");
    cr_assert_not_null(merge_check(s, (int64_t)1 << 30, (int64_t)1 << 30, 0, 0, ok), "m + n >= 2^31 must be refused");
    cr_assert_null(merge_check(s, 500000, 500000, 0, 0, ok), "the step's defaults must run");
    cr_assert_eq(merge_check(s, 50, 50, 1, 0, ok) == NULL, (s->takes & MERGE_TAKES_TYPE) != 0,
                 "float keys are taken exactly when the step takes --type");
    cr_assert_eq(merge_check(s, 50, 50, 0, 1, ok) == NULL, s->takes_values,
                 "values are taken exactly when the descriptor says so");
    cr_assert_eq(merge_grid(1000000, &param_sets[0]), ceil_div(1000000, 128 * 16),
                 "derived grid covers m + n with block * coarsen per block");
    cr_assert_eq(merge_temp_bytes(s, 50, 50, &big_block), merge_temp_bytes(s, 50, 50, ok),
                 "merge_temp_bytes checks nothing: its size does not depend on a refused block");
}

Test(merge_params, workspace_is_what_the_step_declares)
{
    const merge_step *s = &merge_step_info;
    const size_t bytes = merge_temp_bytes(s, 1000000, 700001, &s->defaults);
    if (s->tile_co_ranks)
        cr_assert_geq(bytes, sizeof(int) * ((size_t)ceil_div(1700001, s->defaults.tile) + 1),
                      "the co-rank of every tile boundary must fit the workspace");
    else
        cr_assert_eq(bytes, 0, "a step that declares no workspace needs none");
}

/* The reference on pairs and on float keys: sorted, a permutation of the
 * inputs, and stable (the values of equal keys rise: A's before B's). */
Test(merge_ref_host, pairs_and_floats_stable_for_every_distribution)
{
    static const int sizes[][2] = {{0, 0}, {1, 0}, {0, 1}, {7, 5}, {1000, 3}, {4096, 4095}};
    for (int is_float = 0; is_float < 2; is_float++)
        for (int d = 0; merge_dists[d] != NULL; d++)
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                merge_inputs in;
                const int64_t m = sizes[z][0], n = sizes[z][1], total = m + n;
                cr_assert_eq(
                    merge_inputs_make(&in, merge_dists[d], lab_test_seed((int)z), m, n, is_float, 1, MERGE_TAG_ORIGIN),
                    0);
                int *C = lab_xmalloc(sizeof(int) * (size_t)total), *V = lab_xmalloc(sizeof(int) * (size_t)total);
                char *seen = calloc((size_t)total + 1, 1);
                int nonzero = total == 0;
                merge_ref(&in, C, V);
                for (int64_t k = 0; k < total; k++) {
                    float f;
                    memcpy(&f, &C[k], sizeof f);
                    cr_assert(!is_float || f == f, "%s: a NaN key at C[%lld]", merge_dists[d], (long long)k);
                    nonzero |= is_float ? f != 0.0f : C[k] != 0;
                    cr_assert(V[k] >= 1 && V[k] <= total && !seen[V[k]],
                              "%s: C_values[%lld] = %d is not a fresh payload", merge_dists[d], (long long)k, V[k]);
                    seen[V[k]] = 1;
                    if (k > 0) {
                        cr_assert(merge_key_le(&in, C[k - 1], C[k]), "%s: C not sorted at %lld", merge_dists[d],
                                  (long long)k);
                        cr_assert(!merge_key_le(&in, C[k], C[k - 1]) || V[k - 1] < V[k],
                                  "%s: equal keys out of order at C[%lld] (float=%d)", merge_dists[d], (long long)k,
                                  is_float);
                    }
                }
                cr_assert(nonzero, "%s: every key is zero (float=%d)", merge_dists[d], is_float);
                free(C), free(V), free(seen);
                merge_inputs_free(&in);
            }
}

Test(merge_ref_host, float_keys_take_both_signs_and_tie_minus_zero)
{
    merge_inputs in;
    cr_assert_eq(merge_inputs_make(&in, "dups", lab_test_seed(0), 1200, 1300, 1, 1, MERGE_TAG_NONE), 0);
    int negative = 0, positive = 0, minus_zero = 0;
    for (int64_t j = 0; j < in.n; j++) {
        float f;
        memcpy(&f, &in.B[j], sizeof f);
        negative |= f<0.0f, positive |= f> 0.0f, minus_zero |= (uint32_t)in.B[j] == 0x80000000u;
    }
    cr_assert(negative && positive && minus_zero, "dups as floats: both signs and B's -0.0 expected");
    int *want = lab_xmalloc(sizeof(int) * 2501);
    merge_co_rank_ref(&in, want);
    cr_assert_eq(want[2500], 1200, "the last co-rank is m");
    free(want);
    merge_inputs_free(&in);
}

/* The check names a tie taken the wrong way, and an output never written. */
Test(merge_ref_host, compare_describes_wrong_ties_and_poison)
{
    int A[] = {5, 5, 9}, B[] = {5, 7}, want[5], got[5];
    char first[512];
    merge_tag(A, 3, 0, MERGE_TAG_ORIGIN), merge_tag(B, 2, 1, MERGE_TAG_ORIGIN);
    const merge_inputs in = {.m = 3, .n = 2, .tagged = MERGE_TAG_ORIGIN, .A = A, .B = B};
    merge_ref(&in, want, NULL);
    memcpy(got, want, sizeof got);
    got[1] = want[2], got[2] = want[1]; /* B's 5 before A's second 5 */
    lab_mismatch mm = merge_compare(&in, got, NULL, want, NULL, 0, first, sizeof first);
    cr_assert_eq(mm.count, 2);
    cr_assert(strstr(first, "from B[0]") != NULL && strstr(first, "wrong order") != NULL, "described as: %s", first);
    got[1] = want[1], got[2] = want[2], got[4] = (int)LAB_POISON_WORD;
    mm = merge_compare(&in, got, NULL, want, NULL, 0, first, sizeof first);
    cr_assert(mm.count == 1 && mm.first == 4 && strstr(first, "never written") != NULL, "described as: %s", first);
}
