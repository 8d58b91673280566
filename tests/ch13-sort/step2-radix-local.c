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
