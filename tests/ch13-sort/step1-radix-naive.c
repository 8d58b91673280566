/* step1-radix-naive.c - step 1's own tests: Fig 13.3's rows from the GPU, the
 * printed formula for a one failing on the book's keys, any block size, and
 * the lab's device scan on its own (common/ch13-sort/scan.cu, which step 1 is the first
 * to use). */
#include <string.h>

#include "scan.h"
#include "sort_test.h"

GPU_TEST(radix_naive, book_example_iteration_0_fig_13_3)
{
    /* Fig 13.3: bits, # ones before and destinations of iteration 0 */
    static const unsigned int ones_before[17] = {0, 0, 1, 1, 2, 3, 3, 4, 4, 5, 5, 6, 7, 7, 7, 8, 8};
    static const unsigned int dest[16] = {0, 8, 1, 9, 10, 2, 11, 3, 12, 4, 13, 14, 5, 6, 15, 7};
    sort_params p = STEP->defaults;
    p.block = 4; /* four blocks of four threads, as in Fig 13.2 */
    unsigned int got_bits[17], got_k[16], want_k[16];
    cr_assert_not_null(STEP->iter_launch, "step 1 runs one iteration on its own (sort_step_info.iter_launch)");
    unsigned int *k_d = lab_dev_upload(sort_book_keys, sizeof got_k, "keys_in");
    unsigned int *o_d = lab_dev_poisoned(sizeof got_k, "keys_out");
    unsigned int *b_d = lab_dev_poisoned(sizeof got_bits, "bits");
    void *temp = lab_dev_poisoned(scan_temp_bytes(16), "scan_temp");
    cr_assert_null(STEP->iter_launch(k_d, NULL, o_d, NULL, b_d, 16, 0, temp, &p));
    lab_dev_download(got_bits, b_d, sizeof got_bits);
    lab_dev_download(got_k, o_d, sizeof got_k);
    for (int i = 0; i < 16; i++)
        want_k[dest[i]] = sort_book_keys[i];
    for (int i = 0; i <= 16; i++)
        cr_assert_eq(got_bits[i], ones_before[i],
                     "Fig 13.3: ones before key %d = %u%s, expected %u (bits[16] is the total)%s", i, got_bits[i],
                     lab_marker_meaning(got_bits[i]), ones_before[i], lab_todo_note());
    for (int i = 0; i < 16; i++)
        cr_assert_eq(got_k[i], want_k[i],
                     "Fig 13.3: output[%d] = %u%s, expected %u (destinations 0 8 1 9 10 2 11 3 12 4 13 14 5 6 15 7)%s",
                     i, got_k[i], lab_marker_meaning(got_k[i]), want_k[i], lab_todo_note());
    lab_dev_free(k_d), lab_dev_free(o_d), lab_dev_free(b_d), lab_dev_free(temp);
}

GPU_TEST(radix_naive, printed_destination_of_a_one_fails_on_the_book_example)
{
    /* Fig 13.4 line 15 as printed: N - ones in total - ones before. The keys
     * collide (key 3 lands on 7, where a zero goes) and the sort fails. */
    sort_params p = STEP->defaults;
    p.block = 4;
    p.printed = 1;
    unsigned int got_k[16], want_k[16];
    memcpy(want_k, sort_book_keys, sizeof want_k);
    sort_ref(want_k, NULL, 16);
    unsigned int *k_d = lab_dev_upload(sort_book_keys, sizeof got_k, "keys_in");
    unsigned int *o_d = lab_dev_poisoned(sizeof got_k, "keys_out");
    void *temp = lab_dev_poisoned(sort_temp_bytes(STEP, 16, 0, &p), "temp_d (the workspace)");
    cr_assert_null(sort_run(STEP, k_d, NULL, o_d, NULL, 16, temp, &p));
    lab_dev_download(got_k, o_d, sizeof got_k);
    cr_assert(memcmp(got_k, want_k, sizeof got_k) != 0, "the printed formula must not sort the book's keys");
    p.printed = 0;
    check_sort(16, "uniform", SORT_UINT, 1, 1, &p);
    lab_dev_free(k_d), lab_dev_free(o_d), lab_dev_free(temp);
}

GPU_TEST(radix_naive, any_block_size)
{
    static const int blocks[] = {1, 4, 100, 1024};
    for (int b = 0; b < 4; b++) {
        sort_params p = STEP->defaults;
        p.block = blocks[b];
        check_sort(b == 0 ? 3001 : 70001, sort_dists[b], SORT_UINT, 1, lab_test_seed(b), &p);
    }
}

/* The lab's device scan on its own: sizes around its tile and its levels, in
 * place and not, values large enough to wrap. out holds n + 1 values: a write
 * past out[n] is caught by the buffer's guard (devmem.h). */
static void check_scan(int64_t n, int in_place, uint64_t seed)
{
    const size_t bytes = sizeof(unsigned int) * (size_t)(n + 1);
    unsigned int *x = lab_xmalloc(bytes), *want = lab_xmalloc(bytes), *got = lab_xmalloc(bytes);
    lab_rng rng = lab_rng_seeded(seed);
    for (int64_t i = 0; i < n; i++)
        x[i] = (i % 3 == 0) ? (unsigned int)(lab_rng_next(&rng) >> 32) : lab_rng_below(&rng, 4);
    x[n] = LAB_POISON_WORD;
    unsigned int sum = 0;
    for (int64_t i = 0; i <= n; i++) {
        want[i] = sum;
        if (i < n)
            sum += x[i];
    }
    unsigned int *in_d = lab_dev_upload(x, in_place ? bytes : bytes - sizeof(unsigned int), "in");
    unsigned int *out_d = in_place ? in_d : lab_dev_poisoned(bytes, "out");
    void *temp = lab_dev_poisoned(scan_temp_bytes(n), "scan_temp");
    cr_assert_null(scan_exclusive(in_d, out_d, n, temp));
    lab_dev_download(got, out_d, bytes);
    for (int64_t i = 0; i <= n; i++)
        if (got[i] != want[i])
            cr_assert_fail("scan: out[%lld] = %u%s, expected %u (n=%lld%s, seed=%llu; out[n] is the total)",
                           (long long)i, got[i], lab_marker_meaning(got[i]), want[i], (long long)n,
                           in_place ? " in place" : "", (unsigned long long)seed);
    lab_dev_free(in_d), lab_dev_free(temp);
    if (!in_place)
        lab_dev_free(out_d);
    free(x), free(want), free(got);
}

GPU_TEST(scan_gpu, exclusive_scan_around_tiles_and_levels)
{
    static const int64_t sizes[] = {0,
                                    1,
                                    2,
                                    31,
                                    SCAN_TILE - 1,
                                    SCAN_TILE,
                                    SCAN_TILE + 1,
                                    3 * SCAN_TILE + 7,
                                    (int64_t)SCAN_TILE * SCAN_TILE - 1,
                                    (int64_t)SCAN_TILE * SCAN_TILE + 5,
                                    ((int64_t)1 << 26) + 3};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int in_place = 0; in_place < 2; in_place++)
            check_scan(sizes[z], in_place, lab_test_seed((int)z + in_place));
}
