/* reduce.c - ch10, every step. CPU tests of the operator, its identity, the
 * reference, the inputs, the float bound, the book's analysis tables, the
 * --example picture and the step's own launch check run in CI. GPU tests run
 * the step's launcher on what its descriptor (reduce_step_info) says it takes:
 * the book's single-block steps on every size one block allows (and the
 * refusals of the others); the others on empty, tiny, odd and >= 2^24 inputs,
 * for every kind, block size, coarse factor and form they take. A step's own
 * tests (the --analyze counts, its picture) are in tests/ch10-reduction/<step>.c. */
#include <string.h>

#include "reduce_test.h"

static const reduce_kind all_kinds[6] = {
    {.op = REDUCE_SUM, .type = REDUCE_INT},   {.op = REDUCE_MAX, .type = REDUCE_INT},
    {.op = REDUCE_MIN, .type = REDUCE_INT},   {.op = REDUCE_SUM, .type = REDUCE_FLOAT},
    {.op = REDUCE_MAX, .type = REDUCE_FLOAT}, {.op = REDUCE_MIN, .type = REDUCE_FLOAT},
};
const reduce_kind reduce_test_float_sum = {.op = REDUCE_SUM, .type = REDUCE_FLOAT};
#define float_sum reduce_test_float_sum
#define STEP      (&reduce_step_info)

/* ---- what the step says it takes --------------------------------------------------- */

static int takes(unsigned option)
{
    return (STEP->takes & option) != 0;
}

static int takes_kind(reduce_kind k)
{
    return lab_name_in(reduce_op_name(k.op), reduce_ops_taken(STEP)) &&
           lab_name_in(reduce_type_name(k.type), reduce_types_taken(STEP));
}

/* The forms to run: 1..count of its --variant names, or 0 when it has none. */
static int variant_count(void)
{
    int n = 0;
    while (takes(REDUCE_TAKES_VARIANT) && STEP->lab.variants[n] != NULL)
        n++;
    return n;
}

static int variant_at(int v)
{
    return variant_count() > 0 ? v : 0;
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
    const reduce_kind isum = all_kinds[0], imax = all_kinds[1], imin = all_kinds[2];
    const reduce_kind fmax_ = all_kinds[4], fmin_ = all_kinds[5];
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
            lab_rng rng = lab_rng_seeded(lab_test_seed(d));
            cr_assert_eq(reduce_make_input(reduce_dists[d], (reduce_type)t, &rng, x, n), 0);
            int neg = 0, pos = 0;
            for (int64_t i = 0; i < n; i++) {
                const double v = t ? reduce_as_float(x[i]) : x[i];
                cr_assert(v != 0.0 && fabs(v) <= 1000.0, "%s %s: x[%lld] = %g", reduce_dists[d], t ? "float" : "int",
                          (long long)i, v);
                neg += v<0, pos += v> 0;
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
    lab_rng rng = lab_rng_seeded(lab_test_seed(0));
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
        lab_rng rng = lab_rng_seeded(lab_test_seed(seed));
        reduce_make_input("uniform", REDUCE_FLOAT, &rng, x, n);
        reduce_ref_result r;
        reduce_ref(float_sum, x, n, &r);
        reduce_params p = {.kind = float_sum, .block = block, .coarsen = coarsen};
        cr_assert_null(reduce_coarsened_check(n, &p));
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
                  (unsigned long long)lab_test_seed(seed), fabs((double)total - r.sum), bound);
        cr_assert(bound < 0.5 * largest, "seed %llu: the bound %g would not see the largest element (%g) go missing",
                  (unsigned long long)lab_test_seed(seed), bound, largest);
        char why[256];
        cr_assert(!reduce_check(float_sum, reduce_float_bits((float)(r.sum - largest)), &r, reduce_tree_height(&p), why,
                                sizeof why),
                  "a sum missing its largest element must fail the check");
    }
    /* at 2^24 with the default launch (block 1024, coarsen 8: 1024 blocks) the bound is 6e-5 of sum |x| */
    const reduce_params big = {.kind = float_sum, .block = 1024, .grid = 1024, .coarsen = 8, .per_thread = 16};
    cr_assert(reduce_float_bound(1.0, reduce_tree_height(&big)) < 1e-4);
    free(x);
}

Test(reduce_host, a_never_written_output_says_so)
{
    reduce_t x[4] = {1, 2, 3, 4};
    reduce_ref_result r;
    char why[256];
    const reduce_kind isum = all_kinds[0];
    reduce_ref(isum, x, 4, &r);
    cr_assert(!reduce_check(isum, (reduce_t)LAB_POISON_WORD, &r, 12, why, sizeof why));
    cr_assert(strstr(why, "never written") != NULL, "the poison must be named as such: %s", why);
}

Test(reduce_host, kinds_parse)
{
    reduce_kind k;
    cr_assert_eq(reduce_parse_kind("max", "float", &k), 0);
    cr_assert(k.op == REDUCE_MAX && k.type == REDUCE_FLOAT);
    cr_assert_eq(reduce_parse_kind("prod", "int", &k), -1);
    cr_assert_eq(reduce_parse_kind("sum", "double", &k), -1);
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

/* ---- CPU: the book's analysis and the --example picture --------------------------- */

/* The book's printed number at this N, parsed ("66%" is 0.66); -1 when it prints none. */
static double printed_at(const reduce_book_row *row, int64_t n)
{
    const char *t = n == 256 ? row->at_256 : row->at_2048;
    if (t == NULL || t[0] < '0' || t[0] > '9')
        return -1.0;
    return strchr(t, '%') != NULL ? atof(t) / 100.0 : atof(t);
}

/* Where the book prints a number and gives a formula, the formula gives it (to
 * the printed digits): the table holds what the book says. (Fig 10.6's 736
 * agrees with its formula, not with the kernel: errata E10.1.) */
Test(reduce_host, the_books_formulas_give_the_numbers_it_prints)
{
    int compared = 0;
    for (int i = 0; i < reduce_book_nrows; i++) {
        const reduce_book_row *row = &reduce_book_rows[i];
        for (int64_t n = 256; n <= 2048; n *= 8) {
            const double printed = printed_at(row, n);
            if (row->formula_at == NULL || printed < 0)
                continue;
            const double f = row->formula_at((double)n), tolerance = printed < 1.0 ? 0.005 : 0.5;
            cr_assert(fabs(f - printed) <= tolerance, "%s, %s at N = %lld: the formula gives %g, the book prints %g",
                      row->book->figure, row->label, (long long)n, f, printed);
            compared++;
        }
    }
    cr_assert_eq(compared, 11, "the tables hold the printed numbers of sections 10.4-10.6");
}

/* Fig 10.7 on 8 elements, recorded by hand as the kernel would: thread t owns
 * element 2t; in the time step with stride s, threads t % s == 0 add 2t + s. */
Test(reduce_host, the_picture_is_drawn_from_the_records)
{
    reduce_counters *c = calloc(1, sizeof *c);
    for (int slot = 0; slot < 3; slot++)
        for (int t = 0; t < 4; t++)
            if (t % (1 << slot) == 0) {
                c->lanes[slot][0] |= 1u << t;
                c->element[slot][t][0] = 1 + 2 * t, c->element[slot][t][2] = 1 + 2 * t;
                c->element[slot][t][1] = 1 + 2 * t + (1 << slot);
            }
    int owner[8];
    reduce_picture_step rows[REDUCE_SLOTS];
    cr_assert_eq(reduce_example_picture(c, 1, 8, owner, rows), 3);
    const char *const elements[] = {"#+#+#+#+", "# + # + ", "#   +   "}, *const threads[] = {"####", "#.#.", "#..."};
    for (int k = 0; k < 3; k++) {
        cr_assert_str_eq(rows[k].elements, elements[k], "time step %d", k + 1);
        cr_assert_str_eq(rows[k].threads, threads[k], "time step %d", k + 1);
        cr_assert_eq(rows[k].stride, 1 << k);
        cr_assert_str_eq(rows[k].from, "input");
    }
    cr_assert(owner[0] == 0 && owner[1] == -1 && owner[2] == 1 && owner[6] == 3);
    free(c);
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

/* ---- GPU: a missing barrier fails every time ------------------------------------------ */

/* One shape of launch the race tests repeat. */
typedef struct {
    int64_t n;
    int block;
    int launches; /* back to back, each on its own input and into its own output */
} race_shape;

/* Memory traffic on a stream of its own (it does not wait for the launches,
 * nor they for it) while the launches run: it moves the moment each warp's
 * loads come back, so that one warp runs ahead of another far more often than
 * on an idle GPU. */
typedef struct {
    cudaStream_t stream;
    void *buf;
} race_noise;

enum { RACE_NOISE_BYTES = 64 << 20, RACE_NOISE_EVERY = 16 /* launches */ };

static race_noise race_noise_start(void)
{
    race_noise z;
    CUDA_CHECK(cudaStreamCreateWithFlags(&z.stream, cudaStreamNonBlocking));
    z.buf = lab_dev_poisoned(RACE_NOISE_BYTES, "noise_d");
    return z;
}

static void race_noise_stop(race_noise *z)
{
    CUDA_CHECK(cudaStreamSynchronize(z->stream));
    CUDA_CHECK(cudaStreamDestroy(z->stream));
    lab_dev_free(z->buf);
}

/* What a shape's launches gave: how many were wrong, and the first. */
typedef struct {
    int wrong, first;
    char detail[200];
    int64_t n;
    reduce_params p; /* as the last launch ran */
} race_result;

/* A missing barrier lets a read come before the write it waits for, which
 * one launch may never happen to do: shape->launches launches back to back,
 * every one checked. Every input is digits (1..9): a stale partial lacks a
 * positive contribution, so the exact sum comes out smaller; the launches
 * cycle through several inputs, so that a value left in shared memory by the
 * previous launch is wrong for this one. Steps 1-2 sum in place: each launch
 * has its own copy. Copies lie 256 bytes apart at least, as cudaMalloc aligns
 * (step 8 reads 16 bytes at a time). */
static race_result race_launches(const race_shape *shape, reduce_kind kind, int variant, uint64_t seed)
{
    enum { INPUTS = 7 };
    const int64_t n = shape->n, pitch = (n + 63) / 64 * 64;
    const int copies = STEP->one_block ? shape->launches : INPUTS;
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * (size_t)(pitch * copies));
    memset(x, LAB_POISON_BYTE, sizeof(reduce_t) * (size_t)(pitch * copies)); /* between the copies: never read */
    reduce_t *got = lab_xmalloc(sizeof(reduce_t) * (size_t)shape->launches);
    reduce_ref_result ref[INPUTS];
    lab_rng rng = lab_rng_seeded(seed);
    for (int i = 0; i < INPUTS; i++) {
        cr_assert_eq(reduce_make_input("digits", kind.type, &rng, x + i * pitch, n), 0);
        reduce_ref(kind, x + i * pitch, n, &ref[i]);
        cr_assert(ref[i].exact, "the race tests compare exact sums");
    }
    for (int c = INPUTS; c < copies; c++)
        memcpy(x + c * pitch, x + (c % INPUTS) * pitch, sizeof(reduce_t) * (size_t)n);
    reduce_t *in_d = lab_dev_upload(x, sizeof(reduce_t) * (size_t)(pitch * copies), "input_d");
    reduce_t *out_d = lab_dev_poisoned(sizeof(reduce_t) * (size_t)shape->launches, "output_d");
    race_noise noise = race_noise_start();
    race_result r = {.wrong = 0, .first = -1, .n = n};
    for (int k = 0; k < shape->launches; k++) {
        if (k % RACE_NOISE_EVERY == 0)
            CUDA_CHECK(cudaMemsetAsync(noise.buf, k / RACE_NOISE_EVERY, RACE_NOISE_BYTES, noise.stream));
        r.p = (reduce_params){.kind = kind, .block = shape->block, .coarsen = 1, .variant = variant};
        const char *why = reduce_launch(in_d + (k % copies) * pitch, n, out_d + k, &r.p);
        cr_assert_null(why, "%s refused n=%lld block=%d: %s", lab_step_name, (long long)n, shape->block, why);
    }
    char where[160];
    snprintf(where, sizeof where, "%d launches of %s, n=%lld block=%d variant=%d", shape->launches, lab_step_name,
             (long long)n, shape->block, variant);
    lab_test_finish(LAB_LAUNCH_DEADLINE, where);
    race_noise_stop(&noise);
    lab_dev_download(got, out_d, sizeof(reduce_t) * (size_t)shape->launches);
    for (int k = 0; k < shape->launches; k++) {
        char why[200];
        if (!reduce_check(kind, got[k], &ref[k % INPUTS], reduce_tree_height(&r.p), why, sizeof why) && r.wrong++ == 0)
            r.first = k, snprintf(r.detail, sizeof r.detail, "%s", why);
    }
    lab_dev_free(in_d), lab_dev_free(out_d), free(x), free(got);
    return r;
}

/* A race shows in some launches only: thousands of launches of several
 * shapes, every one checked, and every shape's count in the message. Steps
 * 1-3: one block of 64 to 1024 threads (a missing barrier lets one warp run
 * ahead of another). Steps 4-8: hundreds of blocks of 1024, 256 and 64
 * threads, two elements per thread (the most trees per launch; --coarsen 1),
 * N a multiple of the segment and not. An int sum of digits for steps 4-8,
 * a float sum for 1-3 (exact: every partial sum is an integer below 2^24). */
GPU_TEST(reduce_gpu, every_launch_of_thousands_is_right)
{
    static const race_shape one_block[] = {
        {.n = 2048, .block = 1024, .launches = 3000}, {.n = 1024, .block = 512, .launches = 3000},
        {.n = 512, .block = 256, .launches = 3000},   {.n = 256, .block = 128, .launches = 3000},
        {.n = 128, .block = 64, .launches = 3000},
    };
    static const race_shape many_blocks[] = {
        {.n = 1 << 20, .block = 1024, .launches = 200},
        {.n = (1 << 20) + 3, .block = 256, .launches = 200},
        {.n = (1 << 18) + 1, .block = 64, .launches = 200},
    };
    const reduce_kind sum = STEP->one_block ? float_sum : all_kinds[0];
    const race_shape *shapes = STEP->one_block ? one_block : many_blocks;
    const int nshapes = STEP->one_block ? 5 : 3;
    char counts[1024] = "";
    int wrong = 0, at = 0;
    race_result first = {.wrong = 0};
    for (int s = 0; s < nshapes; s++)
        for (int v = 1; v <= (variant_count() > 0 ? variant_count() : 1); v++) {
            const race_result r = race_launches(&shapes[s], sum, variant_at(v), lab_test_seed(s + v));
            if (r.wrong > 0 && wrong == 0)
                first = r;
            wrong += r.wrong;
            at +=
                snprintf(counts + at, sizeof counts - (size_t)at, "%s n=%lld block=%d%s%s: %d of %d", at > 0 ? ";" : "",
                         (long long)shapes[s].n, shapes[s].block, variant_count() > 0 ? " variant " : "",
                         variant_count() > 0 ? STEP->lab.variants[v - 1] : "", r.wrong, shapes[s].launches);
        }
    cr_assert(wrong == 0,
              "%s: launches gave a wrong sum, in some runs only: a barrier missing? (threads read partial sums "
              "other threads have not written yet). Wrong launches per shape:%s. The first: launch %d of n=%lld "
              "block=%d grid=%d: %s%s",
              lab_step_name, counts, first.first, (long long)first.n, first.p.block, first.p.grid, first.detail,
              lab_todo_note());
}

/* ---- GPU, for the steps' own files: --analyze and --example ------------------------- */

void reduce_test_counts(int64_t n, reduce_counters *c, reduce_analysis *a)
{
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * (size_t)n);
    lab_rng rng = lab_rng_seeded(lab_test_seed(0));
    reduce_make_input("digits", REDUCE_FLOAT, &rng, x, n);
    void *in_d = lab_dev_upload(x, sizeof(reduce_t) * (size_t)n, "input_d");
    void *out_d = lab_dev_poisoned(sizeof(reduce_t), "output_d");
    memset(c, 0, sizeof *c);
    c->base = (unsigned long long)(uintptr_t)in_d;
    reduce_params p = {
        .kind = float_sum, .block = 1024, .coarsen = 1, .counters = lab_dev_upload(c, sizeof *c, "counters_d")};
    cr_assert_null(reduce_launch(in_d, n, out_d, &p));
    lab_test_finish(LAB_LAUNCH_DEADLINE, "the counting launch (--analyze)");
    lab_dev_download(c, p.counters, sizeof *c);
    reduce_analyze_counts(c, STEP->book->strides_double, p.block, a);
    lab_dev_free(in_d), lab_dev_free(out_d), lab_dev_free(p.counters), free(x);
}

void reduce_test_expect_counts(int64_t n, long long warp_steps, long long results, long long requests, long long out,
                               long long divergent_steps)
{
    reduce_counters *c = calloc(1, sizeof *c);
    reduce_analysis a;
    reduce_test_counts(n, c, &a);
    cr_assert(a.warp_steps == warp_steps && a.results == results && a.requests_tree == requests &&
                  a.requests_out == out && a.divergent_steps == divergent_steps,
              "%s, N = %lld, --analyze counts: warps active %lld (want %lld), results %lld (want %lld), requests %lld "
              "(want %lld), after the tree %lld (want %lld), divergent steps %lld (want %lld)%s",
              lab_step_name, (long long)n, a.warp_steps, warp_steps, a.results, results, a.requests_tree, requests,
              a.requests_out, out, a.divergent_steps, divergent_steps, lab_todo_note());
    free(c);
}

void reduce_test_expect_picture(int64_t n, const char *const *elements, const char *const *threads, int steps)
{
    reduce_counters *c = calloc(1, sizeof *c);
    reduce_analysis a;
    reduce_test_counts(n, c, &a);
    int owner[REDUCE_EXAMPLE_MAX_N];
    reduce_picture_step rows[REDUCE_SLOTS];
    const int got = reduce_example_picture(c, STEP->book->strides_double, n, owner, rows);
    cr_assert_eq(got, steps, "%s, N = %lld: %d time steps, want %d", lab_step_name, (long long)n, got, steps);
    for (int k = 0; k < steps; k++)
        cr_assert(strcmp(rows[k].elements, elements[k]) == 0 && strcmp(rows[k].threads, threads[k]) == 0,
                  "%s, --example at N = %lld, time step %d: elements '%s' threads '%s', %s draws '%s' and '%s'%s",
                  lab_step_name, (long long)n, k + 1, rows[k].elements, rows[k].threads, STEP->book->picture,
                  elements[k], threads[k], lab_todo_note());
    free(c);
}
