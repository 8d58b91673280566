/* step3-shared.c - ch10 step 3's own tests: Fig 10.11's counts (--analyze),
 * Fig 10.10's picture (--example), and the input it leaves unchanged. */
#include <string.h>

#include "reduce_test.h"

GPU_TEST(reduce_gpu, analyze_counts_at_256_and_2048)
{
    reduce_test_expect_counts(256, 12, 255, 8, 1, 5); /* the book: N/32 + 1 = 9 requests with the write of *output */
    reduce_test_expect_counts(2048, 68, 2047, 64, 1, 5);
}

/* The first time step is the load: input[t] and input[t + 8] into input_s[t]; then Fig 10.8's tree in input_s. */
GPU_TEST(reduce_gpu, example_draws_fig_10_10)
{
    const char *const elements[] = {"########++++++++", "####++++        ", "##++            ", "#+              "};
    const char *const threads[] = {"########", "####....", "##......", "#......."};
    reduce_test_expect_picture(16, elements, threads, 4);
}

GPU_TEST(reduce_gpu, leaves_the_input_unchanged)
{
    const int64_t n = 2048;
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * n), *after = lab_xmalloc(sizeof(reduce_t) * n);
    lab_rng rng = lab_rng_seeded(lab_test_seeds[1]);
    reduce_make_input("digits", REDUCE_FLOAT, &rng, x, n);
    void *in_d = lab_dev_upload(x, sizeof(reduce_t) * n, "input_d"),
         *out_d = lab_dev_poisoned(sizeof(reduce_t), "output_d");
    reduce_params p = {.kind = reduce_test_float_sum, .block = 1024, .coarsen = 1};
    cr_assert_null(reduce_launch(in_d, n, out_d, &p));
    lab_dev_download(after, in_d, sizeof(reduce_t) * n);
    cr_assert_eq(memcmp(x, after, sizeof(reduce_t) * n), 0,
                 "section 10.6: the shared-memory kernel leaves input unchanged%s", lab_todo_note());
    lab_dev_free(in_d), lab_dev_free(out_d), free(x), free(after);
}
