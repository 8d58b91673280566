/* harness.cu - the speed and tuning harness of ch13 step 7 (the single-pass
 * radix sort), built from the step's own source: run.sh copies
 * solutions/ch13-sort/step7-onesweep/ into build/harness-onesweep/src/<variant>/,
 * applies the variant's sed scripts (a measured alternative, or one of the
 * step's wrong variants from tests/mutants/ch13-sort/), and compiles this file
 * against it with the variant's -D flags. Modes:
 *   harness check          every size and distribution, keys only and pairs,
 *                          both entry points (onesweep_sort: input kept;
 *                          onesweep_sort_buffers: in place), against a CPU
 *                          stable LSD radix sort; 2^28 + 4099 once, exactly
 *   harness quick [stop]   a shorter suite (stop: at the first wrong run)
 *   harness repeat R       R runs of a fixed set (the missing-fence variant):
 *                          how many of the R runs gave a wrong result
 *   harness speed [pairs]  cub::DeviceRadixSort and ours, same inputs, same
 *                          process, at 2^20, 2^24, 2^28, keys only and pairs
 *                          (pairs: 2^28 keys, pairs at 2^24 and 2^28 only)
 *   harness profile N keys|pairs [cub]   a warm-up and one sort (for ncu);
 *                          cub: cub::DeviceRadixSort's instead of ours
 * Every output is poisoned (0xA5 bytes) before a run, with one poisoned guard
 * word after it, and checked element by element; values are a distinct
 * payload per input position (~i), so stability is checked exactly; the
 * inputs are checked unchanged. Lines starting with "ROW|" feed run.sh's
 * summary table. Exit status: 0 when every result was right, 1 otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "onesweep.cuh" /* the step's (a variant's copy of it) */
#include "rng.h"
#ifndef NO_CUB
#include "cub_bench.h"
#endif

#ifndef HARNESS_NAME
#define HARNESS_NAME "real"
#endif
#ifndef HARNESS_WHAT
#define HARNESS_WHAT "the step as it is"
#endif

#define POISON_WORD 0xA5A5A5A5u
#define BASE_SEED 20250612ull

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static unsigned int *host_words(int64_t n)
{
    return (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)(n > 0 ? n : 1));
}

static void *dev_alloc(size_t bytes)
{
    void *p = NULL;
    CUDA_CHECK(cudaMalloc(&p, bytes > 0 ? bytes : 1));
    return p;
}

/* ---- the CPU reference: stable LSD radix sort, 8-bit digits --------------- */

/* Key and value packed in one 8-byte word (one array to scatter, not two);
 * each bucket's writes are gathered 8 at a time, so the scatter writes whole
 * 64-byte lines. Stable: every pass moves the words in input order. */
#define REF_GATHER 8
static void ref_sort(unsigned int *keys, unsigned int *values, int64_t n)
{
    if (n < 2)
        return;
    uint64_t *a = (uint64_t *)lab_xmalloc(sizeof(uint64_t) * (size_t)n), *b = (uint64_t *)lab_xmalloc(sizeof(uint64_t) * (size_t)n);
    static uint64_t gather[256][REF_GATHER];
    for (int64_t i = 0; i < n; i++)
        a[i] = (uint64_t)keys[i] << 32 | (values != NULL ? values[i] : 0);
    for (int shift = 32; shift < 64; shift += 8) {
        int64_t start[257];
        int fill[256];
        memset(start, 0, sizeof start);
        memset(fill, 0, sizeof fill);
        for (int64_t i = 0; i < n; i++)
            start[((a[i] >> shift) & 0xff) + 1]++;
        for (int d = 0; d < 256; d++)
            start[d + 1] += start[d];
        for (int64_t i = 0; i < n; i++) {
            const unsigned int d = (unsigned int)(a[i] >> shift) & 0xff;
            gather[d][fill[d]++] = a[i];
            if (fill[d] == REF_GATHER) {
                memcpy(b + start[d], gather[d], sizeof gather[d]);
                start[d] += REF_GATHER;
                fill[d] = 0;
            }
        }
        for (int d = 0; d < 256; d++)
            memcpy(b + start[d], gather[d], sizeof(uint64_t) * (size_t)fill[d]);
        uint64_t *t = a;
        a = b, b = t;
    }
    for (int64_t i = 0; i < n; i++) {
        keys[i] = (unsigned int)(a[i] >> 32);
        if (values != NULL)
            values[i] = (unsigned int)a[i];
    }
    free(a);
    free(b);
}

/* ---- inputs ---------------------------------------------------------------- */

static const char *const dists[] = {"uniform", "sorted", "reverse", "equal", "few", "high", NULL};

static unsigned int rand32(lab_rng *r)
{
    return (unsigned int)(lab_rng_next(r) >> 32);
}

static void make_keys(const char *dist, uint64_t seed, unsigned int *k, int64_t n)
{
    lab_rng r = lab_rng_seeded(seed);
    if (strcmp(dist, "few") == 0) {
        unsigned int few[8];
        for (int i = 0; i < 8; i++)
            few[i] = rand32(&r) | 1u;
        for (int64_t i = 0; i < n; i++)
            k[i] = few[lab_rng_below(&r, 8)];
    } else if (strcmp(dist, "equal") == 0) {
        const unsigned int x = rand32(&r) | 1u;
        for (int64_t i = 0; i < n; i++)
            k[i] = x;
    } else if (strcmp(dist, "high") == 0) { /* only the top 8 bits vary: three passes are skipped */
        for (int64_t i = 0; i < n; i++)
            k[i] = (1u + lab_rng_below(&r, 255)) << 24;
    } else {
        for (int64_t i = 0; i < n; i++)
            k[i] = rand32(&r);
        if (strcmp(dist, "uniform") != 0)
            ref_sort(k, NULL, n);
        if (strcmp(dist, "reverse") == 0)
            for (int64_t i = 0, j = n - 1; i < j; i++, j--) {
                const unsigned int t = k[i];
                k[i] = k[j], k[j] = t;
            }
    }
}

static void make_values(unsigned int *v, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        v[i] = ~(unsigned int)i; /* distinct per position, never the poison word below 2^30 */
}

/* ---- device buffers for the checks (allocated once for the largest n) ----- */

typedef struct {
    int64_t cap;
    unsigned int *keys_in, *values_in;                       /* onesweep_sort's input (kept) */
    unsigned int *keys_out, *values_out, *keys_alt, *values_alt; /* cap + 1 words each (a guard) */
    void *tables;
    size_t tables_cap;
    unsigned int *got_k, *got_v, *back_k, *back_v; /* host */
    cudaStream_t stream;
} bufs;

static void bufs_init(bufs *b, int64_t cap)
{
    const size_t words = sizeof(unsigned int) * (size_t)cap, guarded = words + sizeof(unsigned int);
    b->cap = cap;
    b->keys_in = (unsigned int *)dev_alloc(words);
    b->values_in = (unsigned int *)dev_alloc(words);
    b->keys_out = (unsigned int *)dev_alloc(guarded);
    b->values_out = (unsigned int *)dev_alloc(guarded);
    b->keys_alt = (unsigned int *)dev_alloc(guarded);
    b->values_alt = (unsigned int *)dev_alloc(guarded);
    b->tables_cap = onesweep_tables_bytes(cap);
    b->tables = dev_alloc(b->tables_cap);
    b->got_k = host_words(cap + 1), b->got_v = host_words(cap + 1);
    b->back_k = host_words(cap + 1), b->back_v = host_words(cap + 1);
    CUDA_CHECK(cudaStreamCreate(&b->stream));
    const char *why = onesweep_fit(0);
    if (why == NULL)
        why = onesweep_fit(1);
    if (why != NULL) {
        printf("onesweep_fit: %s\n", why);
        exit(1);
    }
}

static void bufs_free(bufs *b)
{
    void *freed[] = {b->keys_in, b->values_in, b->keys_out, b->values_out, b->keys_alt, b->values_alt, b->tables};
    for (int i = 0; i < 7; i++)
        CUDA_CHECK(cudaFree(freed[i]));
    CUDA_CHECK(cudaStreamDestroy(b->stream));
    free(b->got_k), free(b->got_v), free(b->back_k), free(b->back_v);
}

/* Compares n words and the guard word after them; prints the first few
 * differences. Returns the number of wrong words. */
static int64_t compare(const char *what, const unsigned int *got, const unsigned int *want, int64_t n, int quiet)
{
    int64_t wrong = 0;
    for (int64_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            if (wrong < 3 && !quiet)
                printf("    %s[%lld] = 0x%08x, expected 0x%08x%s\n", what, (long long)i, got[i], want[i],
                       got[i] == POISON_WORD ? " (the poison: never written)" : "");
            wrong++;
        }
    if (got[n] != POISON_WORD) {
        if (!quiet)
            printf("    %s: the guard word after the output was written (0x%08x)\n", what, got[n]);
        wrong++;
    }
    return wrong;
}

/* Without a reference, for pairs whose values are ~(input index): the output
 * is the stable sort exactly when the values are a permutation of the
 * indices, each key is the input key of its index, and (key, index) grows
 * strictly from each position to the next. Returns the positions that break
 * one of these (0: right), the guard word included. */
static int64_t verify_pairs(const unsigned int *keys_in, const unsigned int *got_k, const unsigned int *got_v,
                            int64_t n, int quiet)
{
    unsigned char *seen = (unsigned char *)calloc((size_t)n / 8 + 1, 1);
    int64_t wrong = 0;
    for (int64_t i = 0; i < n; i++) {
        const unsigned int idx = ~got_v[i], prev = i > 0 ? ~got_v[i - 1] : 0;
        const int ok = idx < (uint64_t)n && !(seen[idx / 8] >> (idx % 8) & 1) && got_k[i] == keys_in[idx] &&
                       (i == 0 || got_k[i - 1] < got_k[i] || (got_k[i - 1] == got_k[i] && prev < idx));
        if (idx < (uint64_t)n)
            seen[idx / 8] |= (unsigned char)(1u << (idx % 8));
        if (!ok) {
            if (wrong < 3 && !quiet)
                printf("    position %lld: key 0x%08x value 0x%08x (input index %u) is not the stable sort's\n",
                       (long long)i, got_k[i], got_v[i], idx);
            wrong++;
        }
    }
    free(seen);
    if (got_k[n] != POISON_WORD || got_v[n] != POISON_WORD) {
        if (!quiet)
            printf("    a guard word after the output was written\n");
        wrong++;
    }
    return wrong;
}

/* 1 (and a line, unless quiet) when the guard word after n words of buf was written. */
static int guard_written(const char *what, const unsigned int *buf, int64_t n, int quiet)
{
    unsigned int w = 0;
    CUDA_CHECK(cudaMemcpy(&w, buf + n, sizeof w, cudaMemcpyDeviceToHost));
    if (w != POISON_WORD && !quiet)
        printf("    %s: the word after its n was written (0x%08x)\n", what, w);
    return w != POISON_WORD;
}

/* Sorts keys (values) with onesweep_sort (in_place 0: keys_in kept, result
 * in keys_out) or onesweep_sort_buffers (1: uploaded into keys_out and sorted
 * there, keys_alt the second buffer), every output and the tables poisoned
 * first; checks against ref_k (ref_v) when given, else (pairs only) with
 * verify_pairs. Returns the number of wrong words. */
static int64_t run_one(bufs *b, const unsigned int *keys, const unsigned int *values, const unsigned int *ref_k,
                       const unsigned int *ref_v, int64_t n, int pairs, int in_place, int quiet)
{
    const size_t bytes = sizeof(unsigned int) * (size_t)n, guarded = bytes + sizeof(unsigned int);
    unsigned int *poisoned[] = {b->keys_out, b->values_out, b->keys_alt, b->values_alt};
    for (int i = 0; i < 4; i++)
        CUDA_CHECK(cudaMemset(poisoned[i], 0xA5, guarded));
    CUDA_CHECK(cudaMemset(b->tables, 0xA5, b->tables_cap));
    unsigned int *k_src = in_place ? b->keys_out : b->keys_in, *v_src = in_place ? b->values_out : b->values_in;
    if (n > 0) {
        CUDA_CHECK(cudaMemcpy(k_src, keys, bytes, cudaMemcpyHostToDevice));
        if (pairs)
            CUDA_CHECK(cudaMemcpy(v_src, values, bytes, cudaMemcpyHostToDevice));
    }
    if (onesweep_tables_bytes(n) > b->tables_cap) {
        printf("    tables: %zu bytes needed, %zu allocated\n", onesweep_tables_bytes(n), b->tables_cap);
        return 1;
    }
    int in_alt = 0;
    const char *why = in_place ? onesweep_sort_buffers(b->keys_out, b->keys_alt, pairs ? b->values_out : NULL,
                                                       b->values_alt, n, b->tables, b->stream, &in_alt)
                               : onesweep_sort(b->keys_in, pairs ? b->values_in : NULL, b->keys_out,
                                               pairs ? b->values_out : NULL, b->keys_alt, b->values_alt, n,
                                               b->tables, b->stream);
    if (why != NULL || in_alt != 0) {
        printf("    %s: %s\n", in_place ? "onesweep_sort_buffers" : "onesweep_sort",
               why != NULL ? why : "the result is in the alternate buffer");
        return 1;
    }
    CUDA_CHECK(cudaStreamSynchronize(b->stream));
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(b->got_k, b->keys_out, guarded, cudaMemcpyDeviceToHost));
    int64_t wrong = guard_written("keys_alt", b->keys_alt, n, quiet) + guard_written("values_alt", b->values_alt, n, quiet);
    if (pairs) {
        CUDA_CHECK(cudaMemcpy(b->got_v, b->values_out, guarded, cudaMemcpyDeviceToHost));
        if (ref_k != NULL)
            wrong += compare("keys_out", b->got_k, ref_k, n, quiet) + compare("values_out", b->got_v, ref_v, n, quiet);
        else
            wrong += verify_pairs(keys, b->got_k, b->got_v, n, quiet);
    } else { /* keys only: values_out must be untouched */
        wrong += compare("keys_out", b->got_k, ref_k, n, quiet);
        unsigned int v = 0;
        CUDA_CHECK(cudaMemcpy(&v, b->values_out, sizeof v, cudaMemcpyDeviceToHost));
        if (v != POISON_WORD) {
            if (!quiet)
                printf("    keys only wrote values_out\n");
            wrong++;
        }
    }
    if (n > 0 && !in_place) { /* the inputs are left unchanged */
        CUDA_CHECK(cudaMemcpy(b->back_k, b->keys_in, bytes, cudaMemcpyDeviceToHost));
        if (memcmp(b->back_k, keys, bytes) != 0) {
            if (!quiet)
                printf("    keys_in was changed\n");
            wrong++;
        }
        if (pairs) {
            CUDA_CHECK(cudaMemcpy(b->back_v, b->values_in, bytes, cudaMemcpyDeviceToHost));
            if (memcmp(b->back_v, values, bytes) != 0) {
                if (!quiet)
                    printf("    values_in was changed\n");
                wrong++;
            }
        }
    }
    return wrong;
}

/* One size and distribution: pairs then keys only, each through both entry
 * points (onesweep_sort, then onesweep_sort_buffers in place). With use_ref,
 * all are compared with the CPU reference; without (2^28: the reference would
 * take much of the time budget), pairs are checked exactly by verify_pairs and
 * keys only against the keys of that checked result. Returns the wrong runs. */
static int check_case(bufs *b, int64_t n, const char *dist, uint64_t seed, int use_ref, int quiet)
{
    unsigned int *keys = host_words(n), *values = host_words(n), *ref_k = host_words(n + 1), *ref_v = NULL;
    make_keys(dist, seed, keys, n);
    make_values(values, n);
    if (use_ref) {
        ref_v = host_words(n);
        memcpy(ref_k, keys, sizeof(unsigned int) * (size_t)n);
        memcpy(ref_v, values, sizeof(unsigned int) * (size_t)n);
        ref_sort(ref_k, ref_v, n); /* pairs' reference; its keys are keys only's */
    }
    int failed = 0, checked_keys = use_ref;
    for (int pairs = 1; pairs >= 0; pairs--)
        for (int in_place = 0; in_place <= 1; in_place++) {
            if (!pairs && !checked_keys) { /* no checked keys to compare keys only with */
                failed++;
                continue;
            }
            const int64_t wrong = run_one(b, keys, values, use_ref || !pairs ? ref_k : NULL, ref_v, n, pairs,
                                          in_place, quiet);
            if (wrong == 0 && pairs && !use_ref && !checked_keys) {
                memcpy(ref_k, b->got_k, sizeof(unsigned int) * (size_t)n); /* keys only must match these */
                checked_keys = 1;
            }
            if (wrong != 0) {
                failed++;
                printf("  FAIL n=%lld dist=%s %s %s seed=%llu: %lld wrong words (%s)\n", (long long)n, dist,
                       pairs ? "pairs" : "keys", in_place ? "in place (onesweep_sort_buffers)" : "(onesweep_sort)",
                       (unsigned long long)seed, (long long)wrong,
                       use_ref ? "against the CPU reference" : pairs ? "exact check" : "against the checked pairs' keys");
            }
        }
    free(keys), free(values), free(ref_k), free(ref_v);
    return failed;
}

/* The suite: sizes x distributions, then 2^24 + 3 (uniform, few) and
 * 2^28 + 4099 (uniform, exact check). stop: return at the first wrong run. */
static int mode_check(int full, int stop)
{
    const int64_t sizes_full[] = {0, 1, 2, 31, 1000, ONESWEEP_TILE - 1, ONESWEEP_TILE, ONESWEEP_TILE + 1,
                                  2 * ONESWEEP_TILE + 1, 65537, 1000003, (1 << 22) + 3};
    const int64_t sizes_quick[] = {1, 1000, ONESWEEP_TILE + 1, 65537, 1000003, (1 << 22) + 3};
    const int64_t *sizes = full ? sizes_full : sizes_quick;
    const int nsizes = full ? (int)(sizeof sizes_full / sizeof sizes_full[0]) : (int)(sizeof sizes_quick / sizeof sizes_quick[0]);
    const double t0 = now_s();
    bufs b;
    bufs_init(&b, full ? (1 << 24) + 3 : (1 << 22) + 3);
    int runs = 0, failed = 0;
    uint64_t seed = BASE_SEED;
    for (int s = 0; s < nsizes && !(stop && failed); s++)
        for (int d = 0; dists[d] != NULL && !(stop && failed); d++, seed++) {
            failed += check_case(&b, sizes[s], dists[d], seed, 1, 0);
            runs += 4;
        }
    if (full)
        for (int d = 0; d < 2; d++, seed++) {
            failed += check_case(&b, (1 << 24) + 3, d == 0 ? "uniform" : "few", seed, 1, 0);
            runs += 4;
        }
    bufs_free(&b);
    if (full) { /* 2^28 + 4099 (not a multiple of the tile), keys only and pairs */
        const int64_t n = ((int64_t)1 << 28) + 4099;
        bufs_init(&b, n);
        failed += check_case(&b, n, "uniform", seed++, 0, 0);
        runs += 4;
        bufs_free(&b);
    }
    printf("%s %s: %d of %d runs wrong (%.1f s)\n", HARNESS_NAME, full ? "check" : "quick", failed, runs, now_s() - t0);
    printf("ROW|%s|%s|%s|%d/%d runs wrong%s\n", HARNESS_NAME, full ? "correctness (full)" : "correctness (quick)",
           failed == 0 ? "PASS" : "FAIL", failed, runs, stop && failed ? " (stopped at the first)" : "");
    return failed == 0;
}

/* For the missing-fence variants: R runs of a fixed set of sorts, each
 * checked exactly (pairs: verify_pairs; keys only: against a checked pairs
 * run of the same keys); a run counts as caught when any sort in it is wrong. */
static int mode_repeat(int reps)
{
    typedef struct {
        int64_t n;
        int pairs;
    } item;
    const item set[] = {{1 << 20, 1}, {(1 << 21) + 5, 0}, {1 << 22, 1}, {1 << 24, 1}}; /* 1 and 2 waves of tiles first */
    const int nset = (int)(sizeof set / sizeof set[0]);
    const double t0 = now_s();
    bufs b;
    bufs_init(&b, 1 << 24);
    unsigned int *keys[4], *values[4], *want_k[4];
    for (int i = 0; i < nset; i++) {
        const int64_t n = set[i].n;
        keys[i] = host_words(n), values[i] = host_words(n), want_k[i] = host_words(n + 1);
        make_keys("uniform", BASE_SEED + 1000 + i, keys[i], n);
        make_values(values[i], n);
        if (!set[i].pairs) { /* keys only's expected output: the CPU reference, once */
            memcpy(want_k[i], keys[i], sizeof(unsigned int) * (size_t)n);
            ref_sort(want_k[i], NULL, n);
        }
    }
    int caught = 0;
    int64_t wrong_words = 0;
    for (int r = 0; r < reps; r++) {
        int64_t wrong = 0;
        for (int i = 0; i < nset; i++)
            wrong += run_one(&b, keys[i], values[i], set[i].pairs ? NULL : want_k[i], NULL, set[i].n, set[i].pairs,
                             i % 2, 1); /* both entry points */
        caught += wrong != 0;
        wrong_words += wrong;
        printf("  run %d: %lld wrong positions\n", r, (long long)wrong);
    }
    for (int i = 0; i < nset; i++)
        free(keys[i]), free(values[i]), free(want_k[i]);
    bufs_free(&b);
    printf("%s repeat: %d of %d runs wrong, %lld wrong positions in all (%.1f s)\n", HARNESS_NAME, caught, reps,
           (long long)wrong_words, now_s() - t0);
    printf("ROW|%s|repeat x%d (2^20 p, 2^21+5 k, 2^22 p, 2^24 p)|%s|%d/%d runs wrong\n", HARNESS_NAME, reps,
           caught == reps ? "CAUGHT every run" : caught > 0 ? "caught in some runs" : "NOT caught", caught, reps);
    return caught == 0;
}

/* ---- speed ------------------------------------------------------------------- */

#define FLUSH_BYTES (100u << 20)
#define TIMED_RUNS 25

typedef struct {
    const unsigned int *keys_in, *values_in;
    unsigned int *keys_out, *values_out;
    int n;
    void *temp; /* CUB's temporaries, or our tables */
    size_t temp_bytes;
    int cub; /* 1: CUB, 0: ours, 2: the copy */
    cudaStream_t stream;
    unsigned int *keys_alt, *values_alt; /* ours: the second buffer */
} sort_job;

static void launch_job(const sort_job *j)
{
    if (j->cub == 2) {
        CUDA_CHECK(cudaMemcpyAsync(j->keys_out, j->keys_in, sizeof(unsigned int) * (size_t)j->n,
                                   cudaMemcpyDeviceToDevice, j->stream));
        return;
    }
#ifndef NO_CUB
    if (j->cub) {
        CUDA_CHECK(cub_radix_sort(j->temp, j->temp_bytes, j->keys_in, j->keys_out, j->values_in, j->values_out, j->n,
                                  j->stream));
        return;
    }
#endif
    const char *why = onesweep_sort(j->keys_in, j->values_in, j->keys_out, j->values_out, j->keys_alt, j->values_alt,
                                    j->n, j->temp, j->stream);
    if (why != NULL) {
        fprintf(stderr, "onesweep_sort refused: %s\n", why);
        exit(1);
    }
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median ms of TIMED_RUNS runs, each after a 100 MB write that flushes L2. */
static double time_job(const sort_job *j, void *flush, cudaEvent_t e0, cudaEvent_t e1)
{
    double ms[TIMED_RUNS];
    launch_job(j); /* warm-up */
    launch_job(j);
    for (int r = 0; r < TIMED_RUNS; r++) {
        CUDA_CHECK(cudaMemsetAsync(flush, r & 0xff, FLUSH_BYTES, j->stream));
        CUDA_CHECK(cudaEventRecord(e0, j->stream));
        launch_job(j);
        CUDA_CHECK(cudaEventRecord(e1, j->stream));
        CUDA_CHECK(cudaEventSynchronize(e1));
        float t = 0;
        CUDA_CHECK(cudaEventElapsedTime(&t, e0, e1));
        ms[r] = t;
    }
    qsort(ms, TIMED_RUNS, sizeof ms[0], cmp_double);
    return ms[TIMED_RUNS / 2];
}

/* The blocks an SM holds of the pass kernel for keys (pairs 0) or pairs (1), after onesweep_fit. */
static int blocks_per_sm(int pairs)
{
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, pairs ? (const void *)onesweep_pairs : (const void *)onesweep_keys, ONESWEEP_THREADS,
        onesweep_shared_bytes(pairs)));
    return blocks;
}

/* all: keys and pairs at 2^20, 2^24, 2^28; pairs_only: 2^28 keys, then pairs at 2^24 and 2^28. */
static int mode_speed(int pairs_only)
{
    const int64_t max_n = (int64_t)1 << 28;
    const int64_t sizes[] = {(int64_t)1 << 20, (int64_t)1 << 24, max_n};
    const size_t bytes = sizeof(unsigned int) * (size_t)max_n;
    cudaStream_t stream;
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    unsigned int *keys = host_words(max_n), *values = host_words(max_n);
    make_keys("uniform", BASE_SEED + 7, keys, max_n);
    make_values(values, max_n);
    unsigned int *ki = (unsigned int *)dev_alloc(bytes), *vi = (unsigned int *)dev_alloc(bytes);
    unsigned int *ko = (unsigned int *)dev_alloc(bytes), *vo = (unsigned int *)dev_alloc(bytes);
    unsigned int *ck = (unsigned int *)dev_alloc(bytes), *cv = (unsigned int *)dev_alloc(bytes);
    void *flush = dev_alloc(FLUSH_BYTES);
    CUDA_CHECK(cudaMemcpy(ki, keys, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(vi, values, bytes, cudaMemcpyHostToDevice));
    unsigned int *ka = (unsigned int *)dev_alloc(bytes), *va = (unsigned int *)dev_alloc(bytes);
    const size_t our_temp = onesweep_tables_bytes(max_n);
    void *temp = dev_alloc(our_temp);
    const char *why = onesweep_fit(0);
    if (why == NULL)
        why = onesweep_fit(1);
    if (why != NULL) {
        printf("onesweep_fit: %s\n", why);
        return 0;
    }
#ifndef NO_CUB
    const size_t cub_temp = cub_radix_temp_bytes((int)max_n, 1);
    void *ctemp = dev_alloc(cub_temp);
#endif
    /* the ceiling: a device-to-device copy of 2^28 words, 8 bytes moved per word */
    sort_job copy = {ki, NULL, ko, NULL, (int)max_n, NULL, 0, 2, stream, NULL, NULL};
    const double copy_ms = time_job(&copy, flush, e0, e1);
    const double copy_gbs = 2.0 * (double)bytes / copy_ms * 1e-6;
    printf("copy: %.3f ms for 2^28 words, %.0f GB/s (read + write)\n", copy_ms, copy_gbs);
    printf("ROW|%s|copy 2^28 u32 (ceiling)|%.0f GB/s|%.3f ms\n", HARNESS_NAME, copy_gbs, copy_ms);
    printf("ROW|%s|blocks per SM (occupancy API)|keys %d, pairs %d|tile %d x %d, pairs' shared memory %zu B + static\n",
           HARNESS_NAME, blocks_per_sm(0), blocks_per_sm(1), ONESWEEP_THREADS, ONESWEEP_KEYS_PER_THREAD,
           onesweep_shared_bytes(1));
    int ok = 1;
    double ratio[2][3] = {{0}}, our[2][3] = {{0}}, theirs[2][3] = {{0}}; /* [pairs][size]: CUB ms / our ms, ms */
    unsigned int *got = host_words(max_n), *want = host_words(max_n);
    for (int s = 0; s < 3; s++)
        for (int pairs = 0; pairs <= 1; pairs++) {
            const int64_t n = sizes[s];
            if (pairs_only && (s == 0 || (!pairs && n != max_n)))
                continue;
            sort_job ours = {ki, pairs ? vi : NULL, ko, pairs ? vo : NULL, (int)n, temp, our_temp, 0, stream, ka, va};
            const double our_ms = time_job(&ours, flush, e0, e1);
            double cub_ms = 0;
            int same = 1;
#ifndef NO_CUB
            const size_t nb = sizeof(unsigned int) * (size_t)n;
            sort_job cub = {ki, pairs ? vi : NULL, ck, pairs ? cv : NULL, (int)n, ctemp, cub_temp, 1, stream, NULL, NULL};
            cub_ms = time_job(&cub, flush, e0, e1);
            /* both are stable: the outputs are identical */
            CUDA_CHECK(cudaMemcpy(got, ko, nb, cudaMemcpyDeviceToHost));
            CUDA_CHECK(cudaMemcpy(want, ck, nb, cudaMemcpyDeviceToHost));
            same = memcmp(got, want, nb) == 0;
            if (pairs) {
                CUDA_CHECK(cudaMemcpy(got, vo, nb, cudaMemcpyDeviceToHost));
                CUDA_CHECK(cudaMemcpy(want, cv, nb, cudaMemcpyDeviceToHost));
                same = same && memcmp(got, want, nb) == 0;
            }
#endif
            ok &= same;
            ratio[pairs][s] = cub_ms > 0 ? cub_ms / our_ms : 0.0;
            our[pairs][s] = our_ms, theirs[pairs][s] = cub_ms;
            /* the traffic floor of this design: the histogram read (4 B) + 4 passes x read and write */
            const double per_key = 4.0 + 4.0 * (pairs ? 16.0 : 8.0);
            const double our_gbs = per_key * (double)n / our_ms * 1e-6;
            char label[96];
            snprintf(label, sizeof label, "2^%d %s", s == 0 ? 20 : s == 1 ? 24 : 28, pairs ? "pairs" : "keys");
            printf("%s: ours %.3f ms (%.2f Gkeys/s), CUB %.3f ms (%.2f Gkeys/s), ours/CUB speed %.2f; %.0f B/key "
                   "-> %.0f GB/s = %.0f%% of copy%s\n",
                   label, our_ms, (double)n / our_ms * 1e-6, cub_ms, cub_ms > 0 ? (double)n / cub_ms * 1e-6 : 0.0,
                   cub_ms > 0 ? cub_ms / our_ms : 0.0, per_key, our_gbs, 100.0 * our_gbs / copy_gbs,
                   same ? "" : "  OUTPUT DIFFERS FROM CUB'S");
            printf("ROW|%s|speed %s|%.2fx CUB|ours %.3f ms %.2f Gk/s, CUB %.3f ms %.2f Gk/s, %.0f%% of copy%s\n",
                   HARNESS_NAME, label, cub_ms > 0 ? cub_ms / our_ms : 0.0, our_ms, (double)n / our_ms * 1e-6, cub_ms,
                   cub_ms > 0 ? (double)n / cub_ms * 1e-6 : 0.0, 100.0 * our_gbs / copy_gbs,
                   same ? "" : " WRONG (differs from CUB)");
            fflush(stdout);
        }
    if (pairs_only)
        printf("ROW|%s|ours/CUB: pairs 2^28 2^24; keys 2^28|%s|%.3f %.3f; %.3f (2^28 pairs %.3f ms, CUB %.3f; keys "
               "%.3f, CUB %.3f)\n",
               HARNESS_NAME, ok ? "same output as CUB" : "OUTPUT DIFFERS", ratio[1][2], ratio[1][1], ratio[0][2],
               our[1][2], theirs[1][2], our[0][2], theirs[0][2]);
    else
        printf("ROW|%s|speed, ours/CUB: keys 2^20 2^24 2^28; pairs 2^20 2^24 2^28|%s|%.2f %.2f %.2f; %.2f %.2f %.2f\n",
               HARNESS_NAME, ok ? "same output as CUB" : "OUTPUT DIFFERS", ratio[0][0], ratio[0][1], ratio[0][2],
               ratio[1][0], ratio[1][1], ratio[1][2]);
    free(got), free(want), free(keys), free(values);
    void *freed[] = {ki, vi, ko, vo, ck, cv, ka, va, flush, temp};
    for (int i = 0; i < 10; i++)
        CUDA_CHECK(cudaFree(freed[i]));
#ifndef NO_CUB
    CUDA_CHECK(cudaFree(ctemp));
#endif
    return ok;
}

/* One warm-up sort and one more, for a profiler: ours (ncu -k regex:'onesweep_(keys|pairs)' -s 4
 * -c 4) or, with_cub, CUB's (ncu -k regex:Onesweep -s 8 -c 1: at 2^28 each of its passes is two
 * launches, the second of one tile). */
static int mode_profile(int64_t n, int pairs, int with_cub)
{
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    unsigned int *keys = host_words(n), *values = host_words(n);
    make_keys("uniform", BASE_SEED + 7, keys, n);
    make_values(values, n);
    unsigned int *ki = (unsigned int *)dev_alloc(bytes), *vi = (unsigned int *)dev_alloc(bytes);
    unsigned int *ko = (unsigned int *)dev_alloc(bytes), *vo = (unsigned int *)dev_alloc(bytes);
    unsigned int *ka = (unsigned int *)dev_alloc(bytes), *va = (unsigned int *)dev_alloc(bytes);
    CUDA_CHECK(cudaMemcpy(ki, keys, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(vi, values, bytes, cudaMemcpyHostToDevice));
    const char *why = NULL;
    if (with_cub) {
#ifndef NO_CUB
        const size_t temp_bytes = cub_radix_temp_bytes((int)n, pairs);
        void *temp = dev_alloc(temp_bytes);
        for (int r = 0; r < 2; r++)
            CUDA_CHECK(cub_radix_sort(temp, temp_bytes, ki, ko, pairs ? vi : NULL, pairs ? vo : NULL, (int)n, 0));
#else
        why = "built without CUB (NO_CUB)";
#endif
    } else {
        void *tables = dev_alloc(onesweep_tables_bytes(n));
        why = onesweep_fit(pairs);
        for (int r = 0; r < 2 && why == NULL; r++)
            why = onesweep_sort(ki, pairs ? vi : NULL, ko, pairs ? vo : NULL, ka, va, n, tables, 0);
    }
    if (why != NULL) {
        fprintf(stderr, "refused: %s\n", why);
        return 0;
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    printf("profile: 2 %s of %lld %s done\n", with_cub ? "CUB sorts" : "sorts", (long long)n,
           pairs ? "pairs" : "keys");
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s check|quick [stop]|repeat R|speed [pairs]|profile N keys|pairs [cub]\n", argv[0]);
        return 2;
    }
    lab_require_gpu(argv[0]);
    int dev = 0;
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("%s: %s (%d SMs), tile %d x %d = %d keys, blocks/SM asked %d (pairs %d), look-back window %d (%s)\n",
           HARNESS_NAME, prop.name, prop.multiProcessorCount, ONESWEEP_THREADS, ONESWEEP_KEYS_PER_THREAD, ONESWEEP_TILE,
           ONESWEEP_MIN_BLOCKS, ONESWEEP_MIN_BLOCKS_PAIRS, ONESWEEP_LOOKBACK_WINDOW, HARNESS_WHAT);
    const int stop = argc >= 3 && strcmp(argv[2], "stop") == 0;
    int ok;
    if (strcmp(argv[1], "check") == 0)
        ok = mode_check(1, stop);
    else if (strcmp(argv[1], "quick") == 0)
        ok = mode_check(0, stop);
    else if (strcmp(argv[1], "repeat") == 0 && argc >= 3)
        ok = mode_repeat(atoi(argv[2]));
    else if (strcmp(argv[1], "speed") == 0)
        ok = mode_speed(argc >= 3 && strcmp(argv[2], "pairs") == 0);
    else if (strcmp(argv[1], "profile") == 0 && argc >= 4)
        ok = mode_profile(atoll(argv[2]), strcmp(argv[3], "pairs") == 0, argc >= 5 && strcmp(argv[4], "cub") == 0);
    else {
        fprintf(stderr, "unknown mode %s\n", argv[1]);
        return 2;
    }
    return ok ? 0 : 1;
}
