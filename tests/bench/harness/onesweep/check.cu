/* check.cu - the onesweep harness's correctness modes: check and quick (every
 * size and distribution, keys only and pairs, both entry points, against the
 * CPU reference; 2^28 + 4099 once, exactly) and repeat (the missing-fence
 * variant: how many of R runs of a fixed set gave a wrong result). Every
 * output is poisoned before a run, with one poisoned guard word after it, and
 * checked element by element; the inputs are checked unchanged. */
#include "harness.h"

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
int mode_check(int full, int stop)
{
    const int64_t tile = onesweep_tile_keys(); /* the variant's ONESWEEP_TILE */
    const int64_t sizes_full[] = {
        0, 1, 2, 31, 1000, tile - 1, tile, tile + 1, 2 * tile + 1, 65537, 1000003, (1 << 22) + 3};
    const int64_t sizes_quick[] = {1, 1000, tile + 1, 65537, 1000003, (1 << 22) + 3};
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
int mode_repeat(int reps)
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
