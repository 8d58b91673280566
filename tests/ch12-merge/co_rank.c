/* co_rank.c - ch12 step 1: co_rank and merge_sequential on the host against
 * their definitions (these run in CI), and co_rank_kernel on the GPU for
 * every output rank. Values are tagged (merge.h, merge_ref.h): with origin
 * tags the raw order of equal keys is scrambled, so only code that compares
 * keys through MERGE_KEY and takes ties from A passes; with zero tags raw
 * values tie exactly where keys do, and each co-rank is checked exactly. */
#include <string.h>

#include "co_rank.h"
#include "lab_test.h"
#include "merge_host.h"
#include "merge_ref.h"

/* Host tests get a timeout: a co_rank whose two tests disagree on ties can loop forever. */
#define HOST_TIMEOUT 20.0

/* The definition, by exhaustion: the one i in [max(0,k-n), min(k,m)] with
 * A[i-1] <= B[j] and B[j-1] < A[i], j = k - i (a missing side always holds).
 * Returns -1 when none or several satisfy it. */
static int co_rank_brute(int k, const int *A, int m, const int *B, int n)
{
    int found = -1, hits = 0;
    for (int i = k - n > 0 ? k - n : 0; i <= (k < m ? k : m); i++) {
        const int j = k - i;
        const int left_ok = i == 0 || j == n || MERGE_KEY(A[i - 1]) <= MERGE_KEY(B[j]);
        const int right_ok = j == 0 || i == m || MERGE_KEY(B[j - 1]) < MERGE_KEY(A[i]);
        if (left_ok && right_ok)
            found = i, hits++;
    }
    return hits == 1 ? found : -1;
}

/* Small random inputs with many ties in in (over A[16], B[16]): sizes 0..12
 * each side, any distribution, keys often squeezed to 1..4; tags as `tagged`. */
static void small_inputs(lab_rng *rng, int tagged, merge_inputs *in, int *A, int *B)
{
    const int m = (int)lab_rng_below(rng, 13), n = (int)lab_rng_below(rng, 13);
    const merge_inputs made = {.m = m, .n = n, .tagged = tagged, .A = A, .B = B};
    *in = made;
    merge_make_inputs(merge_dists[lab_rng_below(rng, 6)], rng, A, m, B, n, tagged);
    if (lab_rng_below(rng, 2)) { /* squeeze keys to 1..4 for dense ties, keeping each tag */
        for (int pass = 0; pass < 2; pass++) {
            int *X = pass ? B : A;
            const int len = pass ? n : m;
            for (int i = 0; i < len; i++)
                X[i] = ((MERGE_KEY(X[i]) % 4 + 1) << 8) | (X[i] & 0xff);
            for (int a = 1; a < len; a++) /* re-sort by key (insertion sort: tiny arrays) */
                for (int b = a; b > 0 && MERGE_KEY(X[b - 1]) > MERGE_KEY(X[b]); b--) {
                    const int t = X[b];
                    X[b] = X[b - 1], X[b - 1] = t;
                }
        }
    }
}

/* "A[i-1] = key 3 from A[2], B[j] = key 3 from B[0]": the elements around a split, for messages. */
static const char *split_text(const merge_inputs *in, int k, int i, char *buf, size_t len)
{
    char a[96] = "none", b[96] = "none", a1[96] = "none", b1[96] = "none";
    const int j = k - i;
    if (i > 0 && i <= in->m)
        merge_describe_key(in, in->A[i - 1], a1, sizeof a1);
    if (i >= 0 && i < in->m)
        merge_describe_key(in, in->A[i], a, sizeof a);
    if (j > 0 && j <= in->n)
        merge_describe_key(in, in->B[j - 1], b1, sizeof b1);
    if (j >= 0 && j < in->n)
        merge_describe_key(in, in->B[j], b, sizeof b);
    snprintf(buf, len, "at the expected split i=%d j=%d: A[i-1] = %s, B[j] = %s, B[j-1] = %s, A[i] = %s", i, j, a1, b,
             b1, a);
    return buf;
}

static void check_co_ranks_on_small_inputs(int tagged, int against_definition)
{
    int A[16], B[16], want[40];
    char where[512];
    for (int s = 0; s < LAB_TEST_NSEEDS; s++) {
        lab_rng rng = lab_rng_seeded(lab_test_seeds[s]);
        for (int trial = 0; trial < 2000; trial++) {
            merge_inputs in;
            small_inputs(&rng, tagged, &in, A, B);
            const int m = (int)in.m, n = (int)in.n;
            merge_co_rank_ref(&in, want);
            for (int k = 0; k <= m + n; k++) {
                if (against_definition) {
                    const int brute = co_rank_brute(k, A, m, B, n);
                    cr_assert_eq(brute, want[k], "the definition and the reference disagree (k=%d m=%d n=%d)", k, m, n);
                }
                const int got = co_rank(k, A, m, B, n);
                cr_assert_eq(got, want[k],
                             "co_rank(k=%d) = %d, expected %d (m=%d n=%d, %s tags, seed=%llu trial=%d); %s%s", k, got,
                             want[k], m, n, tagged == MERGE_TAG_ZERO ? "zero" : "origin",
                             (unsigned long long)lab_test_seeds[s], trial,
                             split_text(&in, k, want[k], where, sizeof where), lab_todo_note());
            }
        }
    }
}

/* Origin tags: raw values of equal keys in scrambled order; only keys decide. */
Test(co_rank_host, matches_definition_for_every_k, .timeout = HOST_TIMEOUT)
{
    check_co_ranks_on_small_inputs(MERGE_TAG_ORIGIN, 1);
}

/* Zero tags: raw values tie exactly where keys do, so a tie rule that is not
 * "A first" (or two tests that disagree on ties) gives a wrong co-rank. */
Test(co_rank_host, real_ties_every_k_exact, .timeout = HOST_TIMEOUT)
{
    check_co_ranks_on_small_inputs(MERGE_TAG_ZERO, 1);
}

Test(co_rank_host, book_example_figs_12_6_to_12_8, .timeout = HOST_TIMEOUT)
{
    /* A = 1,7,8,9,10; B = 7,10,10,12: co-ranks of k = 0, 3, 4, 6, 9 are 0, 2, 3, 5, 5 (as the book walks them) */
    const int A[] = {1 << 8, 7 << 8, 8 << 8, 9 << 8, 10 << 8}, B[] = {7 << 8, 10 << 8, 10 << 8, 12 << 8};
    const int k[] = {0, 3, 4, 6, 9}, want[] = {0, 2, 3, 5, 5};
    for (int t = 0; t < 5; t++) {
        const int got = co_rank(k[t], A, 5, B, 4);
        cr_assert_eq(got, want[t], "co_rank(k=%d) on the book's example: got %d, expected %d%s", k[t], got, want[t],
                     lab_todo_note());
    }
}

Test(merge_sequential_host, matches_reference_and_is_stable, .timeout = HOST_TIMEOUT)
{
    int A[16], B[16], C[40], want[40];
    char first[512];
    for (int s = 0; s < LAB_TEST_NSEEDS; s++) {
        lab_rng rng = lab_rng_seeded(lab_test_seeds[s]);
        for (int trial = 0; trial < 2000; trial++) {
            merge_inputs in;
            small_inputs(&rng, MERGE_TAG_ORIGIN, &in, A, B);
            const int m = (int)in.m, n = (int)in.n;
            for (int k = 0; k < 40; k++)
                C[k] = (int)LAB_POISON_WORD;
            merge_ref(&in, want, NULL);
            merge_sequential(A, m, B, n, C);
            const lab_mismatch mm = merge_compare(&in, C, NULL, want, NULL, 0, first, sizeof first);
            cr_assert_eq(mm.count, 0, "merge_sequential: %lld wrong outputs, first %s (m=%d n=%d seed=%llu trial=%d)%s",
                         (long long)mm.count, first, m, n, (unsigned long long)lab_test_seeds[s], trial,
                         lab_todo_note());
            for (int k = m + n; k < 40; k++)
                cr_assert_eq(C[k], (int)LAB_POISON_WORD, "merge_sequential wrote C[%d], past C[m+n-1] (m=%d n=%d)%s", k,
                             m, n, lab_todo_note());
        }
    }
}

/* Every k = 0..m+n on the GPU against the reference co-ranks. */
static void check_kernel(int m, int n, const char *dist, uint64_t seed, int block, int tagged)
{
    merge_inputs in;
    const int count = m + n + 1;
    const merge_params p = {.block = block, .coarsen = 1};
    char where[512];
    cr_assert_eq(merge_inputs_make(&in, dist, seed, m, n, 0, 0, tagged), 0);
    int *k = lab_xmalloc(sizeof(int) * (size_t)count), *want = lab_xmalloc(sizeof(int) * (size_t)count);
    int *got = lab_xmalloc(sizeof(int) * (size_t)count);
    for (int t = 0; t < count; t++)
        k[t] = count - 1 - t; /* descending, so a thread-index slip shows */
    merge_co_rank_ref(&in, want);
    int *A_d = lab_dev_upload(in.A, sizeof(int) * (size_t)m, "A_d"),
        *B_d = lab_dev_upload(in.B, sizeof(int) * (size_t)n, "B_d");
    int *k_d = lab_dev_upload(k, sizeof(int) * (size_t)count, "k_d"),
        *i_d = lab_dev_poisoned(sizeof(int) * (size_t)count, "i_d");
    const char *why = co_rank_launch(A_d, m, B_d, n, k_d, i_d, count, &p);
    cr_assert_null(why, "co_rank_launch refused: %s", why ? why : "");
    snprintf(where, sizeof where, "co_rank_kernel, m=%d n=%d dist=%s seed=%llu block=%d", m, n, dist,
             (unsigned long long)seed, block);
    lab_test_finish(LAB_LAUNCH_DEADLINE, where); /* a search that never ends fails here; a fault, in the download */
    lab_dev_download(got, i_d, sizeof(int) * (size_t)count);
    for (int t = 0; t < count; t++)
        cr_assert_eq(
            got[t], want[k[t]],
            "co_rank_kernel: k=%d gave i=%d%s, expected %d (m=%d n=%d dist=%s %s tags seed=%llu block=%d); %s%s", k[t],
            got[t], lab_marker_meaning((uint32_t)got[t]), want[k[t]], m, n, dist,
            tagged == MERGE_TAG_ZERO ? "zero" : "origin", (unsigned long long)seed, block,
            split_text(&in, k[t], want[k[t]], where, sizeof where), lab_todo_note());
    lab_dev_free(A_d), lab_dev_free(B_d), lab_dev_free(k_d), lab_dev_free(i_d);
    merge_inputs_free(&in);
    free(k), free(want), free(got);
}

GPU_TEST(co_rank_gpu, every_k_small_and_odd_sizes)
{
    static const int sizes[][2] = {{0, 0},    {1, 0},      {0, 1},       {1, 1},     {5, 4},
                                   {100, 37}, {1000, 999}, {4097, 3001}, {10000, 0}, {0, 10000}};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int d = 0; merge_dists[d] != NULL; d++)
            for (int tagged = MERGE_TAG_ORIGIN; tagged <= MERGE_TAG_ZERO; tagged++)
                check_kernel(sizes[z][0], sizes[z][1], merge_dists[d], lab_test_seed((int)(z + d)), z % 2 ? 96 : 256,
                             tagged);
}

GPU_TEST(co_rank_gpu, every_k_of_2_pow_24)
{
    for (int s = 0; s < 2; s++)
        check_kernel(1 << 23, (1 << 23) + 3, s ? "dups" : "uniform", lab_test_seeds[s], 256,
                     s ? MERGE_TAG_ZERO : MERGE_TAG_ORIGIN);
}

/* The step's host checks refuse before anything touches a GPU. */
Test(co_rank_params, refuses_what_cannot_run)
{
    const merge_params zero = {.block = 0, .coarsen = 1}, big = {.block = 2048, .coarsen = 1};
    const merge_params fine = {.block = 256, .coarsen = 1};
    cr_assert_not_null(co_rank_launch(NULL, 1, NULL, 1, NULL, NULL, 3, &zero), "block=0 must be refused");
    cr_assert_not_null(co_rank_launch(NULL, 1, NULL, 1, NULL, NULL, 3, &big), "block=2048 must be refused");
    cr_assert_not_null(merge_check(&merge_step_info, MERGE_MAX_TOTAL - 5, 5, 0, 0, &fine),
                       "m + n + 1 co-ranks at or above 2^31 must be refused");
    cr_assert_null(merge_check(&merge_step_info, 1000, 1000, 0, 0, &fine));
    cr_assert_not_null(merge_check(&merge_step_info, 10, 10, 1, 0, &fine), "float keys: the book's step 1 merges ints");
}

/* ---- the wing's inputs (merge_ref.h), tested once, here -------------------------- */

Test(merge_inputs, sorted_never_all_zero_for_every_distribution)
{
    static const int sizes[][2] = {{0, 0}, {1, 0}, {0, 1}, {7, 5}, {1000, 3}, {4096, 4095}};
    for (int tagged = 0; tagged < 2; tagged++)
        for (int d = 0; merge_dists[d] != NULL; d++)
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                const int m = sizes[z][0], n = sizes[z][1];
                int *A = lab_xmalloc(sizeof(int) * (size_t)(m + 1)), *B = lab_xmalloc(sizeof(int) * (size_t)(n + 1));
                lab_rng rng = lab_rng_seeded(lab_test_seeds[z % LAB_TEST_NSEEDS]);
                cr_assert_eq(merge_make_inputs(merge_dists[d], &rng, A, m, B, n, tagged), 0);
                for (int pass = 0; pass < 2; pass++) {
                    const int *X = pass ? B : A, len = pass ? n : m;
                    for (int i = 0; i < len; i++) {
                        const int key = tagged ? X[i] >> 8 : X[i];
                        cr_assert(key >= 1, "%s: key %d at %d is not positive (tagged=%d)", merge_dists[d], key, i,
                                  tagged);
                        if (i > 0)
                            cr_assert((tagged ? X[i - 1] >> 8 : X[i - 1]) <= key, "%s: not sorted at %d (tagged=%d)",
                                      merge_dists[d], i, tagged);
                    }
                }
                if (strcmp(merge_dists[d], "a-below") == 0 && m > 0 && n > 0)
                    cr_assert(A[m - 1] < B[0], "a-below: A must lie entirely below B");
                if (strcmp(merge_dists[d], "a-above") == 0 && m > 0 && n > 0)
                    cr_assert(B[n - 1] < A[0], "a-above: A must lie entirely above B");
                free(A), free(B);
            }
    int A[4], B[4];
    lab_rng rng = lab_rng_seeded(1);
    cr_assert_eq(merge_make_inputs("nonsense", &rng, A, 4, B, 4, 0), -1, "unknown distributions are refused");
}

Test(merge_inputs, tagged_keys_stay_positive_at_2_pow_24)
{
    const int m = 1 << 23, n = 1 << 23;
    int *A = lab_xmalloc(sizeof(int) * (size_t)m), *B = lab_xmalloc(sizeof(int) * (size_t)n);
    for (int d = 0; merge_dists[d] != NULL; d++) {
        lab_rng rng = lab_rng_seeded(lab_test_seeds[0]);
        merge_make_inputs(merge_dists[d], &rng, A, m, B, n, 1);
        cr_assert(A[m - 1] > 0 && B[n - 1] > 0, "%s: tagged keys overflowed at 2^24", merge_dists[d]);
    }
    free(A), free(B);
}
