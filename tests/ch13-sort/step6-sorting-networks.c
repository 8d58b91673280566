/* step6-sorting-networks.c - step 6's own tests: its variants and tiles
 * refused or accepted without a GPU, odd-even transposition up to its 4096
 * keys, bitonic tiles, blocks and padding, and bitonic sort at 2^20 and above. */
#include "sort_test.h"

Test(sorting_networks, variants_tiles_and_limits_refused_without_a_gpu)
{
    sort_params p = STEP->defaults;
    p.variant = "quicksort";
    assert_refused(10, &p, "an unknown variant");
    p.variant = "odd-even";
    cr_assert_eq(sort_max_n(STEP, &p), 4096, "odd-even transposition sorts at most 4096 keys");
    cr_assert_null(sort_check(STEP, 4096, &p), "odd-even takes 4096 keys");
    assert_refused(4097, &p, "odd-even above 4096");
    p.variant = "bitonic";
    p.tile = 3;
    assert_refused(10, &p, "a tile that is not a power of two");
    p.tile = 1 << 17;
    assert_refused(10, &p, "a tile above 65536");
    p.tile = STEP->defaults.tile;
    cr_assert_null(sort_check(STEP, (int64_t)1 << 28, &p), "bitonic takes 2^28 keys");
    assert_refused(((int64_t)1 << 28) + 1, &p, "bitonic above 2^28");
}

/* --list-sizes gives the default within the variant's limit: odd-even's 4096, bitonic's 65536. */
Test(sorting_networks, list_sizes_gives_each_variants_default)
{
    lab_test_expect_run_prints("--variant odd-even --list-sizes", "4096\n");
    lab_test_expect_run_prints("--list-sizes", "65536\n");
}

GPU_TEST(sorting_networks, odd_even_transposition_up_to_4096)
{
    static const int64_t sizes[] = {0, 1, 2, 3, 33, 100, 1023, 2048, 4095, 4096};
    static const int blocks[] = {1, 32, 256, 1024};
    for (int z = 0; z < 10; z++)
        for (int d = 0; sort_dists[d] != NULL; d++) {
            sort_params p = STEP->defaults;
            p.variant = "odd-even", p.block = blocks[(z + d) % 4];
            check_sort(sizes[z], sort_dists[d], SORT_UINT, (z + d) % 2 == 0, lab_test_seed(z + d), &p);
        }
}

GPU_TEST(sorting_networks, bitonic_tiles_blocks_and_padding)
{
    static const int tiles[] = {2, 64, 2048, 8192}, blocks[] = {1, 32, 256, 1024};
    static const int64_t sizes[] = {5, 1000, 65536, 100003};
    for (int t = 0; t < 4; t++)
        for (int b = 0; b < 4; b++) {
            sort_params p = STEP->defaults;
            p.tile = tiles[t], p.block = blocks[b];
            check_sort(sizes[(t + b) % 4], sort_dists[(t + b) % 6], SORT_UINT, (t + b) % 2 == 0, lab_test_seed(t + b),
                       &p);
        }
}

GPU_TEST(sorting_networks, bitonic_at_2_pow_20_and_above)
{
    check_sort(((int64_t)1 << 20) + 3, "uniform", SORT_UINT, 1, lab_test_seed(0), &STEP->defaults);
    check_sort((int64_t)1 << 21, "few", SORT_INT, 1, lab_test_seed(1), &STEP->defaults);
}

/* A missing barrier between two strides of the bitonic network (wrong
 * variant bitonic-no-stride-barrier) lets a thread compare a pair another
 * thread has not swapped yet. Tiles of many warps, several launches: it shows
 * every time. */
GPU_TEST(sorting_networks_races, a_missing_barrier_shows_every_time)
{
    static const int blocks[] = {1024, 256, 128}, tiles[] = {8192, 2048, 1024};
    for (int b = 0; b < 3; b++) {
        sort_params p = STEP->defaults;
        p.block = blocks[b], p.tile = tiles[b];
        check_sort_repeatedly(((int64_t)1 << 20) - 1000 * b - 7, 1, 8, lab_test_seed(b), &p);
    }
    sort_params p = STEP->defaults;
    p.variant = "odd-even", p.block = 1024; /* its barrier is also its vote: __syncthreads_or */
    check_sort_repeatedly(4096, 1, 8, lab_test_seed(3), &p);
}
