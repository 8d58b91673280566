/* sort_cpu.c - the chapter's host side that every sort.cu step's tests lean
 * on, tested on the CPU (CI, no GPU): the order-preserving transform, the CPU
 * reference against a stable comparison sort, one iteration of Fig 13.4 on
 * the CPU, the input distributions, and the scan's temporaries. Part of
 * chapter 13's suite (tests/ch13-sort/sort.c), linked with it into every
 * step's test binary. */
#include <string.h>

#include "scan.h"
#include "sort_test.h"

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
