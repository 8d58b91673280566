/* step2-convergent.c - ch10 step 2's own tests: Fig 10.9's counts
 * (--analyze) and Fig 10.8's picture (--example), measured from the kernel. */
#include "reduce_test.h"

GPU_TEST(reduce_gpu, analyze_counts_at_256_and_2048)
{
    reduce_test_expect_counts(256, 12, 255, 36, 2, 5);
    reduce_test_expect_counts(2048, 68, 2047, 204, 2, 5);
}

GPU_TEST(reduce_gpu, example_draws_fig_10_8)
{
    const char *const elements[] = {"########++++++++", "####++++        ", "##++            ", "#+              "};
    const char *const threads[] = {"########", "####....", "##......", "#......."};
    reduce_test_expect_picture(16, elements, threads, 4);
}
