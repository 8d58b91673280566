/* step5-merge-sort.c - step 5's own tests: tile sizes and pass counts (odd and
 * even, so the ping-pong ends in the output either way), and many passes. */
#include "sort_test.h"

GPU_TEST(merge_sort, tile_sizes_and_pass_counts)
{
    static const int blocks[] = {32, 64, 256, 512}, coarsen[] = {1, 3, 8, 16};
    for (int b = 0; b < 4; b++)
        for (int c = 0; c < 4; c++) {
            sort_params p = STEP->defaults;
            p.block = blocks[b], p.coarsen = coarsen[c];
            const int64_t tile = (int64_t)p.block * p.coarsen;
            /* whole tiles, one more key, and an odd number of runs, so the passes ping-pong both ways */
            const int64_t sizes[] = {tile, tile + 1, 2 * tile, 5 * tile - 3, 8 * tile + 1};
            for (int z = 0; z < 5; z++)
                check_sort(sizes[z], sort_dists[(b + c + z) % 6], SORT_UINT, (b + z) % 2 == 0, lab_test_seed(b + c + z),
                           &p);
        }
}

GPU_TEST(merge_sort, many_passes_keys_only_and_pairs)
{
    sort_params p = STEP->defaults;
    p.block = 32, p.coarsen = 1; /* 32-key tiles: 15 merge passes for 2^20 keys */
    check_sort(((int64_t)1 << 20) - 5, "few", SORT_UINT, 1, lab_test_seed(0), &p);
    check_sort(((int64_t)1 << 20) + 5, "uniform", SORT_FLOAT, 0, lab_test_seed(1), &p);
}

/* A missing barrier (wrong variant merge-no-round-barrier, or one around a
 * merge pass's chunk) lets a thread read runs other threads are still
 * writing. Tiles of many warps, short and long runs, several launches: it
 * shows every time. */
GPU_TEST(merge_sort_races, a_missing_barrier_shows_every_time)
{
    static const int blocks[] = {1024, 256, 64}, coarsen[] = {2, 8, 16};
    for (int b = 0; b < 3; b++) {
        sort_params p = STEP->defaults;
        p.block = blocks[b], p.coarsen = coarsen[b];
        check_sort_repeatedly(((int64_t)1 << 20) + 1000 * b + 7, 1, 8, lab_test_seed(b), &p);
    }
}
