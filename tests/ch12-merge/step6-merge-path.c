/* step6-merge-path.c - ch12 step 6's own tests, beyond the chapter suite's
 * (merge.c runs every small size, distribution, key type and values through
 * the descriptor). Sizes measured in the step's tiles (MP_TILE outputs, the
 * descriptor's default tile): lopsided merges (m >> n, m << n), partial last
 * tiles, ties straddling tile and thread edges (tagged: a tie taken from B
 * first moves a tag), 2^27 + 2^27 elements, and outputs that do not start on
 * a 16-byte boundary (the int4 stores fall back to 4-byte words). On the CPU:
 * the descriptor's compile-time shape and its workspace. */
#include <string.h>

#include "lab_test.h"
#include "merge_host.h"
#include "merge_ref.h"

/* The step's tile: MP_THREADS x MP_ITEMS outputs (merge_path.cuh). */
#define TILE ((int64_t)merge_step_info.defaults.tile)

/* The step's merge of `in` into C and C_values that start `shift` words past
 * a 16-byte boundary, inside buffers with poisoned words before and after:
 * the number of wrong outputs, plus any word written outside C (the first
 * described in first). */
static int64_t shifted_merge_errors(const merge_inputs *in, int shift, char *first, size_t first_len)
{
    const merge_params *p = &merge_step_info.defaults;
    const int64_t total = in->m + in->n, words = shift + total + 4;
    const size_t bytes = sizeof(int) * (size_t)words;
    const int values = in->A_values != NULL;
    int *got = lab_xmalloc(bytes), *got_v = lab_xmalloc(bytes);
    int *want = lab_xmalloc(sizeof(int) * (size_t)(total + 1)),
        *want_v = lab_xmalloc(sizeof(int) * (size_t)(total + 1));
    merge_ref(in, want, values ? want_v : NULL);
    merge_args a = merge_upload(in, merge_temp_bytes(&merge_step_info, in->m, in->n, p));
    int *C_d = a.C, *C_values_d = a.C_values; /* merge_upload's, aligned: put back before merge_free */
    int *C_shifted = lab_dev_poisoned(bytes, "C_d (shifted)");
    int *V_shifted = values ? lab_dev_poisoned(bytes, "C_values_d (shifted)") : NULL;
    a.C = C_shifted + shift;
    a.C_values = values ? V_shifted + shift : NULL;
    const char *why = merge_launch(&a, p);
    cr_assert_null(why, "merge_launch refused m=%lld n=%lld: %s", (long long)in->m, (long long)in->n, why ? why : "");
    char where[96];
    snprintf(where, sizeof where, "m=%lld n=%lld", (long long)in->m, (long long)in->n);
    lab_test_finish(LAB_LAUNCH_DEADLINE, where); /* a kernel that never ends fails here; a fault, in the download */
    lab_dev_download(got, C_shifted, bytes);
    if (values)
        lab_dev_download(got_v, V_shifted, bytes);
    lab_mismatch mm = merge_compare(in, got + shift, values ? got_v + shift : NULL, want, values ? want_v : NULL, 0,
                                    first, first_len);
    int64_t errors = mm.count;
    for (int64_t w = 0; w < words; w++) {
        const int outside = w < shift || w >= shift + total;
        if (outside && ((uint32_t)got[w] != LAB_POISON_WORD || (values && (uint32_t)got_v[w] != LAB_POISON_WORD))) {
            if (errors++ == 0)
                snprintf(first, first_len, "a word %s C was written (word %lld of the buffer, C starts at word %d)",
                         w < shift ? "before" : "after", (long long)w, shift);
        }
    }
    a.C = C_d, a.C_values = C_values_d;
    merge_free(&a);
    lab_dev_free(C_shifted), lab_dev_free(V_shifted);
    free(got), free(got_v), free(want), free(want_v);
    return errors;
}

/* Fresh inputs of a distribution (int keys tagged by origin), merged by the
 * step with C shifted `shift` words: every output must be the stable merge's. */
static void check_shifted(int64_t m, int64_t n, const char *dist, int is_float, int values, int shift, uint64_t seed)
{
    merge_inputs in;
    char first[512] = "";
    cr_assert_eq(merge_inputs_make(&in, dist, seed, m, n, is_float, values, MERGE_TAG_ORIGIN), 0);
    const int64_t errors = shifted_merge_errors(&in, shift, first, sizeof first);
    cr_assert_eq(errors, 0,
                 "%lld wrong outputs: first %s -- m=%lld n=%lld (tile %lld) dist=%s type=%s %s, C %d words "
                 "past a 16-byte boundary, seed=%llu%s",
                 (long long)errors, first, (long long)m, (long long)n, (long long)TILE, dist,
                 is_float ? "float" : "int", values ? "pairs" : "keys", shift, (unsigned long long)seed,
                 lab_todo_note());
    merge_inputs_free(&in);
}

/* Int and float keys, keys alone and with values, C aligned. */
static void check_every_kind(int64_t m, int64_t n, const char *dist, uint64_t seed)
{
    for (int is_float = 0; is_float < 2; is_float++)
        for (int values = 0; values < 2; values++)
            check_shifted(m, n, dist, is_float, values, 0, seed);
}

GPU_TEST(merge_path, lopsided_merges)
{
    const int64_t T = TILE;
    const int64_t sizes[][2] = {{1000000, 3}, {3, 1000000},   {20 * T + 1, 1},    {1, 20 * T + 1},
                                {7 * T, 0},   {0, 7 * T - 1}, {T - 1, 2 * T + 1}, {2 * T + 1, T - 1}};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int d = 0; merge_dists[d] != NULL; d++)
            check_every_kind(sizes[z][0], sizes[z][1], merge_dists[d], lab_test_seed((int)(z + d)));
}

GPU_TEST(merge_path, partial_last_tiles)
{
    const int64_t T = TILE;
    const int64_t totals[] = {1, 2, 14, 15, 16, T - 1, T, T + 1, 2 * T - 1, 2 * T + 1, 5 * T + 3, 9 * T - 4};
    static const char *const dists[] = {"uniform", "dups", "equal", "interleaved"};
    for (size_t z = 0; z < sizeof totals / sizeof totals[0]; z++)
        for (int d = 0; d < 4; d++) {
            check_every_kind(totals[z] / 2, totals[z] - totals[z] / 2, dists[d], lab_test_seed((int)z));
            check_every_kind(totals[z] / 3, totals[z] - totals[z] / 3, dists[d], lab_test_seed(d));
        }
}

/* Tagged ties at the tile edges: in "dups" every one of the twelve keys' runs
 * spans about a tile, so its two ends fall near tile edges, within a thread's
 * outputs and across them; in "equal" every edge is inside one run. */
GPU_TEST(merge_path, ties_straddle_tile_and_thread_edges)
{
    const int64_t T = TILE;
    for (int64_t delta = -2; delta <= 2; delta++) {
        check_every_kind(6 * T + delta, 6 * T + 7, "dups", lab_test_seeds[0]);
        check_every_kind(3 * T + 7 * delta, 2 * T - 7, "equal", lab_test_seeds[1]);
    }
}

/* A run of equal keys in both A and B across the first tile edge: A and B
 * hold T/2 - 8 ones, 64 twos, then threes, so the twos fill C[T - 16, T + 112)
 * and the tile edge falls 16 into them; ties must take A's 64 first. */
GPU_TEST(merge_path, a_tie_run_across_the_tile_edge)
{
    const int64_t T = TILE, m = T, n = T + 5;
    int *A = lab_xmalloc(sizeof(int) * (size_t)m), *B = lab_xmalloc(sizeof(int) * (size_t)n);
    for (int64_t i = 0; i < m; i++)
        A[i] = i < T / 2 - 8 ? 1 : i < T / 2 + 56 ? 2 : 3;
    for (int64_t j = 0; j < n; j++)
        B[j] = j < T / 2 - 8 ? 1 : j < T / 2 + 56 ? 2 : 3;
    merge_tag(A, m, 0, MERGE_TAG_ORIGIN), merge_tag(B, n, 1, MERGE_TAG_ORIGIN);
    const merge_inputs in = {.m = m, .n = n, .tagged = MERGE_TAG_ORIGIN, .A = A, .B = B};
    char first[512] = "";
    for (int shift = 0; shift < 2; shift++) {
        const int64_t errors = shifted_merge_errors(&in, shift, first, sizeof first);
        cr_assert_eq(errors, 0,
                     "%lld wrong outputs: first %s -- a run of ties across the tile edge (tile %lld), C "
                     "shifted %d words%s",
                     (long long)errors, first, (long long)T, shift, lab_todo_note());
    }
    free(A), free(B);
}

GPU_TEST(merge_path, outputs_off_a_16_byte_boundary)
{
    const int64_t T = TILE;
    const int64_t totals[] = {T + 1, 3 * T - 2, 100003};
    for (int shift = 1; shift <= 3; shift++)
        for (size_t z = 0; z < sizeof totals / sizeof totals[0]; z++)
            for (int values = 0; values < 2; values++) {
                check_shifted(totals[z] / 2 + shift, totals[z] - totals[z] / 2 - shift, "uniform", 0, values, shift,
                              lab_test_seed((int)z));
                check_shifted(totals[z] / 3, totals[z] - totals[z] / 3, "dups", 1, values, shift, lab_test_seed(shift));
            }
}

/* The benchmark's size, 2^28 in all: long runs of tagged ties (dups), pairs. */
GPU_TEST(merge_path, two_pow_27_plus_two_pow_27)
{
    check_shifted((int64_t)1 << 27, (int64_t)1 << 27, "dups", 0, 1, 0, lab_test_seeds[2]);
}

/* ---- on the CPU: the descriptor --------------------------------------------------- */

Test(merge_path_params, the_shape_is_compile_time)
{
    const merge_step *s = &merge_step_info;
    const merge_params *def = &s->defaults;
    merge_params p = *def;
    const merge_args none = {.m = 100, .n = 100};
    cr_assert_eq(def->tile, def->block * def->coarsen, "the tile (%d) is MP_THREADS (%d) x MP_ITEMS (%d)", def->tile,
                 def->block, def->coarsen);
    cr_assert_eq(def->tile % 4, 0, "tiles start on 16-byte boundaries");
    cr_assert_eq(s->takes & (MERGE_TAKES_BLOCK | MERGE_TAKES_GRID | MERGE_TAKES_TILE | MERGE_TAKES_COARSEN), 0,
                 "./run takes none of --block, --grid, --tile, --coarsen: the shape is compile-time");
    cr_assert(s->takes_values && (s->takes & MERGE_TAKES_TYPE), "pairs and float keys");
    cr_assert_null(merge_check(s, 1 << 20, 1 << 20, 1, 1, def), "the defaults run float pairs");
    p.tile = def->tile + 1;
    cr_assert_not_null(merge_check(s, 1000, 1000, 0, 0, &p), "a tile other than MP_TILE is not this step's shape");
    cr_assert_not_null(merge_launch(&none, &p), "merge_launch refuses it before touching the GPU");
    p = *def, p.tile = 0;
    cr_assert_not_null(merge_check(s, 1000, 1000, 0, 0, &p), "tile 0: not the shape, no workspace");
    p = *def, p.block = def->block / 2;
    cr_assert_not_null(merge_check(s, 1000, 1000, 0, 0, &p), "a block other than MP_THREADS is not this step's shape");
    p = *def, p.grid = 3;
    cr_assert_not_null(merge_check(s, 1000, 1000, 0, 0, &p), "the grid is one block per tile");
}

Test(merge_path_params, the_workspace_holds_every_tile_boundary)
{
    const merge_step *s = &merge_step_info;
    const int64_t sizes[][2] = {{0, 1},    {1, 0},       {TILE, 0},
                                {TILE, 1}, {1000000, 3}, {(int64_t)1 << 30, ((int64_t)1 << 30) - 1}};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        const int64_t total = sizes[z][0] + sizes[z][1], tiles = (total + TILE - 1) / TILE;
        cr_assert_geq(merge_temp_bytes(s, sizes[z][0], sizes[z][1], &s->defaults), sizeof(int) * (size_t)(tiles + 1),
                      "m=%lld n=%lld: room for %lld tile boundaries", (long long)sizes[z][0], (long long)sizes[z][1],
                      (long long)tiles + 1);
    }
}
