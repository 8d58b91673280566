/* step1-simple.c - ch10 step 1's own tests: Fig 10.6's counts (--analyze)
 * and Fig 10.7's picture (--example), measured from the kernel; and the
 * sizes ./run --list-sizes gives for them (no GPU needed). */
#include "reduce_test.h"

/* --list-sizes waits for the defaults the options set: --analyze's two sizes, --example's 16, 2 x --block. */
Test(reduce, list_sizes_gives_the_defaults_the_options_set)
{
    lab_test_expect_run_prints("--analyze --list-sizes", "256\n2048\n");
    lab_test_expect_run_prints("--list-sizes --example", "16\n");
    lab_test_expect_run_prints("--list-sizes", "2048\n");
    lab_test_expect_run_prints("--block 128 --list-sizes", "256\n");
    lab_test_expect_run_prints("-n 512 --analyze --list-sizes", "512\n");
}

GPU_TEST(reduce_gpu, analyze_counts_at_256_and_2048)
{
    reduce_test_expect_counts(256, 27, 255, 141, 2, 7); /* the book: 736 / 32 = 23 active warps; errata E10.1 */
    reduce_test_expect_counts(2048, 223, 2047, 1149, 2, 10);
}

GPU_TEST(reduce_gpu, example_draws_fig_10_7)
{
    const char *const elements[] = {"#+#+#+#+#+#+#+#+", "# + # + # + # + ", "#   +   #   +   ", "#       +       "};
    const char *const threads[] = {"########", "#.#.#.#.", "#...#...", "#......."};
    reduce_test_expect_picture(16, elements, threads, 4);
}
