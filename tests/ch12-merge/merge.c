/* merge.c - ch12's merge steps (2 on): every merge kernel against the stable
 * CPU merge, over the sizes, distributions, key types, values and parameter
 * sets the step's descriptor says it takes. Int keys are tagged (merge.h):
 * the raw order of equal keys is scrambled, so a tie taken from B first, out
 * of input order, or by raw value fails. The suite's other parts:
 * merge_races.c (races and reads past the end), merge_printed.c (the printed
 * bugs the step replays, each failing on its own input) and merge_cpu.c (on
 * the CPU: the checks, the workspace and the reference itself). A step's own
 * tests are in tests/ch12-merge/<step folder>.c. */
#include "merge_test.h"

int64_t merge_errors(const merge_inputs *in, const merge_params *p, char *first, size_t first_len)
{
    const int64_t total = in->m + in->n;
    const int values = in->A_values != NULL;
    int *C = lab_xmalloc(sizeof(int) * (size_t)total), *want = lab_xmalloc(sizeof(int) * (size_t)total);
    int *C_values = values ? lab_xmalloc(sizeof(int) * (size_t)total) : NULL;
    int *want_values = values ? lab_xmalloc(sizeof(int) * (size_t)total) : NULL;
    char buf[128];
    merge_ref(in, want, want_values);
    merge_args a = merge_upload(in, merge_temp_bytes(&merge_step_info, in->m, in->n, p));
    const char *why = merge_launch(&a, p);
    cr_assert_null(why, "merge_launch refused m=%lld n=%lld %s: %s", (long long)in->m, (long long)in->n,
                   params_str(p, buf, sizeof buf), why ? why : "");
    int64_t errors = -1;
    char where[200];
    snprintf(where, sizeof where, "m=%lld n=%lld %s", (long long)in->m, (long long)in->n,
             params_str(p, buf, sizeof buf));
    if (lab_test_finish(LAB_LAUNCH_DEADLINE, where) == cudaSuccess) {
        merge_download(&a, C, C_values);
        errors = merge_compare(in, C, C_values, want, want_values, 0, first, first_len).count;
        merge_free(&a);
    }
    free(C), free(want), free(C_values), free(want_values);
    return errors;
}

/* Fresh inputs of a distribution, of every kind the step merges (int keys,
 * and float keys and pairs where its descriptor says so); asserts C is
 * exactly the stable merge. */
static void check_merge(int64_t m, int64_t n, const char *dist, uint64_t seed, const merge_params *p)
{
    const merge_step *s = &merge_step_info;
    char buf[128], first[512];
    for (int is_float = 0; is_float <= ((s->takes & MERGE_TAKES_TYPE) != 0); is_float++)
        for (int values = 0; values <= s->takes_values; values++) {
            merge_inputs in;
            cr_assert_eq(merge_inputs_make(&in, dist, seed, m, n, is_float, values, MERGE_TAG_ORIGIN), 0);
            const int64_t errors = merge_errors(&in, p, first, sizeof first);
            cr_assert_eq(errors, 0, "%lld wrong outputs%s: first %s -- m=%lld n=%lld dist=%s type=%s %s seed=%llu %s%s",
                         (long long)errors, errors < 0 ? " (the kernel faulted)" : "", first, (long long)m,
                         (long long)n, dist, is_float ? "float" : "int", values ? "pairs" : "keys",
                         (unsigned long long)seed, params_str(p, buf, sizeof buf), lab_todo_note());
            merge_inputs_free(&in);
        }
}

static const int small_sizes[][2] = {{0, 0},      {1, 0},       {0, 1},     {1, 1},     {5, 4},        {100, 37},
                                     {1000, 999}, {4097, 3001}, {10000, 0}, {0, 10000}, {33000, 31000}};
#define NSMALL (sizeof small_sizes / sizeof small_sizes[0])

static void sweep_small(size_t param_first, size_t param_last)
{
    for (size_t q = param_first; q < param_last; q++)
        for (size_t z = 0; z < NSMALL && step_takes(param_set(q)); z++)
            for (int d = 0; merge_dists[d] != NULL; d++)
                check_merge(small_sizes[z][0], small_sizes[z][1], merge_dists[d], lab_test_seed((int)(z + d + q)),
                            param_set(q));
}

GPU_TEST(merge_gpu, small_and_odd_sizes_params_0_to_2)
{
    sweep_small(0, 3);
}
GPU_TEST(merge_gpu, small_and_odd_sizes_params_3_to_5_and_defaults)
{
    sweep_small(3, NPARAMS + 1);
}

/* Two large merges with each of three parameter sets (those the step takes; its defaults always). */
GPU_TEST(merge_gpu, at_least_2_pow_24_elements)
{
    const merge_params wide = {.block = 256, .grid = 0, .tile = 2048, .coarsen = 32};
    const merge_params odd = {.block = 96, .grid = 1001, .tile = 1000, .coarsen = 8};
    const merge_params *const sets[] = {&param_sets[0], &wide, &odd, &merge_step_info.defaults};
    for (int s = 0; s < 4; s++)
        if (step_takes(sets[s])) {
            check_merge((1 << 23) + 5, (1 << 23) - 3, s % 2 ? "dups" : "uniform", lab_test_seed(s), sets[s]);
            check_merge((1 << 24) - 7, 1 << 23, s % 2 ? "interleaved" : "a-above", lab_test_seed(s + 1), sets[s]);
        }
}

GPU_TEST(merge_gpu, duplicates_straddle_tile_and_block_boundaries)
{
    for (size_t q = 0; q <= NPARAMS; q++)
        for (int delta = -1; delta <= 1 && step_takes(param_set(q)); delta++) {
            const int m = 3 * param_set(q)->tile + delta, n = 5 * param_set(q)->tile - delta;
            check_merge(m, n, "dups", lab_test_seed((int)q), param_set(q));
            check_merge(m, n, "equal", lab_test_seed((int)q), param_set(q));
        }
}

/* Every key equal: the output must be all of A, in order, then all of B. */
GPU_TEST(merge_gpu, ties_take_A_first_and_keep_input_order)
{
    for (size_t q = 0; q <= NPARAMS; q++)
        if (step_takes(param_set(q))) {
            check_merge(5000, 3000, "equal", lab_test_seed(0), param_set(q));
            check_merge(70, 9000, "equal", lab_test_seed(1), param_set(q));
        }
}

GPU_TEST(merge_gpu, several_seeds_default_parameters)
{
    for (int s = 0; s < LAB_TEST_NSEEDS; s++)
        for (int d = 0; merge_dists[d] != NULL; d++) {
            if (step_takes(&param_sets[0]))
                check_merge(300000 + s, 200001, merge_dists[d], lab_test_seed(s), &param_sets[0]);
            check_merge(300000 + s, 200001, merge_dists[d], lab_test_seed(s), &merge_step_info.defaults);
        }
}
