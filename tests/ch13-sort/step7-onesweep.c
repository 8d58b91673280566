/* step7-onesweep.c - step 7's own tests: its fixed block and its tables
 * refused or sized without a GPU; sizes around its 7680-key tile; the passes
 * skipped for every set of constant digits, through sort_run and through
 * onesweep_sort_buffers (in place, the result always in the caller's first
 * buffer); dense ties in every digit; look-backs across many tiles, repeated
 * (a missing fence shows as a wrong count only now and then); and 2^28 + 4099
 * keys, checked exactly in O(n) (the CPU reference would take most of the
 * test's time). */
#include <string.h>

#include "onesweep.h"
#include "sort_test.h"

/* The input position whose payload (sort_test_payload) is v. */
static unsigned int payload_index(unsigned int v)
{
    unsigned int inv = SORT_TEST_PAYLOAD_MUL; /* Newton's iteration: the inverse of an odd number mod 2^32 */
    for (int k = 0; k < 5; k++)
        inv *= 2u - SORT_TEST_PAYLOAD_MUL * inv;
    return (v - SORT_TEST_PAYLOAD_ADD) * inv;
}

/* ---- CPU tests ------------------------------------------------------------- */

Test(onesweep, the_block_is_fixed_and_bad_sizes_refused_without_a_gpu)
{
    sort_params p = STEP->defaults;
    cr_assert_eq(p.block, 384, "step 7's block is 384 threads (ONESWEEP_THREADS)");
    p.block = 256;
    const char *why = sort_check(STEP, 1000, &p);
    cr_assert(why != NULL && strstr(why, "384") != NULL, "--block 256 must be refused, naming 384: %s",
              why ? why : "(accepted)");
    assert_refused(1000, &p, "--block 256");
    unsigned int *d = (unsigned int *)(uintptr_t)0x1000; /* never touched: the size is refused first */
    int alt = -1;
    cr_assert_not_null(onesweep_sort(d, d, d, d, d, d, -1, d, 0), "onesweep_sort must refuse n = -1");
    cr_assert_not_null(onesweep_sort(d, d, d, d, d, d, (int64_t)1 << 31, d, 0), "onesweep_sort must refuse n = 2^31");
    cr_assert_not_null(onesweep_sort_buffers(d, d, d, d, (int64_t)1 << 31, d, 0, &alt),
                       "onesweep_sort_buffers must refuse n = 2^31");
    cr_assert_null(onesweep_sort(d, d, d, d, d, d, 0, d, 0), "n = 0 is accepted and launches nothing");
}

Test(onesweep, tables_grow_with_n)
{
    const int64_t tile = onesweep_tile_keys();
    cr_assert_eq(tile, 384 * 19, "the tile is 384 threads x 19 keys");
    cr_assert_eq(onesweep_tables_bytes(-1), 0);
    cr_assert_eq(onesweep_tables_bytes((int64_t)1 << 31), 0);
    size_t last = 0;
    for (int64_t n = 0; n <= 2147483647LL; n = n * 5 + 1) {
        const size_t b = onesweep_tables_bytes(n);
        const int64_t tiles = (n + tile - 1) / tile;
        cr_assert_geq(b, sizeof(unsigned int) * (size_t)(4 * 256 + 2 * 256 * tiles),
                      "n=%lld: 4 passes' histograms and two tables of 256 status words per tile", (long long)n);
        if (tiles >= 16) /* past the fixed part: two tables of status words, taken in turn, not one per pass */
            cr_assert_lt(b, sizeof(unsigned int) * (size_t)(3 * 256 * tiles), "n=%lld: more than two status tables",
                         (long long)n);
        cr_assert_geq(b, last, "the tables must not shrink as n grows (n=%lld)", (long long)n);
        last = b;
    }
    cr_assert_gt(onesweep_tables_bytes(2147483647LL), 0, "n = 2^31 - 1 is in range");
}

/* ---- GPU tests ------------------------------------------------------------- */

GPU_TEST(onesweep, sizes_around_the_tile)
{
    const int64_t t = onesweep_tile_keys();
    const int64_t sizes[] = {t - 1, t, t + 1, 2 * t - 1, 2 * t, 2 * t + 1, 5 * t + 3, 33 * t - 1, 64 * t};
    for (int z = 0; z < 9; z++)
        check_sort(sizes[z], sort_dists[z % 6], z % 3 == 2 ? SORT_FLOAT : SORT_UINT, z % 2 == 0, lab_test_seed(z),
                   &STEP->defaults);
}

/* n keys whose digits in `varying` (bit k: digit k) are random and whose
 * other digits are one random nonzero constant: the passes of the constant
 * digits are skipped. */
static void keys_varying_in(unsigned int *keys, int64_t n, unsigned int varying, uint64_t seed)
{
    lab_rng rng = lab_rng_seeded(seed);
    unsigned int mask = 0;
    for (int k = 0; k < 4; k++)
        if (varying >> k & 1)
            mask |= 0xffu << (8 * k);
    const unsigned int constant = ((unsigned int)(lab_rng_next(&rng) >> 32) | 0x01010101u) & ~mask;
    for (int64_t i = 0; i < n; i++)
        keys[i] = constant | ((unsigned int)(lab_rng_next(&rng) >> 32) & mask);
}

/* Sorts keys (values) of n through sort_run, and in place through
 * onesweep_sort_buffers; checks both against the reference. */
static void check_both_entry_points(const unsigned int *keys, int64_t n, int with_values, const char *context)
{
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    unsigned int *values = lab_xmalloc(bytes), *want_k = lab_xmalloc(bytes), *want_v = lab_xmalloc(bytes);
    unsigned int *got_k = lab_xmalloc(bytes), *got_v = lab_xmalloc(bytes);
    for (int64_t i = 0; i < n; i++)
        values[i] = want_v[i] = sort_test_payload(i);
    memcpy(want_k, keys, bytes);
    sort_ref(want_k, want_v, n);
    for (int in_place = 0; in_place <= 1; in_place++) {
        unsigned int *k_d = lab_dev_upload(keys, bytes, "keys");
        unsigned int *v_d = with_values ? lab_dev_upload(values, bytes, "values") : NULL;
        unsigned int *ok_d = lab_dev_poisoned(bytes, in_place ? "keys_alt" : "keys_out");
        unsigned int *ov_d = with_values ? lab_dev_poisoned(bytes, in_place ? "values_alt" : "values_out") : NULL;
        void *temp = lab_dev_poisoned(in_place ? onesweep_tables_bytes(n)
                                               : sort_temp_bytes(STEP, n, with_values, &STEP->defaults),
                                      in_place ? "tables_temp" : "temp_d (the workspace)");
        int in_alt = -1;
        const char *why = in_place ? onesweep_sort_buffers(k_d, ok_d, v_d, ov_d, n, temp, 0, &in_alt)
                                   : sort_run(STEP, k_d, v_d, ok_d, ov_d, n, temp, &STEP->defaults);
        char where[224];
        snprintf(where, sizeof where, "%s, %s", in_place ? "in place (onesweep_sort_buffers)" : "sort_run", context);
        cr_assert_null(why, "refused: %s: %s", where, why ? why : "");
        cr_assert(!in_place || in_alt == 0, "onesweep_sort_buffers: the result must be in keys (result_in_alt %d)",
                  in_alt);
        lab_dev_download(got_k, in_place ? k_d : ok_d, bytes);
        if (with_values)
            lab_dev_download(got_v, in_place ? v_d : ov_d, bytes);
        check_output(got_k, with_values ? got_v : NULL, want_k, want_v, n, where);
        if (!in_place) {
            lab_dev_download(got_k, k_d, bytes);
            cr_assert(memcmp(got_k, keys, bytes) == 0, "sort_run changed its input keys (%s)", context);
        }
        lab_dev_free(k_d), lab_dev_free(v_d), lab_dev_free(ok_d), lab_dev_free(ov_d), lab_dev_free(temp);
    }
    free(values), free(want_k), free(want_v), free(got_k), free(got_v);
}

GPU_TEST(onesweep, passes_skipped_for_every_set_of_constant_digits)
{
    const int64_t n = 3 * (int64_t)onesweep_tile_keys() + 17;
    unsigned int *keys = lab_xmalloc(sizeof(unsigned int) * (size_t)n);
    for (unsigned int varying = 0; varying < 16; varying++) /* 0: all keys equal, every pass skipped */
        for (int with_values = 0; with_values <= 1; with_values++) {
            char context[160];
            const uint64_t seed = lab_test_seed((int)varying + with_values);
            snprintf(context, sizeof context, "n=%lld, digits varying: mask %#x, %s, seed %llu", (long long)n, varying,
                     with_values ? "pairs" : "keys", (unsigned long long)seed);
            keys_varying_in(keys, n, varying, seed);
            check_both_entry_points(keys, n, with_values, context);
        }
    free(keys);
}

GPU_TEST(onesweep, in_place_at_2_pow_20_and_above)
{
    const int64_t n = ((int64_t)1 << 20) + 3;
    unsigned int *keys = lab_xmalloc(sizeof(unsigned int) * (size_t)n);
    for (int d = 0; sort_dists[d] != NULL; d++) {
        char context[160];
        lab_rng rng = lab_rng_seeded(lab_test_seed(d));
        sort_make_keys(sort_dists[d], &rng, keys, n, SORT_UINT);
        snprintf(context, sizeof context, "n=%lld dist=%s seed=%llu", (long long)n, sort_dists[d],
                 (unsigned long long)lab_test_seed(d));
        check_both_entry_points(keys, n, d % 2 == 0, context);
    }
    free(keys);
}

GPU_TEST(onesweep, dense_ties_in_every_digit)
{
    const int64_t n = ((int64_t)1 << 20) + 1;
    unsigned int *keys = lab_xmalloc(sizeof(unsigned int) * (size_t)n);
    lab_rng rng = lab_rng_seeded(lab_test_seed(2));
    for (int64_t i = 0; i < n; i++) /* every digit 0 or 1: half of each tile ties with the other half */
        keys[i] = (unsigned int)(lab_rng_next(&rng) >> 32) & 0x01010101u;
    keys[0] |= 0x80000000u; /* never all zero */
    check_both_entry_points(keys, n, 1, "dense ties: keys & 0x01010101, pairs");
    free(keys);
}

/* Pairs whose values are payload(input index): the output is the stable sort
 * exactly when the values are a permutation of the payloads, each key is the
 * input key of its value's index, and (key, index) grows strictly. */
static void assert_stable_sort_of(const unsigned int *keys_in, const unsigned int *got_k, const unsigned int *got_v,
                                  int64_t n, const char *context)
{
    unsigned char *seen = calloc((size_t)n / 8 + 1, 1);
    cr_assert_not_null(seen);
    for (int64_t i = 0; i < n; i++) {
        const unsigned int idx = payload_index(got_v[i]);
        cr_assert((int64_t)idx < n && !(seen[idx / 8] >> (idx % 8) & 1),
                  "values: out[%lld] = %#x%s is not the payload of an input position not seen before (%s)%s",
                  (long long)i, got_v[i], lab_marker_meaning(got_v[i]), context, lab_todo_note());
        seen[idx / 8] |= (unsigned char)(1u << (idx % 8));
        cr_assert(got_k[i] == keys_in[idx],
                  "keys: out[%lld] = %#x%s travelled with input %u's value; that key is "
                  "%#x (%s)%s",
                  (long long)i, got_k[i], lab_marker_meaning(got_k[i]), idx, keys_in[idx], context, lab_todo_note());
        if (i > 0) {
            const unsigned int prev = payload_index(got_v[i - 1]);
            cr_assert(got_k[i - 1] < got_k[i] || (got_k[i - 1] == got_k[i] && prev < idx),
                      "out[%lld] (key %#x, input %u) after (key %#x, input %u): %s (%s)%s", (long long)i, got_k[i], idx,
                      got_k[i - 1], prev,
                      got_k[i - 1] > got_k[i] ? "keys out of order" : "equal keys left their input order", context,
                      lab_todo_note());
        }
    }
    free(seen);
}

GPU_TEST(onesweep, at_least_2_pow_28_keys_exact_check)
{
    const int64_t n = ((int64_t)1 << 28) + 4099; /* not a multiple of the tile */
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    char context[160];
    snprintf(context, sizeof context, "n=%lld dist=uniform seed=%llu", (long long)n,
             (unsigned long long)lab_test_seed(0));
    unsigned int *keys = lab_xmalloc(bytes), *values = lab_xmalloc(bytes);
    unsigned int *got_k = lab_xmalloc(bytes), *got_v = lab_xmalloc(bytes);
    lab_rng rng = lab_rng_seeded(lab_test_seed(0));
    sort_make_keys("uniform", &rng, keys, n, SORT_UINT);
    for (int64_t i = 0; i < n; i++)
        values[i] = sort_test_payload(i);
    unsigned int *k_d = lab_dev_upload(keys, bytes, "keys_in"), *v_d = lab_dev_upload(values, bytes, "values_in");
    unsigned int *ok_d = lab_dev_poisoned(bytes, "keys_out"), *ov_d = lab_dev_poisoned(bytes, "values_out");
    void *temp = lab_dev_poisoned(sort_temp_bytes(STEP, n, 1, &STEP->defaults), "temp_d (the workspace)");
    const char *why = sort_run(STEP, k_d, v_d, ok_d, ov_d, n, temp, &STEP->defaults);
    cr_assert_null(why, "sort_run refused %s: %s", context, why ? why : "");
    lab_dev_download(got_k, ok_d, bytes);
    lab_dev_download(got_v, ov_d, bytes);
    assert_stable_sort_of(keys, got_k, got_v, n, context);
    lab_dev_free(ok_d);
    ok_d = lab_dev_poisoned(bytes, "keys_out");
    why = sort_run(STEP, k_d, NULL, ok_d, NULL, n, temp, &STEP->defaults); /* keys only: the pairs' keys */
    cr_assert_null(why, "sort_run refused %s, keys only: %s", context, why ? why : "");
    lab_dev_download(got_v, ok_d, bytes);
    for (int64_t i = 0; i < n; i++)
        cr_assert(got_v[i] == got_k[i], "keys only: out[%lld] = %#x%s, the checked pairs sort has %#x (%s)%s",
                  (long long)i, got_v[i], lab_marker_meaning(got_v[i]), got_k[i], context, lab_todo_note());
    lab_dev_download(got_v, k_d, bytes);
    cr_assert(memcmp(got_v, keys, bytes) == 0, "sort_run changed its input keys (%s)", context);
    lab_dev_free(k_d), lab_dev_free(v_d), lab_dev_free(ok_d), lab_dev_free(ov_d), lab_dev_free(temp);
    free(keys), free(values), free(got_k), free(got_v);
}

/* Flag and count read apart with no fence between (wrong variant
 * onesweep-split-status) give a wrong count only when a walk back meets a
 * tile whose count this SM cached before the tile published it: one wave of
 * tiles (2^20) and several, keys only and pairs (two kernels), many launches,
 * so the walks are long and many, and it shows every time. */
GPU_TEST(onesweep_races, a_missing_fence_shows_every_time)
{
    check_sort_repeatedly((int64_t)1 << 20, 1, 20, lab_test_seed(0), &STEP->defaults);
    check_sort_repeatedly(((int64_t)1 << 21) + 5, 0, 20, lab_test_seed(1), &STEP->defaults);
    check_sort_repeatedly((int64_t)1 << 22, 1, 20, lab_test_seed(2), &STEP->defaults);
}
