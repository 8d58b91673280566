/* reduce_launch.c - ch10, every step: the step's launcher run on what its
 * descriptor (reduce_step_info) says it takes. On the CPU (CI): the
 * descriptor is whole, the step's defaults pass its own launch check, and the
 * check refuses with the allowed range. On the GPU: the book's single-block
 * steps on every size one block allows (and the refusals of the others); the
 * others on empty, tiny, odd and >= 2^24 inputs, for every kind, block size,
 * coarse factor, grid and form they take, and the refusals of what they
 * cannot run. Part of chapter 10's suite (tests/ch10-reduction/reduce.c),
 * linked with it into every step's test binary. */
#include <string.h>

#include "reduce_test.h"

/* ---- what the step says it takes --------------------------------------------------- */

/* 1 when the step takes the kind's --op and --type. */
static int takes_kind(reduce_kind k)
{
    return lab_name_in(reduce_op_name(k.op), reduce_ops_taken(STEP)) &&
           lab_name_in(reduce_type_name(k.type), reduce_types_taken(STEP));
}

/* A given coarse factor, or the step's own where it takes no --coarsen. */
static int coarsen_or_default(int c)
{
    return takes(REDUCE_TAKES_COARSEN) ? c : STEP->coarsen;
}

/* 1 when the step's check accepts this launch. */
static int accepts(int64_t n, reduce_kind kind, int block, int coarsen, int variant, int grid)
{
    reduce_params p = {.kind = kind, .block = block, .grid = grid, .coarsen = coarsen, .variant = variant};
    return STEP->check(n, &p) == NULL;
}

/* ---- CPU: the step's descriptor and its launch check (no GPU) ---------------------- */

Test(reduce_host, the_descriptor_says_what_the_step_takes)
{
    cr_assert(STEP->check != NULL && STEP->lab.about != NULL && STEP->lab.about[0] != '\0',
              "%s: a step names its launch check and its --help paragraph", lab_step_name);
    cr_assert(takes(REDUCE_TAKES_DIST | REDUCE_TAKES_OP | REDUCE_TAKES_TYPE | REDUCE_TAKES_BLOCK),
              "every step takes --dist, --op, --type and --block");
    cr_assert(takes_kind(float_sum), "every step sums floats");
    cr_assert_eq(takes(REDUCE_TAKES_VARIANT), variant_count() > 0, "--variant goes with its names");
    cr_assert_eq(STEP->book != NULL, takes(REDUCE_TAKES_ANALYZE) && takes(REDUCE_TAKES_EXAMPLE),
                 "--analyze and --example go with the book's analysis of the figure");
    cr_assert(STEP->book == NULL || STEP->one_block, "the book analyses its single-block kernels");
    cr_assert_eq(takes(REDUCE_TAKES_COARSEN), STEP->coarsen > 1, "--coarsen goes with a coarse factor above 1");
    cr_assert(STEP->lab.max_n >= 2 && STEP->lab.max_n_why != NULL && STEP->block >= 1 && STEP->coarsen >= 1);
    cr_assert(STEP->lab.default_n >= 1 && STEP->lab.default_n <= STEP->lab.max_n);
}

Test(reduce_host, the_steps_defaults_pass_its_own_check)
{
    const int64_t n = STEP->one_block ? 2 * (int64_t)STEP->block : STEP->lab.default_n; /* as ./run picks it */
    reduce_params p = {.kind = float_sum, .block = STEP->block, .coarsen = STEP->coarsen, .variant = variant_at(1)};
    const char *why = STEP->check(n, &p);
    cr_assert_null(why, "%s refuses its own defaults (N = %lld): %s", lab_step_name, (long long)n, why ? why : "");
    cr_assert(p.grid >= 1 && p.block >= 1 && p.per_thread >= 1, "the check derives the launch");
    cr_assert(n <= STEP->lab.max_n);
}

Test(reduce_host, the_check_refuses_with_the_allowed_range)
{
    reduce_params p = {.kind = float_sum, .block = 48, .coarsen = STEP->coarsen};
    const char *why = STEP->check(STEP->one_block ? 1000 : 100, &p);
    cr_assert_not_null(why);
    if (STEP->one_block)
        cr_assert(strstr(why, "power of two from 2 to 2 x --block") != NULL, "the range of N: %s", why);
    else
        cr_assert(strstr(why, "--block must be") != NULL && strstr(why, "1024") != NULL, "the range of --block: %s",
                  why);
}

/* ---- GPU: the step's launcher ------------------------------------------------ */

void reduce_test_step(int64_t n, reduce_kind kind, const char *dist, uint64_t seed, int block, int coarsen, int variant,
                      int grid)
{
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * (size_t)(n > 0 ? n : 1));
    lab_rng rng = lab_rng_seeded(seed);
    cr_assert_eq(reduce_make_input(dist, kind.type, &rng, x, n), 0);
    reduce_ref_result ref;
    reduce_ref(kind, x, n, &ref);
    void *in_d = lab_dev_upload(x, sizeof(reduce_t) * (size_t)n, "input_d");
    void *out_d = lab_dev_poisoned(sizeof(reduce_t), "output_d");
    reduce_params p = {.kind = kind, .block = block, .grid = grid, .coarsen = coarsen, .variant = variant};
    const char *why = reduce_launch(in_d, n, out_d, &p);
    cr_assert_null(why, "%s refused n=%lld block=%d coarsen=%d variant=%d grid=%d: %s", lab_step_name, (long long)n,
                   block, coarsen, variant, grid, why ? why : "");
    char detail[256];
    snprintf(detail, sizeof detail, "%s n=%lld block=%d grid=%d coarsen=%d variant=%d", lab_step_name, (long long)n,
             p.block, p.grid, p.coarsen, variant);
    lab_test_finish(LAB_LAUNCH_DEADLINE, detail); /* a kernel that never ends fails here; a fault, in the download */
    reduce_t got;
    lab_dev_download(&got, out_d, sizeof got);
    const int ok = reduce_check(kind, got, &ref, reduce_tree_height(&p), detail, sizeof detail);
    cr_assert(ok, "%s, %s %s of n=%lld (dist=%s seed=%llu block=%d grid=%d coarsen=%d variant=%d): %s%s", lab_step_name,
              reduce_op_name(kind.op), reduce_type_name(kind.type), (long long)n, dist, (unsigned long long)seed,
              p.block, p.grid, p.coarsen, variant, detail, lab_todo_note());
    lab_dev_free(in_d), lab_dev_free(out_d), free(x);
}

/* The reason the launcher gives for refusing, NULL when it launched. */
static const char *refusal(int64_t n, reduce_kind kind, int block, int coarsen, int variant, int grid)
{
    void *in_d = lab_dev_poisoned(sizeof(reduce_t) * (size_t)(n > 0 ? n : 1), "input_d");
    void *out_d = lab_dev_poisoned(sizeof(reduce_t), "output_d");
    reduce_params p = {.kind = kind, .block = block, .grid = grid, .coarsen = coarsen, .variant = variant};
    const char *why = reduce_launch(in_d, n, out_d, &p);
    CUDA_CHECK(cudaDeviceSynchronize());
    lab_dev_free(in_d), lab_dev_free(out_d);
    return why;
}

/* The distribution that exposes a wrong identity for the kind: padding with 0
 * raises a max of negatives and lowers a min of positives. */
static const char *telling_dist(reduce_kind k, int i)
{
    if (k.op == REDUCE_MAX)
        return "negative";
    if (k.op == REDUCE_MIN)
        return "digits";
    return i % 2 ? "mixed" : "digits";
}

/* The block sizes the step takes, of 1, 2, 32, 64, 96, 256 and 1024. */
static int blocks_taken(int *blocks)
{
    static const int candidates[] = {1, 2, 32, 64, 96, 256, 1024};
    int count = 0;
    for (size_t b = 0; b < sizeof candidates / sizeof candidates[0]; b++)
        if (accepts(STEP->one_block ? 2 * candidates[b] : 100003, float_sum, candidates[b], coarsen_or_default(8),
                    variant_at(1), 0))
            blocks[count++] = candidates[b];
    return count;
}

GPU_TEST(reduce_gpu, every_size_the_step_takes)
{
    if (STEP->one_block) { /* one block of N/2 threads: N a power of two up to 2 x 1024 */
        const char *dists[] = {"digits", "mixed", "uniform"};
        for (int64_t n = 2; n <= 2048; n *= 2)
            for (int d = 0; d < 3; d++)
                for (int s = 0; s < LAB_TEST_NSEEDS; s++)
                    reduce_test_step(n, float_sum, dists[d], lab_test_seed(s) + (uint64_t)n, 1024, 1, 0, 0);
        return;
    }
    const int64_t sizes[] = {0,    1,    2,    3,    31,   32,   33,   255,   256,   257,    1000,
                             1023, 1024, 1025, 2047, 2048, 2049, 4097, 65535, 65537, 1000003};
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    int blocks[8];
    const int nblocks = blocks_taken(blocks);
    for (int k = 0; k < 6; k++)
        for (int z = 0; z < nsizes; z++)
            for (int v = 1; v <= (variant_count() > 0 ? variant_count() : 1); v++)
                reduce_test_step(sizes[z], all_kinds[k], telling_dist(all_kinds[k], z), lab_test_seed((k + z)),
                                 blocks[(k + z) % nblocks], coarsen_or_default(1 + (k + z) % 3), variant_at(v), 0);
}

GPU_TEST(reduce_gpu, every_block_size_and_coarse_factor)
{
    if (STEP->one_block) { /* a smaller block caps N at 2 x block */
        reduce_test_step(256, float_sum, "digits", lab_test_seed(0), 128, 1, 0, 0);
        reduce_test_step(64, float_sum, "negative", lab_test_seed(1), 128, 1, 0, 0);
        return;
    }
    const int coarse[] = {1, 2, 3, 8};
    int blocks[8];
    const int nblocks = blocks_taken(blocks), ncoarse = takes(REDUCE_TAKES_COARSEN) ? 4 : 1;
    for (int b = 0; b < nblocks; b++)
        for (int c = 0; c < ncoarse; c++)
            for (int v = 1; v <= (variant_count() > 0 ? variant_count() : 1); v++)
                for (int k = 0; k < 6; k++)
                    reduce_test_step(100003 + 17 * b, all_kinds[k], telling_dist(all_kinds[k], b + c),
                                     lab_test_seed((b + c)), blocks[b], coarsen_or_default(coarse[c]), variant_at(v),
                                     0);
}

GPU_TEST(reduce_gpu, the_largest_inputs_every_kind)
{
    if (STEP->one_block) { /* the largest N each block size takes, floats that round */
        const int blocks[] = {1, 64, 512, 1024};
        for (int b = 0; b < 4; b++)
            reduce_test_step(2 * (int64_t)blocks[b], float_sum, "uniform", lab_test_seed(b), blocks[b], 1, 0, 0);
        return;
    }
    for (int k = 0; k < 6; k++)
        for (int v = 1; v <= (variant_count() > 0 ? variant_count() : 1); v++)
            reduce_test_step(((int64_t)1 << 24) + (k % 2 ? 3 : 0), all_kinds[k], telling_dist(all_kinds[k], k),
                             lab_test_seed(k), 1024, coarsen_or_default(8), variant_at(v), 0);
    reduce_test_step((int64_t)1 << 24, float_sum, "uniform", lab_test_seed(2), 256, coarsen_or_default(4),
                     variant_at(2), 0);
    reduce_test_step(((int64_t)1 << 25) + 1, all_kinds[0], "uniform", lab_test_seed(1), 512, coarsen_or_default(2),
                     variant_at(1), 0);
}

GPU_TEST(reduce_gpu, given_grids)
{
    if (STEP->one_block) { /* one block, whatever grid is asked for */
        reduce_test_step(256, float_sum, "digits", lab_test_seed(2), 1024, 1, 0, 7);
        return;
    }
    if (STEP->check == reduce_grid_stride_check) { /* grid-stride: any grid covers N */
        const int grids[] = {1, 7, 1000};
        for (int g = 0; g < 3; g++)
            for (int v = 1; v <= (variant_count() > 0 ? variant_count() : 1); v++)
                reduce_test_step(300007, all_kinds[g], telling_dist(all_kinds[g], g), lab_test_seed(g), 256,
                                 coarsen_or_default(8), variant_at(v), grids[g]);
        return;
    }
    /* one segment per block: more blocks than needed are fine, fewer are refused */
    reduce_test_step(300007, all_kinds[1], "negative", lab_test_seed(0), 256, coarsen_or_default(8), 0, 2000);
    cr_assert_not_null(refusal(300007, all_kinds[0], 256, coarsen_or_default(8), 0, 3),
                       "a grid that does not cover N must be refused");
}

GPU_TEST(reduce_gpu, refuses_what_the_step_cannot_run)
{
    if (STEP->one_block) { /* what the book's kernels assume away */
        const int64_t bad_n[] = {0, 1, 3, 6, 1000, 2047, 2049, 4096};
        for (size_t i = 0; i < sizeof bad_n / sizeof bad_n[0]; i++)
            cr_assert_not_null(refusal(bad_n[i], float_sum, 1024, 1, 0, 0),
                               "%s must refuse N = %lld (one block of N/2 threads)", lab_step_name,
                               (long long)bad_n[i]);
        cr_assert_not_null(refusal(512, float_sum, 128, 1, 0, 0), "N = 512 > 2 x block = 256 must be refused");
    } else {
        const reduce_kind k = all_kinds[0];
        cr_assert_not_null(refusal(100, k, 0, STEP->coarsen, 0, 0), "block 0");
        cr_assert_not_null(refusal(100, k, 2048, STEP->coarsen, 0, 0), "block 2048");
        cr_assert_not_null(refusal(100, k, 48, STEP->coarsen, 0, 0), "a block the tree cannot use");
        if (takes(REDUCE_TAKES_COARSEN))
            cr_assert_not_null(refusal(100, k, 256, 0, 0, 0), "coarsen 0");
        if (variant_count() > 0)
            cr_assert_not_null(refusal(100, k, 256, 8, variant_count() + 1, 0), "a variant the step does not have");
        const reduce_kind bad = {.op = (reduce_op)7, .type = REDUCE_INT};
        cr_assert_not_null(refusal(100, bad, 256, STEP->coarsen, 0, 0), "an unknown operator");
    }
    for (int k = 0; k < 6; k++)
        if (!takes_kind(all_kinds[k]))
            cr_assert_not_null(refusal(STEP->one_block ? 2048 : 100, all_kinds[k], 1024, STEP->coarsen, 0, 0),
                               "%s takes no %s %s: it must be refused", lab_step_name, reduce_op_name(all_kinds[k].op),
                               reduce_type_name(all_kinds[k].type));
}
