/* emu_main.cpp - the CPU emulation's checks of ch12 step 6 (merge_launch) and
 * ch13 step 8 (sort_run with its descriptor), on the lab's own inputs and references
 * (merge_ref.h, sort_ref.h): every distribution, int and float keys, keys and
 * pairs, sizes counted in the step's tiles (empty, single, lopsided, partial
 * tiles, several passes), outputs 0-3 words past a 16-byte boundary. Device
 * memory is host memory: inputs are exactly their size (ASan sees a read past
 * them), outputs carry four poisoned guard words. Int merge keys are tagged by
 * origin when built with -DLAB_TAGGED_KEYS, as in the lab's tests.
 *   emu [--max N] [--expect-fail] [--seed S]
 * --max: the largest size (default 40000); --expect-fail: a wrong variant's
 * build: exit 0 only when some check failed (it was caught). */
#include <string.h>

#include "merge_host.h"
#include "merge_ref.h"
#include "sort_host.h"

#define GUARD_WORDS 4

/* The GPU checks of the launchers, answered for the emulation. */
extern "C" const char *lab_fit_kernel(const void *kernel, int block, size_t shared_bytes)
{
    (void)kernel, (void)block;
    return shared_bytes > 227 * 1024 ? "a block needs more shared memory than an H100 gives one block" : NULL;
}

#ifdef LAB_TAGGED_KEYS
#define TAG MERGE_TAG_ORIGIN
#else
#define TAG MERGE_TAG_NONE
#endif

static int cases, failed;
static char first_failure[600];

static void fail(const char *what)
{
    if (failed++ == 0)
        snprintf(first_failure, sizeof first_failure, "%s", what);
    if (failed <= 10)
        printf("FAIL %s\n", what);
}

/* count words at `shift` words into a poisoned buffer with guard words after */
static int *poisoned(int64_t count, int shift)
{
    const size_t words = (size_t)(shift + count + GUARD_WORDS);
    int *p = (int *)lab_xmalloc(sizeof(int) * words);
    memset(p, LAB_POISON_BYTE, sizeof(int) * words);
    return p;
}

/* 1 when nothing outside [shift, shift + count) was written */
static int fence_intact(const int *buf, int64_t count, int shift)
{
    for (int64_t w = 0; w < shift + count + GUARD_WORDS; w++)
        if ((w < shift || w >= shift + count) && (uint32_t)buf[w] != LAB_POISON_WORD)
            return 0;
    return 1;
}

/* ---- ch12 step 6 ----------------------------------------------------------------- */

static void merge_case(const char *dist, int64_t m, int64_t n, int is_float, int values, int shift, uint64_t seed)
{
    merge_inputs in;
    char what[600], first[512] = "";
    const int64_t total = m + n;
    cases++;
    snprintf(what, sizeof what, "merge %s %s dist=%s m=%lld n=%lld C+%d seed=%llu", is_float ? "float" : "int",
             values ? "pairs" : "keys", dist, (long long)m, (long long)n, shift, (unsigned long long)seed);
    merge_inputs_make(&in, dist, seed, m, n, is_float, values, is_float ? MERGE_TAG_NONE : TAG);
    int *want = (int *)lab_xmalloc(sizeof(int) * (size_t)(total + 1));
    int *want_v = (int *)lab_xmalloc(sizeof(int) * (size_t)(total + 1));
    merge_ref(&in, want, values ? want_v : NULL);
    const merge_params *p = &merge_step_info.defaults;
    int *C = poisoned(total, shift), *C_v = values ? poisoned(total, shift) : NULL;
    const size_t temp_bytes = merge_temp_bytes(&merge_step_info, m, n, p);
    void *temp = lab_xmalloc(temp_bytes);
    memset(temp, LAB_POISON_BYTE, temp_bytes);
    merge_args a = {in.A, in.A_values, m, in.B, in.B_values, n, C + shift, values ? C_v + shift : NULL, is_float, temp};
    const char *why = merge_launch(&a, p);
    if (why != NULL) {
        snprintf(what + strlen(what), sizeof what - strlen(what), ": refused: %s", why);
        fail(what);
    } else {
        const lab_mismatch mm = merge_compare(&in, C + shift, values ? C_v + shift : NULL, want, values ? want_v : NULL,
                                              0, first, sizeof first);
        if (mm.count > 0) {
            snprintf(what + strlen(what), sizeof what - strlen(what), ": %lld wrong, first %s", (long long)mm.count,
                     first);
            fail(what);
        } else if (!fence_intact(C, total, shift) || (values && !fence_intact(C_v, total, shift))) {
            snprintf(what + strlen(what), sizeof what - strlen(what), ": wrote outside C");
            fail(what);
        }
    }
    free(C), free(C_v), free(temp), free(want), free(want_v);
    merge_inputs_free(&in);
}

static void merge_suite(uint64_t seed, int64_t max_total, int stop)
{
    const int64_t T = merge_step_info.defaults.tile;
    const int64_t sizes[][2] = {{0, 0},          {1, 0},          {0, 1},           {1, 1},           {5, 4},
                                {30000, 3},      {3, 30000},      {20 * T + 1, 3},  {3, 20 * T + 1},  {T / 2, T - T / 2},
                                {T / 2 + 1, T / 2}, {T + 1, 0},   {0, 2 * T + 1},   {3 * T + 7, 2 * T - 5},
                                {6 * T - 1, 6 * T + 2}, {12345, 6789}, {80000, 81000}};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        if (sizes[z][0] + sizes[z][1] > max_total)
            continue;
        for (int d = 0; merge_dists[d] != NULL; d++)
            for (int is_float = 0; is_float < 2; is_float++)
                for (int values = 0; values < 2; values++) {
                    const int shift = (int)((z + d + values) % 4) * (z % 3 == 0);
                    merge_case(merge_dists[d], sizes[z][0], sizes[z][1], is_float, values, shift,
                               seed + z * 100 + d * 10 + is_float * 2 + values);
                    if (stop && failed)
                        return;
                }
    }
}

/* ---- ch13 step 8 ----------------------------------------------------------------- */

static void sort_case(const char *dist, int64_t n, sort_type type, int values, int shift, uint64_t seed)
{
    char what[400];
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    cases++;
    snprintf(what, sizeof what, "sort %s %s dist=%s n=%lld out+%d seed=%llu", sort_type_name(type),
             values ? "pairs" : "keys", dist, (long long)n, shift, (unsigned long long)seed);
    unsigned int *keys = (unsigned int *)lab_xmalloc(bytes), *index = (unsigned int *)lab_xmalloc(bytes);
    unsigned int *want_k = (unsigned int *)lab_xmalloc(bytes), *want_v = (unsigned int *)lab_xmalloc(bytes);
    lab_rng rng = lab_rng_seeded(seed);
    sort_make_keys(dist, &rng, keys, n, type);
    sort_encode_keys(keys, n, type); /* the step sorts encoded keys */
    for (int64_t i = 0; i < n; i++)
        index[i] = want_v[i] = (unsigned int)i;
    memcpy(want_k, keys, bytes);
    sort_ref(want_k, want_v, n);
    unsigned int *in_k = (unsigned int *)lab_xmalloc(bytes), *in_v = (unsigned int *)lab_xmalloc(bytes);
    memcpy(in_k, keys, bytes), memcpy(in_v, index, bytes);
    int *out = poisoned(n, shift), *out_v = values ? poisoned(n, shift) : NULL;
    sort_params p = sort_step_info.defaults;
    p.type = type;
    const size_t temp_bytes = sort_temp_bytes(&sort_step_info, n, values, &p);
    void *temp = lab_xmalloc(temp_bytes);
    memset(temp, LAB_POISON_BYTE, temp_bytes);
    const char *why = sort_run(&sort_step_info, in_k, values ? in_v : NULL, (unsigned int *)out + shift,
                               values ? (unsigned int *)out_v + shift : NULL, n, temp, &p);
    if (why != NULL) {
        snprintf(what + strlen(what), sizeof what - strlen(what), ": refused: %s", why);
        fail(what);
    } else {
        int64_t bad = -1;
        for (int64_t i = 0; i < n && bad < 0; i++)
            if ((unsigned int)out[shift + i] != want_k[i] || (values && (unsigned int)out_v[shift + i] != want_v[i]))
                bad = i;
        if (bad >= 0) {
            snprintf(what + strlen(what), sizeof what - strlen(what), ": out[%lld] = %#x (value %#x), want %#x (%#x)",
                     (long long)bad, (unsigned)out[shift + bad], values ? (unsigned)out_v[shift + bad] : 0u,
                     want_k[bad], want_v[bad]);
            fail(what);
        } else if (!fence_intact(out, n, shift) || (values && !fence_intact(out_v, n, shift))) {
            snprintf(what + strlen(what), sizeof what - strlen(what), ": wrote outside the output");
            fail(what);
        } else if (memcmp(in_k, keys, bytes) != 0 || memcmp(in_v, index, bytes) != 0) {
            snprintf(what + strlen(what), sizeof what - strlen(what), ": changed its input");
            fail(what);
        }
    }
    free(keys), free(index), free(want_k), free(want_v), free(in_k), free(in_v), free(out), free(out_v), free(temp);
}

static void sort_suite(uint64_t seed, int64_t max_n, int stop)
{
    char line[256];
    sort_step_info.describe(&sort_step_info.defaults, line, sizeof line);
    const int64_t T = strtoll(strstr(line, " tile=") + 6, NULL, 10);     /* the merge passes' tile */
    const int64_t U = strtoll(strstr(line, "sort_tile=") + 10, NULL, 10); /* the block sort's, 2^k merge tiles */
    const int64_t sizes[] = {0,     1,         2,         31,        T - 1,     T,           T + 1,      U - 1, U + 1,
                             2 * T, 3 * T - 1, 2 * U + 1, 3 * U - 1, 4 * T + 3, 37 * T + 11, 64 * T + 1, 65537, 100003};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        if (sizes[z] > max_n)
            continue;
        for (int d = 0; sort_dists[d] != NULL; d++)
            for (int values = 0; values < 2; values++) {
                const int shift = (int)((z + d) % 4) * (z % 2);
                sort_case(sort_dists[d], sizes[z], (sort_type)((z + d) % 3), values, shift,
                          seed + 5000 + z * 100 + d * 10 + values);
                if (stop && failed)
                    return;
            }
    }
}

int main(int argc, char **argv)
{
    int64_t max = 40000;
    uint64_t seed = 1213;
    int expect_fail = 0;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--max") == 0 && a + 1 < argc)
            max = strtoll(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--expect-fail") == 0)
            expect_fail = 1;
        else {
            fprintf(stderr, "usage: %s [--max N] [--expect-fail] [--seed S]\n", argv[0]);
            return 2;
        }
    }
    merge_suite(seed, max, expect_fail);
    const int merge_cases = cases, merge_failed = failed;
    sort_suite(seed, max, expect_fail);
    printf("CHECK tile %d: merge %d cases, %d failed; sort %d cases, %d failed%s%s\n", merge_step_info.defaults.tile,
           merge_cases, merge_failed, cases - merge_cases, failed - merge_failed, failed ? "; first: " : "",
           first_failure);
    return expect_fail ? (failed ? 0 : 1) : (failed ? 1 : 0);
}
