/* step4-circular.c - ch12 step 4's own tests: Figs 12.19-12.20's circular
 * helpers on the host, with A and B laid into circular buffers at every
 * start, against the reference. Origin tags scramble the raw order of equal
 * keys (a raw comparison fails); zero tags make raw ties real ties, and each
 * co-rank is checked exactly. */
#include <string.h>

#include "circular.h"
#include "lab_test.h"
#include "merge_ref.h"

enum { T = 7 }; /* the buffers' size: every start 0..6 */

/* A and B laid into A_S and B_S from a0 and b0 (the rest poisoned); then every
 * co-rank and the merge through the circular helpers, against the reference. */
static void check_every_start(const merge_inputs *in, const int *want_co, const int *want, const char *what)
{
    const int m = (int)in->m, n = (int)in->n;
    int A_S[T], B_S[T], C[2 * T];
    char first[512];
    for (int a0 = 0; a0 < T; a0++)
        for (int b0 = 0; b0 < T; b0++) {
            for (int i = 0; i < T; i++)
                A_S[i] = B_S[i] = (int)LAB_POISON_WORD;
            for (int i = 0; i < m; i++)
                A_S[(a0 + i) % T] = in->A[i];
            for (int j = 0; j < n; j++)
                B_S[(b0 + j) % T] = in->B[j];
            for (int k = 0; k <= m + n; k++) {
                const int got = co_rank_circular(k, A_S, m, B_S, n, a0, b0, T);
                cr_assert_eq(got, want_co[k],
                             "co_rank_circular(k=%d) = %d, expected %d: m=%d n=%d A_S_start=%d B_S_start=%d "
                             "tile=%d, %s%s",
                             k, got, want_co[k], m, n, a0, b0, T, what, lab_todo_note());
            }
            for (int k = 0; k < 2 * T; k++)
                C[k] = (int)LAB_POISON_WORD;
            merge_sequential_circular(A_S, m, B_S, n, C, a0, b0, T);
            const lab_mismatch mm = merge_compare(in, C, NULL, want, NULL, 0, first, sizeof first);
            cr_assert_eq(mm.count, 0,
                         "merge_sequential_circular: first %s; m=%d n=%d A_S_start=%d B_S_start=%d tile=%d, %s%s",
                         first, m, n, a0, b0, T, what, lab_todo_note());
        }
}

static void check_circular(int tagged)
{
    int A[T], B[T], want_co[2 * T + 1], want[2 * T];
    char what[96];
    for (int s = 0; s < LAB_TEST_NSEEDS; s++) {
        lab_rng rng = lab_rng_seeded(lab_test_seeds[s]);
        for (int trial = 0; trial < 200; trial++) {
            const int m = (int)lab_rng_below(&rng, T + 1), n = (int)lab_rng_below(&rng, T + 1);
            const char *dist = merge_dists[trial % 6];
            const merge_inputs in = {.m = m, .n = n, .tagged = tagged, .A = A, .B = B};
            merge_make_inputs(dist, &rng, A, m, B, n, tagged);
            merge_co_rank_ref(&in, want_co);
            merge_ref(&in, want, NULL);
            snprintf(what, sizeof what, "dist=%s %s tags seed=%llu trial=%d", dist,
                     tagged == MERGE_TAG_ZERO ? "zero" : "origin", (unsigned long long)lab_test_seeds[s], trial);
            check_every_start(&in, want_co, want, what);
        }
    }
}

/* Figs 12.19-12.20 on the host: raw order of equal keys scrambled. A co-rank
 * whose two tests disagree on ties can loop forever: hence the timeout. */
Test(circular_host, co_rank_and_merge_match_linear_at_every_buffer_start, .timeout = 20.0)
{
    check_circular(MERGE_TAG_ORIGIN);
}

Test(circular_host, real_ties_every_co_rank_exact, .timeout = 20.0)
{
    check_circular(MERGE_TAG_ZERO);
}
