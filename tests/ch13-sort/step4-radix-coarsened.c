/* step4-radix-coarsened.c - step 4's own tests: digit widths and coarsening
 * together, block sizes and tiles above the default shared memory, and a block
 * too large for the kernel's registers. */
#include <string.h>

#include "sort_test.h"

GPU_TEST(radix_coarsened, every_r_and_coarsening)
{
    static const int coarsen[] = {1, 2, 3, 5, 8, 16};
    for (int r = 1; r <= SORT_MAX_RADIX_BITS; r++)
        for (int c = 0; c < 6; c++) {
            sort_params p = STEP->defaults;
            p.radix_bits = r, p.coarsen = coarsen[c], p.block = c % 2 ? 128 : 256;
            check_sort(c % 2 ? 100003 : 7777, sort_dists[(r + c) % 6], SORT_UINT, (r + c) % 4 != 0,
                       lab_test_seed(r + c), &p);
        }
}

GPU_TEST(radix_coarsened, block_sizes_and_large_tiles)
{
    static const int blocks[] = {32, 96, 512, 512}, coarsen[] = {16, 7, 16, 5};
    for (int b = 0; b < 4; b++) {
        sort_params p = STEP->defaults;
        p.block = blocks[b], p.coarsen = coarsen[b]; /* 512 x 16: 64 KiB of keys, above the default shared memory */
        check_sort(b == 2 ? ((int64_t)1 << 20) + 77 : 200003, sort_dists[b + 1], SORT_UINT, 1, lab_test_seed(b), &p);
    }
}

GPU_TEST(radix_coarsened, a_block_too_large_for_the_registers_is_refused_or_runs)
{
    /* 16 keys (and values) per thread in registers: 1024 threads may not fit one SM's registers */
    sort_params p = STEP->defaults;
    p.block = 1024;
    unsigned int keys[4] = {4, 3, 2, 1};
    unsigned int *k_d = lab_dev_upload(keys, sizeof keys, "keys_in"),
                 *v_d = lab_dev_upload(keys, sizeof keys, "values_in");
    unsigned int *ok_d = lab_dev_poisoned(sizeof keys, "keys_out"), *ov_d = lab_dev_poisoned(sizeof keys, "values_out");
    void *temp = lab_dev_poisoned(sort_temp_bytes(STEP, 4, 1, &p), "temp_d (the workspace)");
    const char *why = sort_run(STEP, k_d, v_d, ok_d, ov_d, 4, temp, &p);
    CUDA_CHECK(cudaDeviceSynchronize()); /* a launch error would surface here */
    if (why != NULL)
        cr_assert(strstr(why, "threads") != NULL, "block=1024 refused with an unclear reason: %s", why);
    else
        check_sort(100003, "uniform", SORT_UINT, 1, lab_test_seed(0), &p);
    lab_dev_free(k_d), lab_dev_free(v_d), lab_dev_free(ok_d), lab_dev_free(ov_d), lab_dev_free(temp);
}

/* A missing barrier (wrong variant radix-coarsened-no-load-barrier, or one
 * after a split) lets a thread take keys other warps have not stored yet: the
 * stale keys of an earlier tile land in the output. Large and small tiles of
 * many warps, several launches: it shows every time. */
GPU_TEST(radix_coarsened_races, a_missing_barrier_shows_every_time)
{
    static const int blocks[] = {512, 256, 128}, coarsen[] = {16, 3, 8}, bits[] = {8, 4, 6};
    for (int b = 0; b < 3; b++) {
        sort_params p = STEP->defaults;
        p.block = blocks[b], p.coarsen = coarsen[b], p.radix_bits = bits[b];
        check_sort_repeatedly(((int64_t)1 << 20) + 1000 * b + 7, 1, 8, lab_test_seed(b), &p);
    }
}
