/* sort.c - chapter 13's suite, built with every step; what it needs to know of
 * the step it asks the step's descriptor (sort_step_info, sort.h), and each
 * step's own tests are in tests/ch13-sort/<step folder>.c.
 * CPU tests (run in CI, no GPU): the order-preserving transform, the CPU
 * reference against a stable comparison sort, one iteration of Fig 13.4 on the
 * CPU, the input distributions, the step's descriptor, and sort_run
 * refusing bad parameters before it touches the GPU. GPU tests: the step's
 * sort against the reference on every distribution, sizes 0, 1, non-multiples
 * of the block and tile and >= 2^24 (up to the step's limit), int and float
 * keys, several seeds; values are a distinct payload per input position, so
 * comparing them exactly checks stability (equal keys keep their input order).
 * check_sort_repeatedly is the steps' race tests' (a missing barrier or fence
 * shows every time over enough launches). */
#include <string.h>

#include "scan.h"
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

/* ---- CPU tests -------------------------------------------------------------- */

Test(sort_transform, round_trips_and_keeps_the_order)
{
    lab_rng rng = lab_rng_seeded(lab_test_seeds[0]);
    for (int trial = 0; trial < 200000; trial++) {
        const unsigned int a = (unsigned int)(lab_rng_next(&rng) >> 32), b = (unsigned int)(lab_rng_next(&rng) >> 32);
        for (int t = 0; t < 3; t++)
            cr_assert_eq(sort_key_decode(sort_key_encode(a, (sort_type)t), (sort_type)t), a,
                         "decode(encode(%#x)) != %#x for type %s", a, a, sort_type_name((sort_type)t));
        const int ia = (int)a, ib = (int)b;
        cr_assert_eq(ia < ib, sort_key_encode(a, SORT_INT) < sort_key_encode(b, SORT_INT), "int order lost: %d vs %d",
                     ia, ib);
        float fa, fb;
        memcpy(&fa, &a, sizeof fa);
        memcpy(&fb, &b, sizeof fb);
        if (fa == fa && fb == fb && !(fa == 0.0f && fb == 0.0f)) /* NaNs and the two zeros aside */
            cr_assert_eq(fa < fb, sort_key_encode(a, SORT_FLOAT) < sort_key_encode(b, SORT_FLOAT),
                         "float order lost: %g (%#x) vs %g (%#x)", fa, a, fb, b);
    }
    /* the edges: -inf < -1 < -0 < +0 < denormal < 1 < +inf */
    const unsigned int f[] = {0xff800000u, 0xbf800000u, 0x80000000u, 0x00000000u,
                              0x00000001u, 0x3f800000u, 0x7f800000u};
    for (int i = 1; i < 7; i++)
        cr_assert_lt(sort_key_encode(f[i - 1], SORT_FLOAT), sort_key_encode(f[i], SORT_FLOAT),
                     "float keys %#x and %#x out of order", f[i - 1], f[i]);
    cr_assert_eq(sort_key_encode(0x80000000u, SORT_INT), 0u, "INT_MIN must map to the smallest key");
    cr_assert_eq(sort_key_encode(0x7fffffffu, SORT_INT), 0xffffffffu, "INT_MAX must map to the largest key");
}

/* The stable sort by definition: insertion sort, equal keys never pass each other. */
static void insertion_sort(unsigned int *k, unsigned int *v, int n)
{
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && k[b - 1] > k[b]; b--) {
            unsigned int t = k[b];
            k[b] = k[b - 1], k[b - 1] = t;
            t = v[b], v[b] = v[b - 1], v[b - 1] = t;
        }
}

Test(sort_ref, matches_a_stable_insertion_sort)
{
    enum { MAXN = 700 };
    static unsigned int k[MAXN], v[MAXN], wk[MAXN], wv[MAXN], ko[MAXN];
    for (int s = 0; s < LAB_TEST_NSEEDS; s++) {
        lab_rng rng = lab_rng_seeded(lab_test_seeds[s]);
        for (int trial = 0; trial < 300; trial++) {
            const int n = (int)lab_rng_below(&rng, MAXN);
            const char *dist = sort_dists[trial % 6];
            cr_assert_eq(sort_make_keys(dist, &rng, k, n, SORT_UINT), 0);
            if (trial % 2) /* dense ties in every digit */
                for (int i = 0; i < n; i++)
                    k[i] &= 0x01010101u;
            for (int i = 0; i < n; i++)
                v[i] = wv[i] = sort_test_payload(i), wk[i] = ko[i] = k[i];
            insertion_sort(wk, wv, n);
            sort_ref(k, v, n);
            sort_ref(ko, NULL, n); /* keys alone: the same passes without values */
            for (int i = 0; i < n; i++)
                cr_assert(k[i] == wk[i] && v[i] == wv[i] && ko[i] == wk[i],
                          "sort_ref: at %d got (%#x, %#x), keys alone %#x, expected (%#x, %#x) (n=%d dist=%s seed=%llu "
                          "trial=%d)",
                          i, k[i], v[i], ko[i], wk[i], wv[i], n, dist, (unsigned long long)lab_test_seeds[s], trial);
        }
    }
}

Test(sort_ref, one_iteration_gives_fig_13_3s_rows_and_32_of_them_sort)
{
    /* Fig 13.3: iteration 0 of the book's keys */
    static const unsigned int ones_before[17] = {0, 0, 1, 1, 2, 3, 3, 4, 4, 5, 5, 6, 7, 7, 7, 8, 8};
    static const unsigned int dest[16] = {0, 8, 1, 9, 10, 2, 11, 3, 12, 4, 13, 14, 5, 6, 15, 7};
    unsigned int got_ones[17], got_dest[16];
    sort_ref_radix_iter(sort_book_keys, 16, 0, got_ones, got_dest);
    for (int i = 0; i <= 16; i++)
        cr_assert_eq(got_ones[i], ones_before[i], "Fig 13.3: ones before key %d = %u, expected %u", i, got_ones[i],
                     ones_before[i]);
    for (int i = 0; i < 16; i++)
        cr_assert_eq(got_dest[i], dest[i], "Fig 13.3: destination of key %d = %u, expected %u", i, got_dest[i],
                     dest[i]);
    enum { N = 999 };
    static unsigned int k[N], want[N], ones[N + 1], to[N], next[N];
    lab_rng rng = lab_rng_seeded(lab_test_seeds[1]);
    sort_make_keys("few", &rng, k, N, SORT_UINT);
    memcpy(want, k, sizeof want);
    sort_ref(want, NULL, N);
    for (unsigned int iter = 0; iter < 32; iter++) { /* section 13.2: stable one-bit splits, lowest bit first */
        sort_ref_radix_iter(k, N, iter, ones, to);
        for (int i = 0; i < N; i++)
            next[to[i]] = k[i];
        memcpy(k, next, sizeof k);
    }
    cr_assert(memcmp(k, want, sizeof k) == 0, "32 iterations of sort_ref_radix_iter must sort like sort_ref");
}

Test(sort_inputs, every_distribution_has_its_shape_and_is_never_all_zero)
{
    static const int64_t sizes[] = {1, 2, 7, 1000, 65537};
    for (int t = 0; t < 3; t++)
        for (int d = 0; sort_dists[d] != NULL; d++)
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                const int64_t n = sizes[z];
                unsigned int *k = lab_xmalloc(sizeof(unsigned int) * (size_t)n);
                lab_rng rng = lab_rng_seeded(lab_test_seed((int)z));
                const char *dist = sort_dists[d];
                cr_assert_eq(sort_make_keys(dist, &rng, k, n, (sort_type)t), 0);
                int64_t nonzero = 0, where = -1;
                for (int64_t i = 0; i < n; i++) {
                    nonzero += k[i] != 0;
                    if (t == SORT_FLOAT)
                        cr_assert((k[i] & 0x7f800000u) != 0x7f800000u || (k[i] & 0x007fffffu) == 0,
                                  "%s float keys hold a NaN at %lld", dist, (long long)i);
                }
                cr_assert_gt(nonzero, 0, "%s (%s, n=%lld) is all zero", dist, sort_type_name((sort_type)t),
                             (long long)n);
                if (strcmp(dist, "sorted") == 0)
                    cr_assert(sort_is_ordered(k, n, (sort_type)t, &where), "sorted (%s) is not, at %lld",
                              sort_type_name((sort_type)t), (long long)where);
                sort_encode_keys(k, n, (sort_type)t);
                if (strcmp(dist, "reverse") == 0)
                    for (int64_t i = 1; i < n; i++)
                        cr_assert_geq(k[i - 1], k[i], "reverse (%s) rises at %lld", sort_type_name((sort_type)t),
                                      (long long)i);
                if (strcmp(dist, "equal") == 0)
                    for (int64_t i = 1; i < n; i++)
                        cr_assert_eq(k[i], k[0], "equal (%s) differs at %lld", sort_type_name((sort_type)t),
                                     (long long)i);
                if (strcmp(dist, "high") == 0 && t != SORT_FLOAT)
                    for (int64_t i = 0; i < n; i++)
                        cr_assert_eq(k[i] & 0x00ffffffu, 0u, "high (%s) has low bits at %lld",
                                     sort_type_name((sort_type)t), (long long)i);
                free(k);
            }
    unsigned int k[4];
    lab_rng rng = lab_rng_seeded(1);
    cr_assert_eq(sort_make_keys("nonsense", &rng, k, 4, SORT_UINT), -1, "unknown distributions are refused");
    for (int t = 0; sort_type_names[t] != NULL; t++)
        cr_assert_eq(sort_type_of(sort_type_names[t]), t, "--type %s must name type %d", sort_type_names[t], t);
}

/* ---- the step's descriptor ------------------------------------------------------ */

Test(sort_step, the_descriptor_is_complete_and_its_defaults_accepted)
{
    const sort_params def = STEP->defaults;
    char text[160], line[256];
    cr_assert_eq(STEP->takes & SORT_TAKES_EVERY, SORT_TAKES_EVERY,
                 "every step takes the chapter's options "
                 "(SORT_TAKES_EVERY)");
    cr_assert((STEP->sorts.launch != NULL) != (STEP->sorts.pass != NULL),
              "a step sorts with its own launcher or in passes, not both (sorts.launch, sorts.pass)");
    cr_assert((STEP->sorts.passes == NULL) == (STEP->sorts.pass == NULL), "a step in passes says how many and what "
                                                                          "one does");
    cr_assert(STEP->lab.about != NULL && STEP->lab.about[0] != '\0', "the step's --help paragraph");
    cr_assert(STEP->lab.max_n_why != NULL && strstr(STEP->lab.max_n_why, "n must") != NULL,
              "a refusal of too large an n");
    cr_assert(STEP->needs.workspace != NULL && STEP->describe != NULL,
              "the workspace and the result line's parameters");
    cr_assert(STEP->lab.max_n >= 4096 && STEP->lab.max_n <= SORT_MAX_N, "-n's limit (%lld)",
              (long long)STEP->lab.max_n);
    cr_assert(STEP->lab.default_n > 0 && STEP->lab.default_n <= STEP->lab.max_n, "-n's default (%lld)",
              (long long)STEP->lab.default_n);
    if (STEP->takes & SORT_TAKES_VARIANT)
        cr_assert(lab_name_in(def.variant, STEP->lab.variants), "the default --variant %s is one of the step's",
                  def.variant);
    else
        cr_assert(STEP->lab.variants == NULL && (def.variant == NULL || def.variant[0] == '\0'),
                  "a step with one form has no variant name");
    cr_assert_null(sort_check(STEP, 1000, &def), "the default parameters (%s) must be accepted",
                   params_text(&def, text, sizeof text));
    cr_assert_null(
        sort_check(STEP, STEP->lab.default_n < sort_max_n(STEP, &def) ? STEP->lab.default_n : sort_max_n(STEP, &def),
                   &def),
        "./run's default size must be accepted");
    cr_assert_gt(sort_temp_bytes(STEP, 1000, 1, &def), 0, "the workspace of 1000 pairs");
    STEP->describe(&def, line, sizeof line);
    cr_assert(strstr(line, "block=") != NULL, "the result line names the block: '%s'", line);
}

void assert_refused(int64_t n, const sort_params *p, const char *what)
{
    unsigned int *d = (unsigned int *)(uintptr_t)0x1000; /* never touched: each call must refuse first */
    char text[160];
    params_text(p, text, sizeof text);
    cr_assert_not_null(sort_check(STEP, n, p), "%s must be refused by the check (n=%lld %s)", what, (long long)n, text);
    cr_assert_not_null(sort_run(STEP, d, d, d, d, n, d, p), "%s must be refused by sort_run (n=%lld %s)", what,
                       (long long)n, text);
    cr_assert_eq(sort_temp_bytes(STEP, n, 1, p), 0, "%s: no workspace for refused parameters", what);
}

Test(sort_step, bad_parameters_are_refused_without_a_gpu)
{
    const sort_params def = STEP->defaults;
    sort_params p = def;
    p.block = 0;
    assert_refused(10, &p, "block=0");
    p.block = 2048;
    assert_refused(10, &p, "block=2048");
    assert_refused(-1, &def, "n=-1");
    assert_refused(STEP->lab.max_n + 1, &def, "an n above the step's limit (documented)");
    if (STEP->needs.block & LAB_BLOCK_WARPS) {
        p = def, p.block = 100;
        assert_refused(10, &p, "block=100 (not whole warps)");
    }
    if (STEP->takes & SORT_TAKES_BITS) {
        p = def, p.radix_bits = 0;
        assert_refused(10, &p, "r=0");
        p.radix_bits = SORT_MAX_RADIX_BITS + 1;
        assert_refused(10, &p, "r=9");
    }
    if (STEP->takes & SORT_TAKES_COARSEN) {
        p = def, p.coarsen = 0;
        assert_refused(10, &p, "coarsen=0");
        p.coarsen = SORT_MAX_COARSEN + 1;
        assert_refused(10, &p, "coarsen=17");
    }
}

Test(scan_cpu, temporaries_cover_every_level)
{
    cr_assert_eq(scan_temp_bytes(0), 0);
    cr_assert_eq(scan_temp_bytes(SCAN_TILE), 0, "one tile needs no temporaries");
    size_t last = 0;
    for (int64_t n = SCAN_TILE + 1; n < ((int64_t)1 << 34); n = n * 3 + 1) {
        const size_t b = scan_temp_bytes(n);
        const int64_t tiles = (n + SCAN_TILE - 1) / SCAN_TILE;
        cr_assert_geq(b, sizeof(unsigned int) * (size_t)(tiles + 1), "n=%lld: room for the tiles' sums", (long long)n);
        cr_assert_geq(b, last, "scan_temp_bytes must not shrink as n grows (n=%lld)", (long long)n);
        last = b;
    }
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

void check_sort(int64_t n, const char *dist, sort_type type, int with_values, uint64_t seed, const sort_params *given)
{
    sort_params typed = *given;
    const sort_params *p = &typed;
    typed.type = type;
    char text[160], context[320];
    snprintf(context, sizeof context, "n=%lld dist=%s type=%s %s seed=%llu %s", (long long)n, dist,
             sort_type_name(type), with_values ? "pairs" : "keys", (unsigned long long)seed,
             params_text(p, text, sizeof text));
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    unsigned int *keys = lab_xmalloc(bytes), *values = lab_xmalloc(bytes), *want_k = lab_xmalloc(bytes);
    unsigned int *want_v = lab_xmalloc(bytes), *got_k = lab_xmalloc(bytes), *got_v = lab_xmalloc(bytes);
    lab_rng rng = lab_rng_seeded(seed);
    cr_assert_eq(sort_make_keys(dist, &rng, keys, n, type), 0);
    sort_encode_keys(keys, n, type); /* the order sort_ref sorts by */
    for (int64_t i = 0; i < n; i++)
        values[i] = want_v[i] = sort_test_payload(i);
    memcpy(want_k, keys, bytes);
    sort_ref(want_k, want_v, n);
    unsigned int *k_d = lab_dev_upload(keys, bytes, "keys_in");
    unsigned int *v_d = with_values ? lab_dev_upload(values, bytes, "values_in") : NULL;
    unsigned int *ok_d = lab_dev_poisoned(bytes, "keys_out");
    unsigned int *ov_d = with_values ? lab_dev_poisoned(bytes, "values_out") : NULL;
    void *temp = lab_dev_poisoned(sort_temp_bytes(STEP, n, with_values, p), "temp_d (the workspace)");
    const char *why = sort_run(STEP, k_d, v_d, ok_d, ov_d, n, temp, p);
    cr_assert_null(why, "sort_run refused %s: %s", context, why ? why : "");
    const cudaError_t err = lab_test_finish(LAB_LAUNCH_DEADLINE, context);
    cr_assert_eq(err, cudaSuccess, "the sort faulted (%s): %s", cudaGetErrorString(err), context);
    lab_dev_download(got_k, ok_d, bytes);
    if (with_values)
        lab_dev_download(got_v, ov_d, bytes);
    check_output(got_k, with_values ? got_v : NULL, want_k, want_v, n, context);
    lab_dev_download(got_k, k_d, bytes);
    cr_assert(memcmp(got_k, keys, bytes) == 0, "the input keys changed (%s): sort_run must leave them%s", context,
              lab_todo_note());
    if (with_values) {
        lab_dev_download(got_v, v_d, bytes);
        cr_assert(memcmp(got_v, values, bytes) == 0, "the input values changed (%s): sort_run must leave them%s",
                  context, lab_todo_note());
    }
    lab_dev_free(k_d), lab_dev_free(v_d), lab_dev_free(ok_d), lab_dev_free(ov_d), lab_dev_free(temp);
    free(keys), free(values), free(want_k), free(want_v), free(got_k), free(got_v);
}

void check_sort_repeatedly(int64_t n, int with_values, int launches, uint64_t seed, const sort_params *p)
{
    char text[160], context[320];
    const size_t bytes = sizeof(unsigned int) * (size_t)n, temp_bytes = sort_temp_bytes(STEP, n, with_values, p);
    unsigned int *keys = lab_xmalloc(bytes), *values = lab_xmalloc(bytes), *want_k = lab_xmalloc(bytes);
    unsigned int *want_v = lab_xmalloc(bytes), *got_k = lab_xmalloc(bytes), *got_v = lab_xmalloc(bytes);
    lab_rng rng = lab_rng_seeded(seed);
    cr_assert_eq(sort_make_keys("uniform", &rng, keys, n, SORT_UINT), 0);
    for (int64_t i = 0; i < n; i++)
        values[i] = want_v[i] = sort_test_payload(i);
    memcpy(want_k, keys, bytes);
    sort_ref(want_k, want_v, n);
    unsigned int *k_d = lab_dev_upload(keys, bytes, "keys_in");
    unsigned int *v_d = with_values ? lab_dev_upload(values, bytes, "values_in") : NULL;
    unsigned int *ok_d = lab_dev_poisoned(bytes, "keys_out");
    unsigned int *ov_d = with_values ? lab_dev_poisoned(bytes, "values_out") : NULL;
    void *temp = lab_dev_poisoned(temp_bytes, "temp_d (the workspace)");
    for (int launch = 1; launch <= launches; launch++) {
        snprintf(context, sizeof context,
                 "launch %d of %d of the same sort: a race (a missing barrier or fence) "
                 "shows only now and then; n=%lld dist=uniform %s seed=%llu %s",
                 launch, launches, (long long)n, with_values ? "pairs" : "keys", (unsigned long long)seed,
                 params_text(p, text, sizeof text));
        lab_poison_device(ok_d, bytes), lab_poison_device(temp, temp_bytes);
        if (with_values)
            lab_poison_device(ov_d, bytes);
        const char *why = sort_run(STEP, k_d, v_d, ok_d, ov_d, n, temp, p);
        cr_assert_null(why, "sort_run refused %s: %s", context, why ? why : "");
        const cudaError_t err = lab_test_finish(LAB_RACE_DEADLINE, context);
        cr_assert_eq(err, cudaSuccess, "the sort faulted (%s): %s", cudaGetErrorString(err), context);
        lab_dev_download(got_k, ok_d, bytes);
        if (with_values)
            lab_dev_download(got_v, ov_d, bytes);
        if (memcmp(got_k, want_k, bytes) != 0 || (with_values && memcmp(got_v, want_v, bytes) != 0))
            check_output(got_k, with_values ? got_v : NULL, want_k, want_v, n, context);
    }
    lab_dev_free(k_d), lab_dev_free(v_d), lab_dev_free(ok_d), lab_dev_free(ov_d), lab_dev_free(temp);
    free(keys), free(values), free(want_k), free(want_v), free(got_k), free(got_v);
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
