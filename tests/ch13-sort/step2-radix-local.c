/* step2-radix-local.c - step 2's own tests: the local sort in blocks of any
 * whole number of warps. */
#include "sort_test.h"

GPU_TEST(radix_local, block_sizes)
{
    static const int blocks[] = {32, 64, 96, 512, 1024};
    for (int b = 0; b < 5; b++) {
        sort_params p = STEP->defaults;
        p.block = blocks[b];
        for (int d = 0; sort_dists[d] != NULL; d++)
            check_sort(d % 2 ? 100003 : 4097, sort_dists[d], SORT_UINT, 1, lab_test_seed(b + d), &p);
    }
}

/* A missing barrier (wrong variant radix-local-no-barrier) lets a warp read
 * its block's split keys before other warps store theirs: the stale keys of
 * an earlier block then land in the output. Many blocks of many warps, every
 * pass, several launches: it shows every time. */
GPU_TEST(radix_local_races, a_missing_barrier_shows_every_time)
{
    static const int blocks[] = {1024, 256, 64};
    for (int b = 0; b < 3; b++) {
        sort_params p = STEP->defaults;
        p.block = blocks[b];
        check_sort_repeatedly(((int64_t)1 << 20) + 1000 * b + 7, 1, 8, lab_test_seed(b), &p);
    }
}
