/* sort.c - chapter 13's suite, built with every step: the step's sort on the
 * GPU against the CPU reference; what it needs to know of the step it asks
 * the step's descriptor (sort_step_info, sort.h). The suite's CPU tests (run
 * in CI, no GPU) are its parts: the transform, the reference, Fig 13.4's
 * iteration, the input distributions and the scan's temporaries in
 * tests/ch13-sort/sort_cpu.c, the step's descriptor and sort_run refusing bad
 * parameters before it touches the GPU in tests/ch13-sort/sort_step.c; each
 * step's own tests are in tests/ch13-sort/<step folder>.c.
 * GPU tests: the step's sort against the reference on every distribution,
 * sizes 0, 1, non-multiples of the block and tile and >= 2^24 (up to the
 * step's limit), int and float keys, several seeds; values are a distinct
 * payload per input position, so comparing them exactly checks stability
 * (equal keys keep their input order). check_sort_repeatedly is the steps'
 * race tests' (a missing barrier or fence shows every time over enough
 * launches). */
#include <string.h>

#include "sort_test.h"

const unsigned int sort_book_keys[16] = {12, 3, 6, 9, 15, 8, 5, 10, 9, 6, 11, 13, 4, 10, 7, 0};

const char *params_text(const sort_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "block=%d coarsen=%d bits=%d tile=%d variant=%s printed=%d type=%s", p->block, p->coarsen,
             p->radix_bits, p->tile, p->variant != NULL ? p->variant : "", p->printed, sort_type_name(p->type));
    return buf;
}

unsigned int sort_test_payload(int64_t i)
{
    return (unsigned int)i * SORT_TEST_PAYLOAD_MUL + SORT_TEST_PAYLOAD_ADD;
}

/* ---- GPU tests --------------------------------------------------------------- */

void check_output(const unsigned int *got_k, const unsigned int *got_v, const unsigned int *want_k,
                  const unsigned int *want_v, int64_t n, const char *context)
{
    for (int64_t i = 0; i < n; i++) {
        if (got_k[i] != want_k[i])
            cr_assert_fail("keys: out[%lld] = %#x%s, expected %#x (%s)%s", (long long)i, got_k[i],
                           lab_marker_meaning(got_k[i]), want_k[i], context, lab_todo_note());
        if (got_v != NULL && got_v[i] != want_v[i])
            cr_assert_fail("values: out[%lld] = %#x%s, expected %#x with key %#x: equal keys left their input order, "
                           "the sort is not stable (%s)%s",
                           (long long)i, got_v[i], lab_marker_meaning(got_v[i]), want_v[i], want_k[i], context,
                           lab_todo_note());
    }
}

/* One sort's buffers, for check_sort and check_sort_repeatedly: n keys of
 * `dist` (through the transform of `type`) with their payload values, the
 * stable reference of both, room for what comes back, and on the GPU the
 * inputs, the poisoned outputs and p's poisoned workspace (the values' device
 * buffers only with_values). */
typedef struct {
    size_t bytes, temp_bytes;
    unsigned int *keys, *values, *want_k, *want_v, *got_k, *got_v;
    unsigned int *k_d, *v_d, *ok_d, *ov_d;
    void *temp;
} sort_buffers;

static void sort_buffers_make(sort_buffers *c, int64_t n, const char *dist, sort_type type, int with_values,
                              uint64_t seed, const sort_params *p)
{
    const size_t bytes = c->bytes = sizeof(unsigned int) * (size_t)n;
    c->temp_bytes = sort_temp_bytes(STEP, n, with_values, p);
    c->keys = lab_xmalloc(bytes), c->values = lab_xmalloc(bytes), c->want_k = lab_xmalloc(bytes);
    c->want_v = lab_xmalloc(bytes), c->got_k = lab_xmalloc(bytes), c->got_v = lab_xmalloc(bytes);
    lab_rng rng = lab_rng_seeded(seed);
    cr_assert_eq(sort_make_keys(dist, &rng, c->keys, n, type), 0);
    sort_encode_keys(c->keys, n, type); /* the order sort_ref sorts by */
    for (int64_t i = 0; i < n; i++)
        c->values[i] = c->want_v[i] = sort_test_payload(i);
    memcpy(c->want_k, c->keys, bytes);
    sort_ref(c->want_k, c->want_v, n);
    c->k_d = lab_dev_upload(c->keys, bytes, "keys_in");
    c->v_d = with_values ? lab_dev_upload(c->values, bytes, "values_in") : NULL;
    c->ok_d = lab_dev_poisoned(bytes, "keys_out");
    c->ov_d = with_values ? lab_dev_poisoned(bytes, "values_out") : NULL;
    c->temp = lab_dev_poisoned(c->temp_bytes, "temp_d (the workspace)");
}

static void sort_buffers_free(sort_buffers *c)
{
    lab_dev_free(c->k_d), lab_dev_free(c->v_d), lab_dev_free(c->ok_d), lab_dev_free(c->ov_d), lab_dev_free(c->temp);
    free(c->keys), free(c->values), free(c->want_k), free(c->want_v), free(c->got_k), free(c->got_v);
}

/* sort_run on c's buffers, finished within `seconds`, its output keys (and
 * values, with_values) downloaded to got_k (got_v); context names the run. */
static void sort_buffers_run(sort_buffers *c, int64_t n, int with_values, const sort_params *p, double seconds,
                             const char *context)
{
    const char *why = sort_run(STEP, c->k_d, c->v_d, c->ok_d, c->ov_d, n, c->temp, p);
    cr_assert_null(why, "sort_run refused %s: %s", context, why ? why : "");
    const cudaError_t err = lab_test_finish(seconds, context);
    cr_assert_eq(err, cudaSuccess, "the sort faulted (%s): %s", cudaGetErrorString(err), context);
    lab_dev_download(c->got_k, c->ok_d, c->bytes);
    if (with_values)
        lab_dev_download(c->got_v, c->ov_d, c->bytes);
}

void check_sort(int64_t n, const char *dist, sort_type type, int with_values, uint64_t seed, const sort_params *given)
{
    sort_params typed = *given;
    const sort_params *p = &typed;
    typed.type = type;
    char text[160], context[320];
    snprintf(context, sizeof context, "n=%lld dist=%s type=%s %s seed=%llu %s", (long long)n, dist,
             sort_type_name(type), with_values ? "pairs" : "keys", (unsigned long long)seed,
             params_text(p, text, sizeof text));
    sort_buffers c;
    sort_buffers_make(&c, n, dist, type, with_values, seed, p);
    const size_t bytes = c.bytes;
    sort_buffers_run(&c, n, with_values, p, LAB_LAUNCH_DEADLINE, context);
    check_output(c.got_k, with_values ? c.got_v : NULL, c.want_k, c.want_v, n, context);
    lab_dev_download(c.got_k, c.k_d, bytes);
    cr_assert(memcmp(c.got_k, c.keys, bytes) == 0, "the input keys changed (%s): sort_run must leave them%s", context,
              lab_todo_note());
    if (with_values) {
        lab_dev_download(c.got_v, c.v_d, bytes);
        cr_assert(memcmp(c.got_v, c.values, bytes) == 0, "the input values changed (%s): sort_run must leave them%s",
                  context, lab_todo_note());
    }
    sort_buffers_free(&c);
}

void check_sort_repeatedly(int64_t n, int with_values, int launches, uint64_t seed, const sort_params *p)
{
    char text[160], context[320];
    sort_buffers c;
    sort_buffers_make(&c, n, "uniform", SORT_UINT, with_values, seed, p); /* SORT_UINT: the keys as they are */
    const size_t bytes = c.bytes;
    for (int launch = 1; launch <= launches; launch++) {
        snprintf(context, sizeof context,
                 "launch %d of %d of the same sort: a race (a missing barrier or fence) "
                 "shows only now and then; n=%lld dist=uniform %s seed=%llu %s",
                 launch, launches, (long long)n, with_values ? "pairs" : "keys", (unsigned long long)seed,
                 params_text(p, text, sizeof text));
        lab_poison_device(c.ok_d, bytes), lab_poison_device(c.temp, c.temp_bytes);
        if (with_values)
            lab_poison_device(c.ov_d, bytes);
        sort_buffers_run(&c, n, with_values, p, LAB_RACE_DEADLINE, context);
        if (memcmp(c.got_k, c.want_k, bytes) != 0 || (with_values && memcmp(c.got_v, c.want_v, bytes) != 0))
            check_output(c.got_k, with_values ? c.got_v : NULL, c.want_k, c.want_v, n, context);
    }
    sort_buffers_free(&c);
}

/* Sizes the book assumes away: 0, 1, and around warps, blocks and tiles. */
static const int64_t small_sizes[] = {0, 1, 2, 3, 31, 32, 33, 255, 256, 257, 1000, 2047, 2049, 4095, 4096, 4097, 65537};
#define N_SMALL (int)(sizeof small_sizes / sizeof small_sizes[0])

/* At most the step's limit with its default parameters. */
static int64_t within_limit(int64_t n)
{
    const int64_t most = sort_max_n(STEP, &STEP->defaults);
    return n < most ? n : most;
}

GPU_TEST(sort_gpu, every_distribution_small_and_odd_sizes)
{
    for (int z = 0; z < N_SMALL; z++)
        for (int d = 0; sort_dists[d] != NULL; d++)
            if (small_sizes[z] <= sort_max_n(STEP, &STEP->defaults))
                check_sort(small_sizes[z], sort_dists[d], SORT_UINT, (z + d) % 3 != 0, lab_test_seed(z + d),
                           &STEP->defaults);
}

GPU_TEST(sort_gpu, stability_equal_keys_keep_their_input_order)
{
    const int64_t n = within_limit(300001);
    for (int s = 0; s < LAB_TEST_NSEEDS; s++) {
        check_sort(n, "few", SORT_UINT, 1, lab_test_seeds[s], &STEP->defaults);
        check_sort(n, "equal", SORT_UINT, 1, lab_test_seeds[s], &STEP->defaults);
        check_sort(n, "high", SORT_UINT, 1, lab_test_seeds[s], &STEP->defaults);
    }
}

GPU_TEST(sort_gpu, int_and_float_keys_through_the_transform)
{
    const int64_t n = within_limit(100003);
    for (int t = SORT_INT; t <= SORT_FLOAT; t++)
        for (int d = 0; sort_dists[d] != NULL; d++)
            check_sort(n, sort_dists[d], (sort_type)t, d % 2 == 0, lab_test_seed(t + d), &STEP->defaults);
}

GPU_TEST(sort_gpu, at_least_2_pow_24_keys)
{
    check_sort(within_limit(((int64_t)1 << 24) + 3), "uniform", SORT_UINT, 1, lab_test_seeds[0], &STEP->defaults);
    check_sort(within_limit(((int64_t)1 << 24) + 1001), "few", SORT_UINT, 0, lab_test_seeds[1], &STEP->defaults);
}
