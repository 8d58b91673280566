/* step1-simple.c - ch10 step 1's own tests: Fig 10.6's counts (--analyze)
 * and Fig 10.7's picture (--example), measured from the kernel; and the
 * sizes ./run --list-sizes gives for them (no GPU needed). */
#include "reduce_test.h"

/* ./run's output for args, which must exit 0 (skipped when ./run is not built beside this suite). */
static void expect_sizes(const char *args, const char *sizes)
{
    const char *run = lab_test_run_path();
    if (run == NULL)
        cr_skip_test("./run is not built beside this suite (make builds build/<step>/run with it)");
    char cmd[4400], out[512];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", run, args);
    const int rc = lab_test_command(cmd, out, sizeof out);
    cr_assert(rc == 0 && strcmp(out, sizes) == 0, "%s: exit %d, printed '%s', expected '%s'", cmd, rc, out, sizes);
}

/* --list-sizes waits for the defaults the options set: --analyze's two sizes, --example's 16, 2 x --block. */
Test(reduce, list_sizes_gives_the_defaults_the_options_set)
{
    expect_sizes("--analyze --list-sizes", "256\n2048\n");
    expect_sizes("--list-sizes --example", "16\n");
    expect_sizes("--list-sizes", "2048\n");
    expect_sizes("--block 128 --list-sizes", "256\n");
    expect_sizes("-n 512 --analyze --list-sizes", "512\n");
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
