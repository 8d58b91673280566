/* sort.c - chapter 13's suite, built once per step (LAB_STEP_NUM says which).
 * CPU tests (run in CI, no GPU): the order-preserving transform, the CPU
 * reference against a stable comparison sort, the input distributions, and
 * the launcher refusing bad parameters before it touches the GPU. GPU tests:
 * the step's sort against the reference on every distribution, sizes 0, 1,
 * non-multiples of the block and tile and >= 2^24, int and float keys, several
 * seeds; values are a distinct payload per input position, so comparing them
 * exactly checks stability (equal keys keep their input order). Step 1 also
 * replays Figs 13.1-13.3 and tests the lab's device scan on its own. */
#include <string.h>

#include "lab_test.h"
#include "scan.h"
#include "sort.h"

#define POISON 0xA5A5A5A5u

static const char *params_text(const sort_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "block=%d coarsen=%d bits=%d tile=%d variant=%s printed=%d", p->block, p->coarsen,
             p->radix_bits, p->tile, p->variant != NULL ? p->variant : "", p->printed);
    return buf;
}

/* A distinct payload per input position (odd multiplier: a bijection), so a
 * value says exactly which input it came with. */
static unsigned int payload(int64_t i)
{
    return (unsigned int)i * 0x9E3779B1u + 0x1234567u;
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
        cr_assert_eq(ia < ib, sort_key_encode(a, SORT_INT) < sort_key_encode(b, SORT_INT),
                     "int order lost: %d vs %d", ia, ib);
        float fa, fb;
        memcpy(&fa, &a, sizeof fa);
        memcpy(&fb, &b, sizeof fb);
        if (fa == fa && fb == fb && !(fa == 0.0f && fb == 0.0f)) /* NaNs and the two zeros aside */
            cr_assert_eq(fa < fb, sort_key_encode(a, SORT_FLOAT) < sort_key_encode(b, SORT_FLOAT),
                         "float order lost: %g (%#x) vs %g (%#x)", fa, a, fb, b);
    }
    /* the edges: -inf < -1 < -0 < +0 < denormal < 1 < +inf */
    const unsigned int f[] = {0xff800000u, 0xbf800000u, 0x80000000u, 0x00000000u, 0x00000001u, 0x3f800000u, 0x7f800000u};
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
    static unsigned int k[MAXN], v[MAXN], wk[MAXN], wv[MAXN];
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
                v[i] = wv[i] = payload(i), wk[i] = k[i];
            insertion_sort(wk, wv, n);
            sort_ref(k, v, n);
            for (int i = 0; i < n; i++)
                cr_assert(k[i] == wk[i] && v[i] == wv[i],
                          "sort_ref: at %d got (%#x, %#x), expected (%#x, %#x) (n=%d dist=%s seed=%llu trial=%d)", i,
                          k[i], v[i], wk[i], wv[i], n, dist, (unsigned long long)lab_test_seeds[s], trial);
        }
    }
}

Test(sort_inputs, every_distribution_has_its_shape_and_is_never_all_zero)
{
    static const int64_t sizes[] = {1, 2, 7, 1000, 65537};
    for (int t = 0; t < 3; t++)
        for (int d = 0; sort_dists[d] != NULL; d++)
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                const int64_t n = sizes[z];
                unsigned int *k = lab_xmalloc(sizeof(unsigned int) * (size_t)n);
                lab_rng rng = lab_rng_seeded(lab_test_seeds[z % LAB_TEST_NSEEDS]);
                const char *dist = sort_dists[d];
                cr_assert_eq(sort_make_keys(dist, &rng, k, n, (sort_type)t), 0);
                int64_t nonzero = 0, where = -1;
                for (int64_t i = 0; i < n; i++) {
                    nonzero += k[i] != 0;
                    if (t == SORT_FLOAT)
                        cr_assert((k[i] & 0x7f800000u) != 0x7f800000u || (k[i] & 0x007fffffu) == 0,
                                  "%s float keys hold a NaN at %lld", dist, (long long)i);
                }
                cr_assert_gt(nonzero, 0, "%s (%s, n=%lld) is all zero", dist, sort_type_name((sort_type)t), (long long)n);
                if (strcmp(dist, "sorted") == 0)
                    cr_assert(sort_is_ordered(k, n, (sort_type)t, &where), "sorted (%s) is not, at %lld",
                              sort_type_name((sort_type)t), (long long)where);
                sort_encode_keys(k, n, (sort_type)t);
                if (strcmp(dist, "reverse") == 0)
                    for (int64_t i = 1; i < n; i++)
                        cr_assert_geq(k[i - 1], k[i], "reverse (%s) rises at %lld", sort_type_name((sort_type)t), (long long)i);
                if (strcmp(dist, "equal") == 0)
                    for (int64_t i = 1; i < n; i++)
                        cr_assert_eq(k[i], k[0], "equal (%s) differs at %lld", sort_type_name((sort_type)t), (long long)i);
                if (strcmp(dist, "high") == 0 && t != SORT_FLOAT)
                    for (int64_t i = 0; i < n; i++)
                        cr_assert_eq(k[i] & 0x00ffffffu, 0u, "high (%s) has low bits at %lld", sort_type_name((sort_type)t), (long long)i);
                free(k);
            }
    unsigned int k[4];
    lab_rng rng = lab_rng_seeded(1);
    cr_assert_eq(sort_make_keys("nonsense", &rng, k, 4, SORT_UINT), -1, "unknown distributions are refused");
}

Test(sort_params, the_defaults_are_accepted_and_bad_parameters_refused_without_a_gpu)
{
    const sort_params def = sort_default_params(LAB_STEP_NUM);
    char text[160];
    cr_assert_eq(sort_step_number("solutions/ch13-sort/step4-radix-coarsened"), 4);
    cr_assert_eq(sort_step_number("build/mutsrc/x/ch13-sort/step12-y"), 12);
    cr_assert_gt(sort_temp_bytes(1000, 1, &def), 0, "the default parameters (%s) must be accepted", params_text(&def, text, sizeof text));
    unsigned int *d = (unsigned int *)(uintptr_t)0x1000; /* never touched: each call must refuse first */
    sort_params p = def;
    p.block = 0;
    cr_assert_not_null(sort_launch(d, d, d, d, 10, d, &p), "block=0 must be refused");
    p.block = 2048;
    cr_assert_not_null(sort_launch(d, d, d, d, 10, d, &p), "block=2048 must be refused");
    p = def;
    cr_assert_not_null(sort_launch(d, d, d, d, -1, d, &p), "n=-1 must be refused");
#if LAB_STEP_NUM <= 5
    cr_assert_not_null(sort_launch(d, d, d, d, SORT_MAX_N + 1, d, &p), "n=2^31 must be refused (documented limit)");
#endif
#if LAB_STEP_NUM >= 2 && LAB_STEP_NUM <= 4
    p.block = 100;
    cr_assert_not_null(sort_launch(d, d, d, d, 10, d, &p), "block=100 (not whole warps) must be refused");
#endif
#if LAB_STEP_NUM == 3 || LAB_STEP_NUM == 4
    p = def;
    p.radix_bits = 0;
    cr_assert_not_null(sort_launch(d, d, d, d, 10, d, &p), "r=0 must be refused");
    p.radix_bits = 9;
    cr_assert_not_null(sort_launch(d, d, d, d, 10, d, &p), "r=9 must be refused");
#endif
#if LAB_STEP_NUM == 4 || LAB_STEP_NUM == 5
    p = def;
    p.coarsen = 0;
    cr_assert_not_null(sort_launch(d, d, d, d, 10, d, &p), "coarsen=0 must be refused");
    p.coarsen = SORT_MAX_COARSEN + 1;
    cr_assert_not_null(sort_launch(d, d, d, d, 10, d, &p), "coarsen=17 must be refused");
#endif
#if LAB_STEP_NUM == 6
    p = def;
    p.variant = "quicksort";
    cr_assert_not_null(sort_launch(d, d, d, d, 10, d, &p), "an unknown variant must be refused");
    p.variant = "odd-even";
    cr_assert_not_null(sort_launch(d, d, d, d, SORT_ODD_EVEN_MAX + 1, d, &p), "odd-even above 4096 must be refused");
    p.variant = "bitonic";
    p.tile = 3;
    cr_assert_not_null(sort_launch(d, d, d, d, 10, d, &p), "a tile that is not a power of two must be refused");
    p.tile = def.tile;
    cr_assert_not_null(sort_launch(d, d, d, d, SORT_BITONIC_MAX + 1, d, &p), "bitonic above 2^28 must be refused");
#endif
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

/* Sorts n keys of `dist` (bits of `type`, through the transform) with or
 * without payload values and checks every key and value against the stable
 * reference, that nothing is written past n and that the input is untouched. */
static void check_sort(int64_t n, const char *dist, sort_type type, int with_values, uint64_t seed, const sort_params *p)
{
    char text[160];
    params_text(p, text, sizeof text);
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    unsigned int *keys = lab_xmalloc(bytes), *values = lab_xmalloc(bytes), *want_k = lab_xmalloc(bytes);
    unsigned int *want_v = lab_xmalloc(bytes), *got_k = lab_xmalloc(bytes + 4), *got_v = lab_xmalloc(bytes + 4);
    lab_rng rng = lab_rng_seeded(seed);
    cr_assert_eq(sort_make_keys(dist, &rng, keys, n, type), 0);
    sort_encode_keys(keys, n, type);
    for (int64_t i = 0; i < n; i++)
        values[i] = want_v[i] = payload(i);
    memcpy(want_k, keys, bytes);
    sort_ref(want_k, want_v, n);
    unsigned int *k_d = lab_dev_upload(keys, bytes), *v_d = with_values ? lab_dev_upload(values, bytes) : NULL;
    unsigned int *ok_d = lab_dev_poisoned(bytes + 4), *ov_d = with_values ? lab_dev_poisoned(bytes + 4) : NULL;
    void *temp = lab_dev_poisoned(sort_temp_bytes(n, with_values, p));
    const char *why = sort_launch(k_d, v_d, ok_d, ov_d, n, temp, p);
    cr_assert_null(why, "sort_launch refused n=%lld (%s): %s", (long long)n, text, why ? why : "");
    lab_dev_download(got_k, ok_d, bytes + 4);
    if (with_values)
        lab_dev_download(got_v, ov_d, bytes + 4);
    for (int64_t i = 0; i < n; i++) {
        if (got_k[i] != want_k[i])
            cr_assert_fail("keys: out[%lld] = %#x, expected %#x (n=%lld dist=%s type=%s %s seed=%llu %s)%s", (long long)i,
                           got_k[i], want_k[i], (long long)n, dist, sort_type_name(type), with_values ? "pairs" : "keys",
                           (unsigned long long)seed, text, lab_todo_note());
        if (with_values && got_v[i] != want_v[i])
            cr_assert_fail("values: out[%lld] = %#x, expected %#x with key %#x: equal keys left their input order, the "
                           "sort is not stable (n=%lld dist=%s type=%s seed=%llu %s)%s",
                           (long long)i, got_v[i], want_v[i], want_k[i], (long long)n, dist, sort_type_name(type),
                           (unsigned long long)seed, text, lab_todo_note());
    }
    cr_assert_eq(got_k[n], POISON, "keys written past the end, at out[%lld] (n=%lld dist=%s %s)%s", (long long)n,
                 (long long)n, dist, text, lab_todo_note());
    if (with_values)
        cr_assert_eq(got_v[n], POISON, "values written past the end (n=%lld dist=%s %s)%s", (long long)n, dist, text,
                     lab_todo_note());
    lab_dev_download(got_k, k_d, bytes);
    cr_assert(memcmp(got_k, keys, bytes) == 0, "the input keys changed (n=%lld %s): sort_launch must leave them%s",
              (long long)n, text, lab_todo_note());
    lab_dev_free(k_d), lab_dev_free(ok_d), lab_dev_free(temp);
    if (with_values)
        lab_dev_free(v_d), lab_dev_free(ov_d);
    free(keys), free(values), free(want_k), free(want_v), free(got_k), free(got_v);
}

static uint64_t seed_of(int i)
{
    return lab_test_seeds[i % LAB_TEST_NSEEDS];
}

/* Sizes the book assumes away: 0, 1, and around warps, blocks and tiles. */
static const int64_t small_sizes[] = {0, 1, 2, 3, 31, 32, 33, 255, 256, 257, 1000, 2047, 2049, 4095, 4096, 4097, 65537};
#define N_SMALL (int)(sizeof small_sizes / sizeof small_sizes[0])

#if LAB_STEP_NUM == 6
#define SIZE_LIMIT(p) (strcmp((p)->variant, "odd-even") == 0 ? SORT_ODD_EVEN_MAX : SORT_BITONIC_MAX)
#else
#define SIZE_LIMIT(p) SORT_MAX_N
#endif

GPU_TEST(sort_gpu, every_distribution_small_and_odd_sizes)
{
    const sort_params p = sort_default_params(LAB_STEP_NUM);
    for (int z = 0; z < N_SMALL; z++)
        for (int d = 0; sort_dists[d] != NULL; d++)
            check_sort(small_sizes[z], sort_dists[d], SORT_UINT, (z + d) % 3 != 0, seed_of(z + d), &p);
}

GPU_TEST(sort_gpu, stability_equal_keys_keep_their_input_order)
{
    const sort_params p = sort_default_params(LAB_STEP_NUM);
    const int64_t n = SIZE_LIMIT(&p) < 300001 ? SIZE_LIMIT(&p) : 300001;
    for (int s = 0; s < LAB_TEST_NSEEDS; s++) {
        check_sort(n, "few", SORT_UINT, 1, lab_test_seeds[s], &p);
        check_sort(n, "equal", SORT_UINT, 1, lab_test_seeds[s], &p);
        check_sort(n, "high", SORT_UINT, 1, lab_test_seeds[s], &p);
    }
}

GPU_TEST(sort_gpu, int_and_float_keys_through_the_transform)
{
    const sort_params p = sort_default_params(LAB_STEP_NUM);
    const int64_t n = SIZE_LIMIT(&p) < 100003 ? SIZE_LIMIT(&p) : 100003;
    for (int t = SORT_INT; t <= SORT_FLOAT; t++)
        for (int d = 0; sort_dists[d] != NULL; d++)
            check_sort(n, sort_dists[d], (sort_type)t, d % 2 == 0, seed_of(t + d), &p);
}

#if LAB_STEP_NUM <= 5
GPU_TEST(sort_gpu, at_least_2_pow_24_keys)
{
    const sort_params p = sort_default_params(LAB_STEP_NUM);
    check_sort(((int64_t)1 << 24) + 3, "uniform", SORT_UINT, 1, lab_test_seeds[0], &p);
    check_sort(((int64_t)1 << 24) + 1001, "few", SORT_UINT, 0, lab_test_seeds[1], &p);
}
#endif

/* ---- step 1: Figs 13.1-13.4 and the device scan ------------------------------ */
#if LAB_STEP_NUM == 1
static const unsigned int book_keys[16] = {12, 3, 6, 9, 15, 8, 5, 10, 9, 6, 11, 13, 4, 10, 7, 0};

GPU_TEST(radix_naive, book_example_iteration_0_fig_13_3)
{
    /* Fig 13.3: bits, # ones before and destinations of iteration 0 */
    static const unsigned int ones_before[17] = {0, 0, 1, 1, 2, 3, 3, 4, 4, 5, 5, 6, 7, 7, 7, 8, 8};
    static const unsigned int dest[16] = {0, 8, 1, 9, 10, 2, 11, 3, 12, 4, 13, 14, 5, 6, 15, 7};
    sort_params p = sort_default_params(1);
    p.block = 4; /* four blocks of four threads, as in Fig 13.2 */
    unsigned int got_bits[17], got_k[16], want_k[16];
    unsigned int *k_d = lab_dev_upload(book_keys, sizeof book_keys), *o_d = lab_dev_poisoned(sizeof got_k);
    unsigned int *b_d = lab_dev_poisoned(sizeof got_bits);
    void *temp = lab_dev_poisoned(scan_temp_bytes(16) + 4);
    cr_assert_null(radix_sort_iter_launch(k_d, NULL, o_d, NULL, b_d, 16, 0, temp, &p));
    lab_dev_download(got_bits, b_d, sizeof got_bits);
    lab_dev_download(got_k, o_d, sizeof got_k);
    for (int i = 0; i < 16; i++)
        want_k[dest[i]] = book_keys[i];
    for (int i = 0; i <= 16; i++)
        cr_assert_eq(got_bits[i], ones_before[i], "Fig 13.3: ones before key %d = %u, expected %u (bits[16] is the total)%s",
                     i, got_bits[i], ones_before[i], lab_todo_note());
    for (int i = 0; i < 16; i++)
        cr_assert_eq(got_k[i], want_k[i], "Fig 13.3: output[%d] = %u, expected %u (destinations 0 8 1 9 10 2 11 3 12 4 13 14 5 6 15 7)%s",
                     i, got_k[i], want_k[i], lab_todo_note());
    lab_dev_free(k_d), lab_dev_free(o_d), lab_dev_free(b_d), lab_dev_free(temp);
}

GPU_TEST(radix_naive, printed_destination_of_a_one_fails_on_the_book_example)
{
    /* Fig 13.4 line 15 as printed: N - ones in total - ones before. The keys
     * collide (key 3 lands on 7, where a zero goes) and the sort fails. */
    sort_params p = sort_default_params(1);
    p.block = 4;
    p.printed = 1;
    unsigned int got_k[16], want_k[16];
    memcpy(want_k, book_keys, sizeof want_k);
    sort_ref(want_k, NULL, 16);
    unsigned int *k_d = lab_dev_upload(book_keys, sizeof book_keys), *o_d = lab_dev_poisoned(sizeof got_k);
    void *temp = lab_dev_poisoned(sort_temp_bytes(16, 0, &p));
    cr_assert_null(sort_launch(k_d, NULL, o_d, NULL, 16, temp, &p));
    lab_dev_download(got_k, o_d, sizeof got_k);
    cr_assert(memcmp(got_k, want_k, sizeof got_k) != 0, "the printed formula must not sort the book's keys");
    p.printed = 0;
    check_sort(16, "uniform", SORT_UINT, 1, 1, &p);
    lab_dev_free(k_d), lab_dev_free(o_d), lab_dev_free(temp);
}

GPU_TEST(radix_naive, any_block_size)
{
    static const int blocks[] = {1, 4, 100, 1024};
    for (int b = 0; b < 4; b++) {
        sort_params p = sort_default_params(1);
        p.block = blocks[b];
        check_sort(b == 0 ? 3001 : 70001, sort_dists[b], SORT_UINT, 1, seed_of(b), &p);
    }
}

/* The lab's device scan on its own: sizes around its tile and its levels, in
 * place and not, values large enough to wrap. */
static void check_scan(int64_t n, int in_place, uint64_t seed)
{
    const size_t bytes = sizeof(unsigned int) * (size_t)(n + 2);
    unsigned int *x = lab_xmalloc(bytes), *want = lab_xmalloc(bytes), *got = lab_xmalloc(bytes);
    lab_rng rng = lab_rng_seeded(seed);
    for (int64_t i = 0; i < n; i++)
        x[i] = (i % 3 == 0) ? (unsigned int)(lab_rng_next(&rng) >> 32) : lab_rng_below(&rng, 4);
    x[n] = x[n + 1] = POISON;
    unsigned int sum = 0;
    for (int64_t i = 0; i <= n; i++) {
        want[i] = sum;
        if (i < n)
            sum += x[i];
    }
    unsigned int *in_d = lab_dev_upload(x, bytes), *out_d = in_place ? in_d : lab_dev_poisoned(bytes);
    void *temp = lab_dev_poisoned(scan_temp_bytes(n) + 4);
    cr_assert_null(scan_exclusive(in_d, out_d, n, temp));
    lab_dev_download(got, out_d, bytes);
    for (int64_t i = 0; i <= n; i++)
        if (got[i] != want[i])
            cr_assert_fail("scan: out[%lld] = %u, expected %u (n=%lld%s, seed=%llu; out[n] is the total)", (long long)i,
                           got[i], want[i], (long long)n, in_place ? " in place" : "", (unsigned long long)seed);
    cr_assert_eq(got[n + 1], POISON, "scan wrote past out[n] (n=%lld)", (long long)n);
    lab_dev_free(in_d), lab_dev_free(temp);
    if (!in_place)
        lab_dev_free(out_d);
    free(x), free(want), free(got);
}

GPU_TEST(scan_gpu, exclusive_scan_around_tiles_and_levels)
{
    static const int64_t sizes[] = {0, 1, 2, 31, SCAN_TILE - 1, SCAN_TILE, SCAN_TILE + 1, 3 * SCAN_TILE + 7,
                                    (int64_t)SCAN_TILE * SCAN_TILE - 1, (int64_t)SCAN_TILE * SCAN_TILE + 5,
                                    ((int64_t)1 << 26) + 3};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int in_place = 0; in_place < 2; in_place++)
            check_scan(sizes[z], in_place, seed_of((int)z + in_place));
}
#endif

/* ---- step 2: the local sort, any whole number of warps ------------------------ */
#if LAB_STEP_NUM == 2
GPU_TEST(radix_local, block_sizes)
{
    static const int blocks[] = {32, 64, 96, 512, 1024};
    for (int b = 0; b < 5; b++) {
        sort_params p = sort_default_params(2);
        p.block = blocks[b];
        for (int d = 0; sort_dists[d] != NULL; d++)
            check_sort(d % 2 ? 100003 : 4097, sort_dists[d], SORT_UINT, 1, seed_of(b + d), &p);
    }
}
#endif

/* ---- step 3: every digit width ------------------------------------------------ */
#if LAB_STEP_NUM == 3
GPU_TEST(radix_multibit, every_r_from_1_to_8)
{
    static const int blocks[] = {64, 256, 1024};
    for (int r = 1; r <= SORT_MAX_RADIX_BITS; r++)
        for (int b = 0; b < 3; b++) {
            sort_params p = sort_default_params(3);
            p.radix_bits = r, p.block = blocks[b];
            check_sort(r % 2 ? 65537 : 1001, sort_dists[(r + b) % 6], SORT_UINT, 1, seed_of(r + b), &p);
            check_sort(30011, "uniform", (sort_type)(r % 3), 1, seed_of(r), &p);
        }
}
#endif

/* ---- step 4: digit widths and coarsening together ----------------------------- */
#if LAB_STEP_NUM == 4
GPU_TEST(radix_coarsened, every_r_and_coarsening)
{
    static const int coarsen[] = {1, 2, 3, 5, 8, 16};
    for (int r = 1; r <= SORT_MAX_RADIX_BITS; r++)
        for (int c = 0; c < 6; c++) {
            sort_params p = sort_default_params(4);
            p.radix_bits = r, p.coarsen = coarsen[c], p.block = c % 2 ? 128 : 256;
            check_sort(c % 2 ? 100003 : 7777, sort_dists[(r + c) % 6], SORT_UINT, (r + c) % 4 != 0, seed_of(r + c), &p);
        }
}

GPU_TEST(radix_coarsened, block_sizes_and_large_tiles)
{
    static const int blocks[] = {32, 96, 512, 512}, coarsen[] = {16, 7, 16, 5};
    for (int b = 0; b < 4; b++) {
        sort_params p = sort_default_params(4);
        p.block = blocks[b], p.coarsen = coarsen[b]; /* 512 x 16: 64 KiB of keys, above the default shared memory */
        check_sort(b == 2 ? ((int64_t)1 << 20) + 77 : 200003, sort_dists[b + 1], SORT_UINT, 1, seed_of(b), &p);
    }
}

GPU_TEST(radix_coarsened, a_block_too_large_for_the_registers_is_refused_or_runs)
{
    /* 16 keys (and values) per thread in registers: 1024 threads may not fit one SM's registers */
    sort_params p = sort_default_params(4);
    p.block = 1024;
    unsigned int *d = lab_dev_poisoned(64);
    void *temp = lab_dev_poisoned(sort_temp_bytes(4, 1, &p));
    const char *why = sort_launch(d, d + 4, d + 8, d + 12, 4, temp, &p);
    CUDA_CHECK(cudaDeviceSynchronize()); /* a launch error would surface here */
    if (why != NULL)
        cr_assert(strstr(why, "threads") != NULL, "block=1024 refused with an unclear reason: %s", why);
    else
        check_sort(100003, "uniform", SORT_UINT, 1, lab_test_seeds[0], &p);
    lab_dev_free(d), lab_dev_free(temp);
}
#endif

/* ---- step 5: tiles, passes and run lengths --------------------------------------- */
#if LAB_STEP_NUM == 5
GPU_TEST(merge_sort, tile_sizes_and_pass_counts)
{
    static const int blocks[] = {32, 64, 256, 512}, coarsen[] = {1, 3, 8, 16};
    for (int b = 0; b < 4; b++)
        for (int c = 0; c < 4; c++) {
            sort_params p = sort_default_params(5);
            p.block = blocks[b], p.coarsen = coarsen[c];
            const int64_t tile = (int64_t)p.block * p.coarsen;
            /* whole tiles, one more key, and an odd number of runs, so the passes ping-pong both ways */
            const int64_t sizes[] = {tile, tile + 1, 2 * tile, 5 * tile - 3, 8 * tile + 1};
            for (int z = 0; z < 5; z++)
                check_sort(sizes[z], sort_dists[(b + c + z) % 6], SORT_UINT, (b + z) % 2 == 0, seed_of(b + c + z), &p);
        }
}

GPU_TEST(merge_sort, many_passes_keys_only_and_pairs)
{
    sort_params p = sort_default_params(5);
    p.block = 32, p.coarsen = 1; /* 32-key tiles: 15 merge passes for 2^20 keys */
    check_sort(((int64_t)1 << 20) - 5, "few", SORT_UINT, 1, lab_test_seeds[0], &p);
    check_sort(((int64_t)1 << 20) + 5, "uniform", SORT_FLOAT, 0, lab_test_seeds[1], &p);
}
#endif

/* ---- step 6: both networks ----------------------------------------------------- */
#if LAB_STEP_NUM == 6
GPU_TEST(sorting_networks, odd_even_transposition_up_to_4096)
{
    static const int64_t sizes[] = {0, 1, 2, 3, 33, 100, 1023, 2048, 4095, 4096};
    static const int blocks[] = {1, 32, 256, 1024};
    for (int z = 0; z < 10; z++)
        for (int d = 0; sort_dists[d] != NULL; d++) {
            sort_params p = sort_default_params(6);
            p.variant = "odd-even", p.block = blocks[(z + d) % 4];
            check_sort(sizes[z], sort_dists[d], SORT_UINT, (z + d) % 2 == 0, seed_of(z + d), &p);
        }
}

GPU_TEST(sorting_networks, bitonic_tiles_blocks_and_padding)
{
    static const int tiles[] = {2, 64, 2048, 8192}, blocks[] = {1, 32, 256, 1024};
    static const int64_t sizes[] = {5, 1000, 65536, 100003};
    for (int t = 0; t < 4; t++)
        for (int b = 0; b < 4; b++) {
            sort_params p = sort_default_params(6);
            p.tile = tiles[t], p.block = blocks[b];
            check_sort(sizes[(t + b) % 4], sort_dists[(t + b) % 6], SORT_UINT, (t + b) % 2 == 0, seed_of(t + b), &p);
        }
}

GPU_TEST(sorting_networks, bitonic_at_2_pow_20_and_above)
{
    const sort_params p = sort_default_params(6);
    check_sort(((int64_t)1 << 20) + 3, "uniform", SORT_UINT, 1, lab_test_seeds[0], &p);
    check_sort((int64_t)1 << 21, "few", SORT_INT, 1, lab_test_seeds[1], &p);
}
#endif
