/* step8-merge-sort-path.c - step 8's own tests, in its two tiles as its
 * result line names them (the block sort's U, 1024 x 17 keys; the merge
 * passes' T, 512 x 17; U = 2T): sizes around both tiles and around the run
 * widths (odd and even pass counts, so the ping-pong ends in the output either
 * way, partial last tiles and pairs with no B, sizes that are whole merge tiles
 * but no whole number of block sort tiles, or neither), the benchmark's 2^26,
 * outputs that do not start on a 16-byte boundary (the int4 stores fall back
 * to words), and the compile-time block refused in any other size. */
#include <string.h>

#include "sort_test.h"

/* A tile of the step's result line: " tile=" the merge passes' ("tile=8704"), "sort_tile=" the block sort's. */
static int64_t tile_of_step(const char *name)
{
    char line[256];
    const char *at;
    STEP->describe(&STEP->defaults, line, sizeof line);
    at = strstr(line, name);
    cr_assert_not_null(at, "the result line names %s: '%s'", name, line);
    return strtoll(at + strlen(name), NULL, 10);
}
#define MERGE_TILE() tile_of_step(" tile=")
#define SORT_TILE()  tile_of_step("sort_tile=")

GPU_TEST(merge_sort_path, sizes_around_tiles_and_run_widths)
{
    const int64_t T = MERGE_TILE(), U = SORT_TILE();
    /* around one merge tile and one block sort tile (no merge pass); 2, 3, 4, 5 block sort tiles (one or two passes,
     * B short or empty); 3 merge tiles, 1.5 block sort tiles; 37 (6 passes, odd runs); 64, 65; 6.5 and a key */
    const int64_t sizes[] = {T - 1, T,           T + 1,  U - 1,      U,          U + 1,
                             2 * U, 2 * U + 1,   3 * T,  3 * T + 5,  3 * U - 1,  4 * U + 3,
                             5 * U, 37 * U + 11, 64 * U, 64 * U + 1, 65 * U - 7, 13 * T + 1};
    for (int z = 0; z < (int)(sizeof sizes / sizeof sizes[0]); z++)
        for (int d = 0; sort_dists[d] != NULL; d++)
            check_sort(sizes[z], sort_dists[d], (sort_type)((z + d) % 3), (z + d) % 2 == 0, lab_test_seed(z + d),
                       &STEP->defaults);
}

GPU_TEST(merge_sort_path, two_pow_26_int_keys_and_pairs)
{
    check_sort((int64_t)1 << 26, "uniform", SORT_INT, 0, lab_test_seed(0), &STEP->defaults);
    check_sort((int64_t)1 << 26, "few", SORT_INT, 1, lab_test_seed(1), &STEP->defaults);
}

/* keys_out (values_out) `shift` words past a 16-byte boundary, with poisoned
 * words before and after: the sorted keys and values, nothing written outside. */
static void check_shifted_output(int64_t n, const char *dist, int shift, uint64_t seed)
{
    const int64_t words = shift + n + 4;
    const size_t bytes = sizeof(unsigned int) * (size_t)n, all = sizeof(unsigned int) * (size_t)words;
    unsigned int *keys = lab_xmalloc(bytes), *values = lab_xmalloc(bytes);
    unsigned int *want_k = lab_xmalloc(bytes), *want_v = lab_xmalloc(bytes);
    unsigned int *got_k = lab_xmalloc(all), *got_v = lab_xmalloc(all);
    lab_rng rng = lab_rng_seeded(seed);
    cr_assert_eq(sort_make_keys(dist, &rng, keys, n, SORT_UINT), 0);
    for (int64_t i = 0; i < n; i++)
        values[i] = (unsigned int)i;
    memcpy(want_k, keys, bytes), memcpy(want_v, values, bytes);
    sort_ref(want_k, want_v, n);
    unsigned int *k_d = lab_dev_upload(keys, bytes, "keys_in"), *v_d = lab_dev_upload(values, bytes, "values_in");
    unsigned int *ok_d = lab_dev_poisoned(all, "keys_out (shifted)"),
                 *ov_d = lab_dev_poisoned(all, "values_out (shifted)");
    void *temp = lab_dev_poisoned(sort_temp_bytes(STEP, n, 1, &STEP->defaults), "temp_d (the workspace)");
    const char *why = sort_run(STEP, k_d, v_d, ok_d + shift, ov_d + shift, n, temp, &STEP->defaults);
    cr_assert_null(why, "sort_run refused n=%lld: %s", (long long)n, why ? why : "");
    lab_dev_download(got_k, ok_d, all), lab_dev_download(got_v, ov_d, all);
    for (int64_t w = 0; w < words; w++) {
        const int64_t i = w - shift;
        if (i < 0 || i >= n)
            cr_assert(got_k[w] == LAB_POISON_WORD && got_v[w] == LAB_POISON_WORD,
                      "n=%lld dist=%s: word %lld of the output buffers was written, outside the output (which starts "
                      "%d words past a 16-byte boundary)%s",
                      (long long)n, dist, (long long)w, shift, lab_todo_note());
        else if (got_k[w] != want_k[i] || got_v[w] != want_v[i])
            cr_assert_fail("n=%lld dist=%s seed=%llu, output %d words past a 16-byte boundary: out[%lld] = %#x "
                           "(value %#x)%s, expected %#x (value %#x)%s",
                           (long long)n, dist, (unsigned long long)seed, shift, (long long)i, got_k[w], got_v[w],
                           lab_marker_meaning(got_k[w]), want_k[i], want_v[i], lab_todo_note());
    }
    lab_dev_free(k_d), lab_dev_free(v_d), lab_dev_free(ok_d), lab_dev_free(ov_d), lab_dev_free(temp);
    free(keys), free(values), free(want_k), free(want_v), free(got_k), free(got_v);
}

GPU_TEST(merge_sort_path, outputs_off_a_16_byte_boundary)
{
    const int64_t U = SORT_TILE();
    for (int shift = 1; shift <= 3; shift++) {
        check_shifted_output(U - shift, "uniform", shift, lab_test_seed(shift + 3)); /* the block sort alone */
        check_shifted_output(U + shift, "uniform", shift, lab_test_seed(shift));     /* one merge pass */
        check_shifted_output(4 * U - shift, "few", shift, lab_test_seed(shift + 1)); /* two passes */
        check_shifted_output(100003, "high", shift, lab_test_seed(shift + 2));       /* three passes */
    }
}

Test(merge_sort_path_params, the_block_is_compile_time)
{
    sort_params p = STEP->defaults;
    char line[256], block[32];
    const int64_t T = MERGE_TILE(), U = SORT_TILE();
    cr_assert_eq(T % p.block, 0, "the merge tile is the block's threads x MP_ITEMS keys");
    cr_assert(U % T == 0 && ((U / T) & (U / T - 1)) == 0,
              "the block sort's tile (%lld) is 2^k merge tiles (%lld): every run width is whole merge tiles",
              (long long)U, (long long)T);
    cr_assert_null(sort_check(STEP, 1 << 20, &p), "the default block runs");
    p.block = 256;
    assert_refused(1000, &p, "block=256 (the step's block is compile-time)");
    p.block = 1024;
    assert_refused(1000, &p, "block=1024 (the step's block is compile-time)");
    STEP->describe(&STEP->defaults, line, sizeof line);
    snprintf(block, sizeof block, "block=%d", STEP->defaults.block);
    cr_assert(strstr(line, block) != NULL, "the result line names the block: '%s'", line);
    cr_assert_geq(sort_temp_bytes(STEP, 1000000, 1, &STEP->defaults), 2 * sizeof(unsigned int) * 1000000,
                  "the workspace holds the second key and value buffers");
}

/* A missing barrier (wrong variant merge-path-sort-no-stage-barrier) lets a
 * thread pick its keys before other warps have staged them: the stale keys of
 * an earlier tile land in the output. Several launches over many tiles: it
 * shows every time. */
GPU_TEST(merge_sort_path_races, a_missing_barrier_shows_every_time)
{
    const int64_t U = SORT_TILE();
    check_sort_repeatedly(((int64_t)1 << 20) + 7, 1, 8, lab_test_seed(0), &STEP->defaults);
    check_sort_repeatedly(37 * U + 11, 0, 8, lab_test_seed(1), &STEP->defaults); /* keys only: its own kernels */
}
