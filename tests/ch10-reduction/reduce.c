/* reduce.c - ch10, every step (built with -DLAB_STEP_NUM=N). CPU tests of the
 * operator, its identity, the reference, the inputs and the float bound run
 * in CI; GPU tests run the step's launcher: steps 1-3 on every size the book's
 * single block allows (and the refusals of the others) plus --analyze's counts
 * at N = 256 and 2048; steps 4-7 on empty, tiny, odd and >= 2^24 inputs, for
 * sum, max and min on int and float, block sizes, coarse factors and forms. */
#include <string.h>

#include "lab_test.h"
#include "reduce.h"
#include "reduce_ref.h"

#define STEP LAB_STEP_NUM

static const reduce_kind all_kinds[6] = {{REDUCE_SUM, REDUCE_INT},   {REDUCE_MAX, REDUCE_INT},
                                         {REDUCE_MIN, REDUCE_INT},   {REDUCE_SUM, REDUCE_FLOAT},
                                         {REDUCE_MAX, REDUCE_FLOAT}, {REDUCE_MIN, REDUCE_FLOAT}};
static const reduce_kind float_sum = {REDUCE_SUM, REDUCE_FLOAT};

/* ---- CPU: the operator, the identity, the reference, the bound ------------- */

Test(reduce_host, identity_is_neutral_for_every_kind)
{
    const float fs[] = {-3.5f, 0.25f, 1e30f, -1e30f, 7.0f};
    const int is[] = {-9, 1, 0x7fffffff, (int)0x80000000, 123456};
    for (int k = 0; k < 6; k++) {
        const reduce_kind kind = all_kinds[k];
        for (int v = 0; v < 5; v++) {
            const reduce_t x = kind.type == REDUCE_FLOAT ? reduce_float_bits(fs[v]) : is[v];
            cr_assert_eq(reduce_combine(kind, reduce_identity(kind), x), x, "%s %s: identity op x != x for x #%d",
                         reduce_op_name(kind.op), reduce_type_name(kind.type), v);
            cr_assert_eq(reduce_combine(kind, x, reduce_identity(kind)), x, "%s %s: x op identity != x for x #%d",
                         reduce_op_name(kind.op), reduce_type_name(kind.type), v);
        }
    }
}

Test(reduce_host, operator_is_sum_max_min_and_int_sums_wrap)
{
    const reduce_kind isum = {REDUCE_SUM, REDUCE_INT}, imax = {REDUCE_MAX, REDUCE_INT}, imin = {REDUCE_MIN, REDUCE_INT};
    const reduce_kind fmax_ = {REDUCE_MAX, REDUCE_FLOAT}, fmin_ = {REDUCE_MIN, REDUCE_FLOAT};
    cr_assert_eq(reduce_combine(isum, 7, -9), -2);
    cr_assert_eq(reduce_combine(isum, 0x7fffffff, 1), (int)0x80000000, "int sums wrap modulo 2^32, as the GPU adds");
    cr_assert_eq(reduce_combine(imax, -7, -9), -7);
    cr_assert_eq(reduce_combine(imin, -7, -9), -9);
    cr_assert_float_eq(reduce_as_float(reduce_combine(float_sum, reduce_float_bits(2.5f), reduce_float_bits(-1.0f))),
                       1.5f, 0.0f);
    cr_assert_eq(reduce_as_float(reduce_combine(fmax_, reduce_float_bits(-7.5f), reduce_float_bits(-9.0f))), -7.5f);
    cr_assert_eq(reduce_as_float(reduce_combine(fmin_, reduce_float_bits(-7.5f), reduce_float_bits(-9.0f))), -9.0f);
    cr_assert(isinf(reduce_as_float(reduce_identity(fmax_))) && reduce_as_float(reduce_identity(fmax_)) < 0,
              "the identity of a float max is -inf (section 10.1)");
}

Test(reduce_host, reference_on_the_books_examples)
{
    /* Fig 10.3: the max of 3 1 7 0 4 1 6 3 is 7; section 10.1: 7.0 + 2.1 + 5.3 + 9.0 + 11.2 = 34.6 */
    const int fig_10_3[] = {3, 1, 7, 0, 4, 1, 6, 3};
    const float s10_1[] = {7.0f, 2.1f, 5.3f, 9.0f, 11.2f};
    reduce_t x[8];
    reduce_ref_result r;
    reduce_ref(all_kinds[1], fig_10_3, 8, &r);
    cr_assert_eq(r.want, 7);
    cr_assert(r.exact);
    for (int i = 0; i < 5; i++)
        x[i] = reduce_float_bits(s10_1[i]);
    reduce_ref(float_sum, x, 5, &r);
    cr_assert(fabs(r.sum - 34.6) < 1e-5 && !r.exact, "34.6 from inputs that are not integers: checked with the bound");
    for (int k = 0; k < 6; k++) {
        reduce_ref(all_kinds[k], x, 0, &r);
        cr_assert_eq(r.want, reduce_identity(all_kinds[k]), "the reduction of nothing is the identity");
    }
}

Test(reduce_host, inputs_are_never_zero_and_stay_in_range)
{
    const int64_t n = 100003;
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * (size_t)n);
    for (int d = 0; reduce_dists[d] != NULL; d++)
        for (int t = 0; t < 2; t++) {
            lab_rng rng = lab_rng_seeded(lab_test_seeds[d % LAB_TEST_NSEEDS]);
            cr_assert_eq(reduce_make_input(reduce_dists[d], (reduce_type)t, &rng, x, n), 0);
            int neg = 0, pos = 0;
            for (int64_t i = 0; i < n; i++) {
                const double v = t ? reduce_as_float(x[i]) : x[i];
                cr_assert(v != 0.0 && fabs(v) <= 1000.0, "%s %s: x[%lld] = %g", reduce_dists[d], t ? "float" : "int",
                          (long long)i, v);
                neg += v < 0, pos += v > 0;
            }
            if (strcmp(reduce_dists[d], "digits") == 0)
                cr_assert(neg == 0, "digits are 1..9");
            if (strcmp(reduce_dists[d], "negative") == 0)
                cr_assert(pos == 0, "negative is -9..-1");
            if (strcmp(reduce_dists[d], "mixed") == 0 || strcmp(reduce_dists[d], "uniform") == 0)
                cr_assert(neg > n / 3 && pos > n / 3, "%s has both signs", reduce_dists[d]);
        }
    lab_rng rng = lab_rng_seeded(1);
    cr_assert_eq(reduce_make_input("nonsense", REDUCE_INT, &rng, x, 4), -1, "unknown distributions are refused");
    free(x);
}

Test(reduce_host, float_sums_are_exact_only_while_every_partial_sum_is)
{
    const int64_t n = 1 << 22;
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * (size_t)n);
    lab_rng rng = lab_rng_seeded(lab_test_seeds[0]);
    reduce_ref_result r;
    reduce_make_input("digits", REDUCE_FLOAT, &rng, x, n);
    reduce_ref(float_sum, x, 1 << 20, &r); /* at most 9 x 2^20 < 2^24 */
    cr_assert(r.exact, "integer inputs with sum |x| < 2^24 must match exactly");
    reduce_ref(float_sum, x, n, &r); /* about 5 x 2^22 > 2^24 */
    cr_assert(!r.exact, "above 2^24 a float sum rounds: the bound applies");
    reduce_make_input("uniform", REDUCE_FLOAT, &rng, x, 1000);
    reduce_ref(float_sum, x, 1000, &r);
    cr_assert(!r.exact);
    free(x);
}

/* Sums x in float in the order step 5 uses (per thread, tree, block after
 * block): its error must be within the bound, and the bound must be small
 * enough to see one element go missing. */
Test(reduce_host, float_bound_holds_for_the_steps_order_and_is_not_vacuous)
{
    const int64_t n = 100003;
    const int block = 256, coarsen = 8;
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * (size_t)n);
    float s[256];
    for (int seed = 0; seed < LAB_TEST_NSEEDS; seed++) {
        lab_rng rng = lab_rng_seeded(lab_test_seeds[seed]);
        reduce_make_input("uniform", REDUCE_FLOAT, &rng, x, n);
        reduce_ref_result r;
        reduce_ref(float_sum, x, n, &r);
        reduce_params p = {float_sum, block, 0, coarsen, 0, NULL, 2 * coarsen};
        cr_assert_null(reduce_set_grid(n, 2 * (int64_t)coarsen * block, &p, 1));
        float total = 0.0f;
        double largest = 0.0;
        for (int b = 0; b < p.grid; b++) {
            for (int t = 0; t < block; t++) {
                float sum = 0.0f;
                for (int tile = 0; tile < 2 * coarsen; tile++) {
                    const int64_t i = (int64_t)2 * coarsen * block * b + t + (int64_t)tile * block;
                    if (i < n)
                        sum += reduce_as_float(x[i]);
                }
                s[t] = sum;
            }
            for (int stride = block / 2; stride >= 1; stride /= 2)
                for (int t = 0; t < stride; t++)
                    s[t] += s[t + stride];
            total += s[0];
        }
        for (int64_t i = 0; i < n; i++)
            largest = fabs(reduce_as_float(x[i])) > largest ? fabs(reduce_as_float(x[i])) : largest;
        const double bound = reduce_float_bound(r.sum_abs, reduce_tree_height(&p));
        cr_assert(fabs((double)total - r.sum) <= bound, "seed %llu: float error %g exceeds the bound %g",
                  (unsigned long long)lab_test_seeds[seed], fabs((double)total - r.sum), bound);
        cr_assert(bound < 0.5 * largest, "seed %llu: the bound %g would not see the largest element (%g) go missing",
                  (unsigned long long)lab_test_seeds[seed], bound, largest);
        char why[256];
        cr_assert(!reduce_check(float_sum, reduce_float_bits((float)(r.sum - largest)), &r, reduce_tree_height(&p), why,
                                sizeof why),
                  "a sum missing its largest element must fail the check");
    }
    /* at 2^24 with the default launch (block 1024, coarsen 8: 1024 blocks) the bound is 6e-5 of sum |x| */
    const reduce_params big = {float_sum, 1024, 1024, 8, 0, NULL, 16};
    cr_assert(reduce_float_bound(1.0, reduce_tree_height(&big)) < 1e-4);
    free(x);
}

Test(reduce_host, kinds_parse)
{
    reduce_kind k;
    cr_assert_eq(reduce_parse_kind("max", "float", &k), 0);
    cr_assert(k.op == REDUCE_MAX && k.type == REDUCE_FLOAT);
    cr_assert_eq(reduce_parse_kind("prod", "int", &k), -1);
    cr_assert_eq(reduce_parse_kind("sum", "double", &k), -1);
}

/* ---- GPU: the step's launcher ------------------------------------------------ */

/* Runs the step once on n elements of dist and checks the one result. */
static void check_step(int64_t n, reduce_kind kind, const char *dist, uint64_t seed, int block, int coarsen, int variant,
                       int grid)
{
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * (size_t)(n > 0 ? n : 1));
    lab_rng rng = lab_rng_seeded(seed);
    cr_assert_eq(reduce_make_input(dist, kind.type, &rng, x, n), 0);
    reduce_ref_result ref;
    reduce_ref(kind, x, n, &ref);
    void *in_d = lab_dev_upload(x, sizeof(reduce_t) * (size_t)n), *out_d = lab_dev_poisoned(sizeof(reduce_t));
    reduce_params p = {kind, block, grid, coarsen, variant, NULL, 0};
    const char *why = reduce_launch(in_d, n, out_d, &p);
    cr_assert_null(why, "step %d refused n=%lld block=%d coarsen=%d variant=%d grid=%d: %s", STEP, (long long)n, block,
                   coarsen, variant, grid, why ? why : "");
    reduce_t got;
    lab_dev_download(&got, out_d, sizeof got);
    char detail[256];
    const int ok = reduce_check(kind, got, &ref, reduce_tree_height(&p), detail, sizeof detail);
    cr_assert(ok, "step %d, %s %s of n=%lld (dist=%s seed=%llu block=%d grid=%d coarsen=%d variant=%d): %s%s", STEP,
              reduce_op_name(kind.op), reduce_type_name(kind.type), (long long)n, dist, (unsigned long long)seed, p.block,
              p.grid, coarsen, variant, detail, lab_todo_note());
    lab_dev_free(in_d), lab_dev_free(out_d), free(x);
}

/* The reason the launcher gives for refusing, NULL when it launched. */
static const char *refusal(int64_t n, reduce_kind kind, int block, int coarsen, int variant, int grid)
{
    void *in_d = lab_dev_poisoned(sizeof(reduce_t) * (size_t)n), *out_d = lab_dev_poisoned(sizeof(reduce_t));
    reduce_params p = {kind, block, grid, coarsen, variant, NULL, 0};
    const char *why = reduce_launch(in_d, n, out_d, &p);
    CUDA_CHECK(cudaDeviceSynchronize());
    lab_dev_free(in_d), lab_dev_free(out_d);
    return why;
}

#if STEP <= 3
/* Steps 1-3: one block of N/2 threads, N a power of two up to 2 x 1024. */
GPU_TEST(reduce_gpu, every_power_of_two_the_single_block_takes)
{
    const char *dists[] = {"digits", "mixed", "uniform"};
    for (int64_t n = 2; n <= 2048; n *= 2)
        for (int d = 0; d < 3; d++)
            for (int s = 0; s < LAB_TEST_NSEEDS; s++)
                check_step(n, float_sum, dists[d], lab_test_seeds[s] + (uint64_t)n, 1024, 1, 0, 0);
}

GPU_TEST(reduce_gpu, a_smaller_block_caps_n)
{
    check_step(256, float_sum, "digits", lab_test_seeds[0], 128, 1, 0, 0);
    check_step(64, float_sum, "negative", lab_test_seeds[1], 128, 1, 0, 0);
}

GPU_TEST(reduce_gpu, refuses_what_the_books_kernels_assume_away)
{
    const int64_t bad_n[] = {0, 1, 3, 6, 1000, 2047, 2049, 4096};
    void *in_d = lab_dev_poisoned(4 * 4096), *out_d = lab_dev_poisoned(4);
    for (size_t i = 0; i < sizeof bad_n / sizeof bad_n[0]; i++) {
        reduce_params p = {float_sum, 1024, 0, 1, 0, NULL, 0};
        cr_assert_not_null(reduce_launch(in_d, bad_n[i], out_d, &p), "step %d must refuse N = %lld (one block of N/2 threads)",
                           STEP, (long long)bad_n[i]);
    }
    reduce_params small = {float_sum, 128, 0, 1, 0, NULL, 0};
    cr_assert_not_null(reduce_launch(in_d, 512, out_d, &small), "N = 512 > 2 x block = 256 must be refused");
    for (int k = 0; k < 6; k++) {
        reduce_params p = {all_kinds[k], 1024, 0, 1, 0, NULL, 0};
        if (k != 3)
            cr_assert_not_null(reduce_launch(in_d, 2048, out_d, &p), "steps 1-3 are float sums: %s %s must be refused",
                               reduce_op_name(all_kinds[k].op), reduce_type_name(all_kinds[k].type));
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    lab_dev_free(in_d), lab_dev_free(out_d);
}

/* ./run --analyze: the instrumented kernel's counts, worked out by hand from
 * the figures (docs/ch10-reduction.md; where the book differs, errata). */
static void check_counts(int64_t n, long long warp_steps, long long results, long long requests, long long out,
                         long long divergent_steps)
{
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * (size_t)n);
    lab_rng rng = lab_rng_seeded(lab_test_seeds[0]);
    reduce_make_input("digits", REDUCE_FLOAT, &rng, x, n);
    void *in_d = lab_dev_upload(x, sizeof(reduce_t) * (size_t)n), *out_d = lab_dev_poisoned(sizeof(reduce_t));
    reduce_counters *c = calloc(1, sizeof *c);
    c->base = (unsigned long long)(uintptr_t)in_d;
    reduce_params p = {float_sum, 1024, 0, 1, 0, lab_dev_upload(c, sizeof *c), 0};
    cr_assert_null(reduce_launch(in_d, n, out_d, &p));
    lab_dev_download(c, p.counters, sizeof *c);
    reduce_analysis a;
    reduce_analyze_counts(c, STEP, p.block, &a);
    cr_assert(a.warp_steps == warp_steps && a.results == results && a.requests_tree == requests && a.requests_out == out &&
                  a.divergent_steps == divergent_steps,
              "step %d, N = %lld, --analyze counts: warps active %lld (want %lld), results %lld (want %lld), requests %lld "
              "(want %lld), after the tree %lld (want %lld), divergent steps %lld (want %lld)%s",
              STEP, (long long)n, a.warp_steps, warp_steps, a.results, results, a.requests_tree, requests, a.requests_out,
              out, a.divergent_steps, divergent_steps, lab_todo_note());
    lab_dev_free(in_d), lab_dev_free(out_d), lab_dev_free(p.counters), free(c), free(x);
}

GPU_TEST(reduce_gpu, analyze_counts_at_256_and_2048)
{
#if STEP == 1
    check_counts(256, 27, 255, 141, 2, 7); /* the book: 736 / 32 = 23 active warps; see errata */
    check_counts(2048, 223, 2047, 1149, 2, 10);
#elif STEP == 2
    check_counts(256, 12, 255, 36, 2, 5);
    check_counts(2048, 68, 2047, 204, 2, 5);
#else
    check_counts(256, 12, 255, 8, 1, 5); /* the book: N/32 + 1 = 9 requests with the write of *output */
    check_counts(2048, 68, 2047, 64, 1, 5);
#endif
}
#endif

#if STEP == 3
GPU_TEST(reduce_gpu, leaves_the_input_unchanged)
{
    const int64_t n = 2048;
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * n), *after = lab_xmalloc(sizeof(reduce_t) * n);
    lab_rng rng = lab_rng_seeded(lab_test_seeds[1]);
    reduce_make_input("digits", REDUCE_FLOAT, &rng, x, n);
    void *in_d = lab_dev_upload(x, sizeof(reduce_t) * n), *out_d = lab_dev_poisoned(sizeof(reduce_t));
    reduce_params p = {float_sum, 1024, 0, 1, 0, NULL, 0};
    cr_assert_null(reduce_launch(in_d, n, out_d, &p));
    lab_dev_download(after, in_d, sizeof(reduce_t) * n);
    cr_assert_eq(memcmp(x, after, sizeof(reduce_t) * n), 0, "section 10.6: the shared-memory kernel leaves input unchanged%s",
                 lab_todo_note());
    lab_dev_free(in_d), lab_dev_free(out_d), free(x), free(after);
}
#endif

#if STEP >= 4
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

#if STEP <= 5
static const int blocks[] = {1, 2, 32, 64, 256, 1024};
#else
static const int blocks[] = {32, 96, 256, 1024};
#endif
#define NBLOCKS (int)(sizeof blocks / sizeof blocks[0])
#if STEP >= 6
#define NVARIANTS 2
#else
#define NVARIANTS 1
#endif

GPU_TEST(reduce_gpu, empty_tiny_and_odd_sizes_every_kind)
{
    const int64_t sizes[] = {0, 1, 2, 3, 31, 32, 33, 255, 256, 257, 1000, 1023, 1024, 1025, 2047, 2048, 2049, 4097, 65535, 65537, 1000003};
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    for (int k = 0; k < 6; k++)
        for (int z = 0; z < nsizes; z++)
            for (int v = 1; v <= NVARIANTS; v++)
                check_step(sizes[z], all_kinds[k], telling_dist(all_kinds[k], z), lab_test_seeds[(k + z) % LAB_TEST_NSEEDS],
                           blocks[(k + z) % NBLOCKS], 1 + (k + z) % 3, STEP >= 6 ? v : 0, 0);
}

GPU_TEST(reduce_gpu, every_block_size_and_coarse_factor)
{
    const int coarse[] = {1, 2, 3, 8};
    for (int b = 0; b < NBLOCKS; b++)
        for (int c = 0; c < 4; c++)
            for (int v = 1; v <= NVARIANTS; v++)
                for (int k = 0; k < 6; k++)
                    check_step(100003 + 17 * b, all_kinds[k], telling_dist(all_kinds[k], b + c), lab_test_seeds[(b + c) % LAB_TEST_NSEEDS],
                               blocks[b], coarse[c], STEP >= 6 ? v : 0, 0);
}

GPU_TEST(reduce_gpu, two_pow_24_and_beyond_every_kind)
{
    for (int k = 0; k < 6; k++)
        for (int v = 1; v <= NVARIANTS; v++)
            check_step(((int64_t)1 << 24) + (k % 2 ? 3 : 0), all_kinds[k], telling_dist(all_kinds[k], k),
                       lab_test_seeds[k % LAB_TEST_NSEEDS], 1024, 8, STEP >= 6 ? v : 0, 0);
    check_step((int64_t)1 << 24, float_sum, "uniform", lab_test_seeds[2], 256, 4, STEP >= 6 ? 2 : 0, 0);
    check_step(((int64_t)1 << 25) + 1, all_kinds[0], "uniform", lab_test_seeds[1], 512, 2, STEP >= 6 ? 1 : 0, 0);
}

GPU_TEST(reduce_gpu, given_grids)
{
#if STEP >= 6
    const int grids[] = {1, 7, 1000}; /* grid-stride: any grid covers N */
    for (int g = 0; g < 3; g++)
        for (int v = 1; v <= 2; v++)
            check_step(300007, all_kinds[g], telling_dist(all_kinds[g], g), lab_test_seeds[g], 256, 8, v, grids[g]);
#else
    check_step(300007, all_kinds[1], "negative", lab_test_seeds[0], 256, 8, 0, 2000); /* more blocks than needed */
    cr_assert_not_null(refusal(300007, all_kinds[0], 256, 8, 0, 3), "a grid that does not cover N must be refused");
#endif
}

GPU_TEST(reduce_gpu, refuses_impossible_parameters)
{
    const reduce_kind k = all_kinds[0];
    cr_assert_not_null(refusal(100, k, 0, 8, 0, 0), "block 0");
    cr_assert_not_null(refusal(100, k, 2048, 8, 0, 0), "block 2048");
    cr_assert_not_null(refusal(100, k, STEP <= 5 ? 96 : 48, 8, 0, 0), "a block the tree cannot use");
    cr_assert_not_null(refusal(100, k, 256, 0, 0, 0), "coarsen 0");
#if STEP >= 6
    cr_assert_not_null(refusal(100, k, 256, 8, 3, 0), "variant 3");
#endif
    const reduce_kind bad = {(reduce_op)7, REDUCE_INT};
    cr_assert_not_null(refusal(100, bad, 256, 8, 0, 0), "an unknown operator");
}
#endif
