/* co_rank.c - ch12 step 1: co_rank and merge_sequential on the host against
 * brute-force definitions (these run in CI), and co_rank_kernel on the GPU
 * for every output rank. Keys are tagged (merge.h), so ties are visible. */
#include <string.h>

#include "co_rank.h"
#include "lab_test.h"
#include "merge_ref.h"

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

/* Small random inputs with many ties: sizes 0..12 each side, keys 1..4. */
static void small_inputs(lab_rng *rng, int *A, int *m, int *B, int *n)
{
    *m = (int)lab_rng_below(rng, 13);
    *n = (int)lab_rng_below(rng, 13);
    const char *dist = merge_dists[lab_rng_below(rng, 6)];
    merge_make_inputs(dist, rng, A, *m, B, *n, 1);
    if (lab_rng_below(rng, 2)) { /* squeeze keys to 1..4 for dense ties */
        for (int i = 0; i < *m; i++)
            A[i] = (((A[i] >> 8) % 4 + 1) << 8) | (A[i] & 0xff);
        for (int j = 0; j < *n; j++)
            B[j] = (((B[j] >> 8) % 4 + 1) << 8) | (B[j] & 0xff);
        /* re-sort each side by key (insertion sort: tiny arrays) */
        for (int pass = 0; pass < 2; pass++) {
            int *X = pass ? B : A, len = pass ? *n : *m;
            for (int a = 1; a < len; a++)
                for (int b = a; b > 0 && MERGE_KEY(X[b - 1]) > MERGE_KEY(X[b]); b--) {
                    const int t = X[b];
                    X[b] = X[b - 1], X[b - 1] = t;
                }
        }
    }
}

Test(co_rank_host, matches_brute_force_for_every_k)
{
    int A[16], B[16];
    for (int s = 0; s < LAB_TEST_NSEEDS; s++) {
        lab_rng rng = lab_rng_seeded(lab_test_seeds[s]);
        for (int trial = 0; trial < 2000; trial++) {
            int m, n;
            small_inputs(&rng, A, &m, B, &n);
            for (int k = 0; k <= m + n; k++) {
                const int want = co_rank_brute(k, A, m, B, n);
                cr_assert_neq(want, -1, "brute force found no unique co-rank (k=%d m=%d n=%d)", k, m, n);
                const int got = co_rank(k, A, m, B, n);
                cr_assert_eq(got, want, "co_rank(k=%d) = %d, expected %d (m=%d n=%d seed=%llu trial=%d)%s", k, got,
                             want, m, n, (unsigned long long)lab_test_seeds[s], trial, lab_todo_note());
            }
        }
    }
}

Test(co_rank_host, book_example_figs_12_6_to_12_8)
{
    /* A = 1,7,8,9,10; B = 7,10,10,12: co-ranks of k = 0, 3, 6, 9 are 0, 2, 5, 5 (as the book walks them) */
    const int A[] = {1 << 8, 7 << 8, 8 << 8, 9 << 8, 10 << 8}, B[] = {7 << 8, 10 << 8, 10 << 8, 12 << 8};
    const int k[] = {0, 3, 4, 6, 9}, want[] = {0, 2, 3, 5, 5};
    for (int t = 0; t < 5; t++)
        cr_assert_eq(co_rank(k[t], A, 5, B, 4), want[t], "co_rank(k=%d) on the book's example: got %d, expected %d%s",
                     k[t], co_rank(k[t], A, 5, B, 4), want[t], lab_todo_note());
}

Test(merge_sequential_host, matches_reference_and_is_stable)
{
    int A[16], B[16], C[40], want[40];
    for (int s = 0; s < LAB_TEST_NSEEDS; s++) {
        lab_rng rng = lab_rng_seeded(lab_test_seeds[s]);
        for (int trial = 0; trial < 2000; trial++) {
            int m, n;
            small_inputs(&rng, A, &m, B, &n);
            for (int k = 0; k < 40; k++)
                C[k] = (int)0xA5A5A5A5; /* poison */
            merge_ref(A, m, B, n, want);
            merge_sequential(A, m, B, n, C);
            for (int k = 0; k < m + n; k++)
                cr_assert_eq(C[k], want[k],
                             "merge_sequential: C[%d] = %#x, expected %#x (m=%d n=%d seed=%llu trial=%d; low byte "
                             "tags origin: <0x80 from A)%s",
                             k, C[k], want[k], m, n, (unsigned long long)lab_test_seeds[s], trial, lab_todo_note());
            cr_assert_eq(C[m + n], (int)0xA5A5A5A5, "merge_sequential wrote past C[m+n] (m=%d n=%d)", m, n);
        }
    }
}

/* Every k = 0..m+n on the GPU against the reference co-ranks. */
static void check_kernel(int m, int n, const char *dist, uint64_t seed, int block)
{
    int *A = lab_xmalloc(sizeof(int) * (size_t)m), *B = lab_xmalloc(sizeof(int) * (size_t)n);
    const int count = m + n + 1;
    int *k = lab_xmalloc(sizeof(int) * (size_t)count), *want = lab_xmalloc(sizeof(int) * (size_t)count);
    int *got = lab_xmalloc(sizeof(int) * (size_t)count);
    lab_rng rng = lab_rng_seeded(seed);
    cr_assert_eq(merge_make_inputs(dist, &rng, A, m, B, n, 1), 0);
    for (int t = 0; t < count; t++)
        k[t] = count - 1 - t; /* descending, so a thread-index slip shows */
    merge_co_rank_ref(A, m, B, n, want);
    int *A_d = lab_dev_upload(A, sizeof(int) * (size_t)m), *B_d = lab_dev_upload(B, sizeof(int) * (size_t)n);
    int *k_d = lab_dev_upload(k, sizeof(int) * (size_t)count), *i_d = lab_dev_poisoned(sizeof(int) * (size_t)count);
    const char *why = co_rank_launch(A_d, m, B_d, n, k_d, i_d, count, block);
    cr_assert_null(why, "co_rank_launch refused: %s", why ? why : "");
    lab_dev_download(got, i_d, sizeof(int) * (size_t)count);
    for (int t = 0; t < count; t++)
        cr_assert_eq(got[t], want[k[t]], "co_rank_kernel: k=%d gave i=%d, expected %d (m=%d n=%d dist=%s seed=%llu block=%d)%s",
                     k[t], got[t], want[k[t]], m, n, dist, (unsigned long long)seed, block, lab_todo_note());
    lab_dev_free(A_d), lab_dev_free(B_d), lab_dev_free(k_d), lab_dev_free(i_d);
    free(A), free(B), free(k), free(want), free(got);
}

GPU_TEST(co_rank_gpu, every_k_small_and_odd_sizes)
{
    static const int sizes[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {5, 4}, {100, 37}, {1000, 999}, {4097, 3001}, {10000, 0}, {0, 10000}};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int d = 0; merge_dists[d] != NULL; d++)
            check_kernel(sizes[z][0], sizes[z][1], merge_dists[d], lab_test_seeds[(z + d) % LAB_TEST_NSEEDS],
                         z % 2 ? 96 : 256);
}

GPU_TEST(co_rank_gpu, every_k_of_2_pow_24)
{
    for (int s = 0; s < 2; s++)
        check_kernel(1 << 23, (1 << 23) + 3, s ? "dups" : "uniform", lab_test_seeds[s], 256);
}

GPU_TEST(co_rank_gpu, refuses_bad_block)
{
    int *d = lab_dev_poisoned(16);
    cr_assert_not_null(co_rank_launch(d, 1, d, 1, d, d, 1, 0), "block=0 must be refused");
    cr_assert_not_null(co_rank_launch(d, 1, d, 1, d, d, 1, 2048), "block=2048 must be refused");
    lab_dev_free(d);
}
