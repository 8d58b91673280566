/* merge.c - ch12 steps 2-5: every merge kernel against the stable CPU merge.
 * Keys are tagged (merge.h), so a tie taken from B first, or out of input
 * order, changes the output. Step-specific tests are compiled in by step. */
#include <string.h>

#include "lab_test.h"
#include "merge_ref.h"
#if LAB_STEP_NUM == 4
#include "circular.h"
#include "co_rank.h"
#endif

static const char *params_str(const merge_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "block=%d grid=%d tile=%d coarsen=%d printed=%d", p->block, p->grid, p->tile, p->coarsen,
             p->printed);
    return buf;
}

/* Runs the step on A, B and returns the number of wrong elements of C (or -1
 * if the kernel faulted, which only the printed variants may do). */
static int64_t merge_errors(const int *A, int m, const int *B, int n, const merge_params *p, int64_t *first,
                            int *got_first, int *want_first)
{
    const int64_t total = (int64_t)m + n;
    int *C = lab_xmalloc(sizeof(int) * (size_t)(total + 1)), *want = lab_xmalloc(sizeof(int) * (size_t)(total + 1));
    merge_ref(A, m, B, n, want);
    int *A_d = lab_dev_upload(A, sizeof(int) * (size_t)m), *B_d = lab_dev_upload(B, sizeof(int) * (size_t)n);
    int *C_d = lab_dev_poisoned(sizeof(int) * (size_t)(total + 1)); /* one guard element past the end */
    const char *why = merge_launch(A_d, m, B_d, n, C_d, p);
    char buf[128];
    cr_assert_null(why, "merge_launch refused m=%d n=%d %s: %s", m, n, params_str(p, buf, sizeof buf), why ? why : "");
    if (cudaDeviceSynchronize() != cudaSuccess) {
        free(C), free(want);
        return -1;
    }
    lab_dev_download(C, C_d, sizeof(int) * (size_t)(total + 1));
    int64_t errors = 0;
    *first = -1;
    for (int64_t k = 0; k < total; k++)
        if (C[k] != want[k] && errors++ == 0)
            *first = k, *got_first = C[k], *want_first = want[k];
    if (C[total] != (int)0xA5A5A5A5 && errors++ == 0) /* wrote past the end */
        *first = total, *got_first = C[total], *want_first = (int)0xA5A5A5A5;
    lab_dev_free(A_d), lab_dev_free(B_d), lab_dev_free(C_d);
    free(C), free(want);
    return errors;
}

/* Fresh tagged inputs of a distribution; asserts C is exactly the stable merge. */
static void check_merge(int m, int n, const char *dist, uint64_t seed, const merge_params *p)
{
    int *A = lab_xmalloc(sizeof(int) * (size_t)(m + 1)), *B = lab_xmalloc(sizeof(int) * (size_t)(n + 1));
    lab_rng rng = lab_rng_seeded(seed);
    cr_assert_eq(merge_make_inputs(dist, &rng, A, m, B, n, 1), 0);
    int64_t first = -1;
    int got = 0, want = 0;
    const int64_t errors = merge_errors(A, m, B, n, p, &first, &got, &want);
    char buf[128];
    cr_assert_eq(errors, 0,
                 "%lld wrong outputs (%s): first C[%lld] = %#x, expected %#x (key %d from %s #%d) — m=%d n=%d dist=%s "
                 "seed=%llu %s%s",
                 (long long)errors, errors < 0 ? "the kernel faulted" : "key<<8 | tag: tag < 0x80 from A",
                 (long long)first, got, want, want >> 8, (want & 0x80) ? "B" : "A", want & 0x7f, m, n, dist,
                 (unsigned long long)seed, params_str(p, buf, sizeof buf), lab_todo_note());
    free(A), free(B);
}

/* block, grid, tile, coarsen: powers of two and not, tiles that are and are not multiples of the block */
static const merge_params param_sets[] = {
    {128, 0, 1024, 16, 0}, {32, 0, 64, 2, 0}, {96, 7, 96, 3, 0}, {64, 0, 100, 5, 0}, {256, 0, 2048, 8, 0}, {33, 0, 50, 1, 0},
};
#define NPARAMS (sizeof param_sets / sizeof param_sets[0])

static const int small_sizes[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {5, 4}, {100, 37}, {1000, 999},
                                     {4097, 3001}, {10000, 0}, {0, 10000}, {33000, 31000}};
#define NSMALL (sizeof small_sizes / sizeof small_sizes[0])

static void sweep_small(size_t param_first, size_t param_last)
{
    for (size_t q = param_first; q < param_last; q++)
        for (size_t z = 0; z < NSMALL; z++)
            for (int d = 0; merge_dists[d] != NULL; d++)
                check_merge(small_sizes[z][0], small_sizes[z][1], merge_dists[d], lab_test_seeds[(z + d + q) % LAB_TEST_NSEEDS],
                            &param_sets[q]);
}

GPU_TEST(merge_gpu, small_and_odd_sizes_params_0_to_2) { sweep_small(0, 3); }
GPU_TEST(merge_gpu, small_and_odd_sizes_params_3_to_5) { sweep_small(3, NPARAMS); }

GPU_TEST(merge_gpu, at_least_2_pow_24_elements)
{
    const merge_params wide = {256, 0, 2048, 32, 0}, odd = {96, 1001, 1000, 8, 0};
    for (int s = 0; s < 2; s++) {
        check_merge((1 << 23) + 5, (1 << 23) - 3, s ? "dups" : "uniform", lab_test_seeds[s], &param_sets[0]);
        check_merge((1 << 24) - 7, 1 << 23, s ? "interleaved" : "a-above", lab_test_seeds[s + 1], s ? &wide : &odd);
    }
}

GPU_TEST(merge_gpu, duplicates_straddle_tile_and_block_boundaries)
{
    for (size_t q = 0; q < NPARAMS; q++)
        for (int delta = -1; delta <= 1; delta++) {
            const int m = 3 * param_sets[q].tile + delta, n = 5 * param_sets[q].tile - delta;
            check_merge(m, n, "dups", lab_test_seeds[q % LAB_TEST_NSEEDS], &param_sets[q]);
            check_merge(m, n, "equal", lab_test_seeds[q % LAB_TEST_NSEEDS], &param_sets[q]);
        }
}

/* Every key equal: the output must be all of A, in order, then all of B. */
GPU_TEST(merge_gpu, ties_take_A_first_and_keep_input_order)
{
    for (size_t q = 0; q < NPARAMS; q++) {
        check_merge(5000, 3000, "equal", lab_test_seeds[0], &param_sets[q]);
        check_merge(70, 9000, "equal", lab_test_seeds[1], &param_sets[q]);
    }
}

GPU_TEST(merge_gpu, several_seeds_default_parameters)
{
    for (int s = 0; s < LAB_TEST_NSEEDS; s++)
        for (int d = 0; merge_dists[d] != NULL; d++)
            check_merge(300000 + s, 200001, merge_dists[d], lab_test_seeds[s], &param_sets[0]);
}

Test(merge_params, refuses_what_cannot_run)
{
    int grid = -1;
    const merge_params zero_block = {0, 0, 1024, 4, 0}, big_block = {2048, 0, 1024, 4, 0}, no_coarsen = {128, 0, 1024, 0, 0};
    cr_assert_not_null(merge_check_params(&zero_block, 100, &grid), "block 0 must be refused");
    cr_assert_not_null(merge_check_params(&big_block, 100, &grid), "block 2048 must be refused");
    cr_assert_not_null(merge_check_params(&no_coarsen, 100, &grid), "coarsen 0 must be refused");
    cr_assert_not_null(merge_check_params(&param_sets[0], (int64_t)1 << 31, &grid), "m + n >= 2^31 must be refused");
    cr_assert_null(merge_check_params(&param_sets[0], 1000000, &grid));
    cr_assert_eq(grid, ceil_div(1000000, 128 * 16), "derived grid covers m + n with block * coarsen per block");
}

#if LAB_STEP_NUM >= 2 && LAB_STEP_NUM <= 4
/* The translator's counterexample (seed file 000, note on Fig 12.13): 2 blocks of 2 threads, tile 4. */
static const int tA[] = {0, 1, 4, 5, 5, 7, 8, 9}, tB[] = {1, 1, 3, 6, 6, 7, 9};

static int64_t run_fixed(const int *keysA, int m, const int *keysB, int n, merge_params p)
{
    int A[16], B[16], got = 0, want = 0;
    int64_t first = -1;
    for (int i = 0; i < m; i++)
        A[i] = (keysA[i] << 8) | i;
    for (int j = 0; j < n; j++)
        B[j] = (keysB[j] << 8) | 0x80 | j;
    return merge_errors(A, m, B, n, &p, &first, &got, &want);
}

GPU_TEST(merge_printed, translator_counterexample_passes_fixed_code)
{
    const merge_params p = {2, 2, 4, 4, 0};
    cr_assert_eq(run_fixed(tA, 8, tB, 7, p), 0, "A=0,1,4,5,5,7,8,9 B=1,1,3,6,6,7,9 block=2 grid=2 tile=4: wrong merge%s",
                 lab_todo_note());
}

GPU_TEST(merge_printed, printed_integer_ceil_loses_outputs)
{
    /* 15 outputs: over 2 blocks (steps 3, 4) (m+n)/gridDim.x = 7 leaves C[14] unwritten;
     * over 4 threads (step 2) (m+n)/(blockDim.x*gridDim.x) = 3 leaves C[12..14] */
    const merge_params fixed = {2, 2, 4, 4, 0}, printed = {2, 2, 4, 4, MERGE_PRINTED_CEIL};
    cr_assert_eq(run_fixed(tA, 8, tB, 7, fixed), 0, "fixed code must pass%s", lab_todo_note());
    cr_assert_neq(run_fixed(tA, 8, tB, 7, printed), 0, "the printed ceil((m+n)/gridDim.x) must lose outputs here");
}
#endif

#if LAB_STEP_NUM == 3
GPU_TEST(merge_printed, printed_consumed_count_reads_stale_tile)
{
    /* One block, tile 4: the second tile holds B = 5 then stale 2,3,4; the printed
     * co_rank(tile_size, A_S, tile_size, B_S, tile_size) counts 0 A consumed, not 3. */
    static const int A[] = {6, 7, 8, 9, 11, 12, 13, 14, 15, 16}, B[] = {1, 2, 3, 4, 5};
    const merge_params fixed = {2, 1, 4, 4, 0}, printed = {2, 1, 4, 4, MERGE_PRINTED_CONSUMED};
    cr_assert_eq(run_fixed(A, 10, B, 5, fixed), 0, "A=6..9,11..16 B=1..5 block=2 grid=1 tile=4: wrong merge%s",
                 lab_todo_note());
    cr_assert_neq(run_fixed(A, 10, B, 5, printed), 0, "the printed consumed count must fail on this input");
}
#endif

#if LAB_STEP_NUM == 4
GPU_TEST(merge_printed, printed_loader_rereads_held_elements)
{
    const merge_params printed = {2, 2, 4, 4, MERGE_PRINTED_LOADER};
    cr_assert_neq(run_fixed(tA, 8, tB, 7, printed), 0, "the printed loader (A_consumed) must fail the counterexample");
}

GPU_TEST(merge_printed, translator_fix_slip_bounds_B_by_A_length)
{
    /* A has 2 elements: the slip's min(B_S_consumed, A_length - B_loaded) records 2 of B loaded, not 4 */
    static const int A[] = {1, 50}, B[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    const merge_params fixed = {2, 1, 4, 4, 0}, slip = {2, 1, 4, 4, MERGE_PRINTED_NOTE_SLIP};
    cr_assert_eq(run_fixed(A, 2, B, 10, fixed), 0, "A=1,50 B=2..11 block=2 grid=1 tile=4: wrong merge%s", lab_todo_note());
    cr_assert_neq(run_fixed(A, 2, B, 10, slip), 0, "the translator's loader with A_length in B's bound must fail here");
}

/* Figs 12.19-12.20 on the host: A and B laid into circular buffers at every start. */
Test(circular_host, co_rank_and_merge_match_linear_at_every_buffer_start)
{
    enum { T = 7 };
    int A[T], B[T], A_S[T], B_S[T], C[2 * T], want[2 * T];
    for (int s = 0; s < LAB_TEST_NSEEDS; s++) {
        lab_rng rng = lab_rng_seeded(lab_test_seeds[s]);
        for (int trial = 0; trial < 200; trial++) {
            const int m = (int)lab_rng_below(&rng, T + 1), n = (int)lab_rng_below(&rng, T + 1);
            merge_make_inputs(merge_dists[trial % 6], &rng, A, m, B, n, 1);
            merge_ref(A, m, B, n, want);
            for (int a0 = 0; a0 < T; a0++)
                for (int b0 = 0; b0 < T; b0++) {
                    for (int i = 0; i < T; i++)
                        A_S[i] = B_S[i] = (int)0xA5A5A5A5;
                    for (int i = 0; i < m; i++)
                        A_S[(a0 + i) % T] = A[i];
                    for (int j = 0; j < n; j++)
                        B_S[(b0 + j) % T] = B[j];
                    for (int k = 0; k <= m + n; k++)
                        cr_assert_eq(co_rank_circular(k, A_S, m, B_S, n, a0, b0, T), co_rank(k, A, m, B, n),
                                     "co_rank_circular(k=%d) m=%d n=%d A_S_start=%d B_S_start=%d tile=%d seed=%llu%s", k, m,
                                     n, a0, b0, T, (unsigned long long)lab_test_seeds[s], lab_todo_note());
                    for (int k = 0; k < 2 * T; k++)
                        C[k] = (int)0xA5A5A5A5;
                    merge_sequential_circular(A_S, m, B_S, n, C, a0, b0, T);
                    for (int k = 0; k < m + n; k++)
                        cr_assert_eq(C[k], want[k],
                                     "merge_sequential_circular C[%d] = %#x, expected %#x; m=%d n=%d A_S_start=%d "
                                     "B_S_start=%d tile=%d seed=%llu%s",
                                     k, C[k], want[k], m, n, a0, b0, T, (unsigned long long)lab_test_seeds[s], lab_todo_note());
                }
        }
    }
}
#endif
