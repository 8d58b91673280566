/* step3-radix-multibit.c - step 3's own tests: every digit width r with three
 * block sizes, and every key type. */
#include "sort_test.h"

GPU_TEST(radix_multibit, every_r_from_1_to_8)
{
    static const int blocks[] = {64, 256, 1024};
    for (int r = 1; r <= SORT_MAX_RADIX_BITS; r++)
        for (int b = 0; b < 3; b++) {
            sort_params p = STEP->defaults;
            p.radix_bits = r, p.block = blocks[b];
            check_sort(r % 2 ? 65537 : 1001, sort_dists[(r + b) % 6], SORT_UINT, 1, lab_test_seed(r + b), &p);
            check_sort(30011, "uniform", (sort_type)(r % 3), 1, lab_test_seed(r), &p);
        }
}

/* A missing barrier in sort_by_digit (wrong variant
 * radix-multibit-no-split-barrier) lets a thread take the key at its position
 * before the split has stored it there: a key of the last split, or of an
 * earlier block, is taken twice. Several digit widths and blocks of many
 * warps, several launches: it shows every time. */
GPU_TEST(radix_multibit_races, a_missing_barrier_shows_every_time)
{
    static const int blocks[] = {1024, 256, 64}, bits[] = {4, 8, 1};
    for (int b = 0; b < 3; b++) {
        sort_params p = STEP->defaults;
        p.block = blocks[b], p.radix_bits = bits[b];
        check_sort_repeatedly(((int64_t)1 << 20) + 1000 * b + 7, 1, 8, lab_test_seed(b), &p);
    }
}
