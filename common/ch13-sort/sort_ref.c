/* sort_ref.c - chapter 13's CPU reference (a stable radix sort and one
 * iteration of Fig 13.4), the input distributions and the key-type helpers. */
#include "sort_ref.h"

#include <string.h>

/* One stable pass of the 8-bit digit at `shift`, (sk, sv) -> (dk, dv) (sv
 * NULL: keys alone), each digit's run starting at start[digit]. Returns 0,
 * having moved nothing, when every key has the same digit (it would copy). */
static int digit_pass(const unsigned int *sk, const unsigned int *sv, unsigned int *dk, unsigned int *dv, int64_t n,
                      int shift, int64_t start[257])
{
    memset(start, 0, sizeof(int64_t) * 257);
    for (int64_t i = 0; i < n; i++)
        start[sort_digit(sk[i], (unsigned int)shift, 8) + 1]++;
    for (int d = 0; d < 256; d++)
        start[d + 1] += start[d];
    const unsigned int first = sort_digit(sk[0], (unsigned int)shift, 8);
    if (start[first + 1] - start[first] == n)
        return 0;
    int64_t at[256];
    memcpy(at, start, sizeof(at));
    for (int64_t i = 0; i < n; i++) { /* in input order: stable */
        const int64_t to = at[sort_digit(sk[i], (unsigned int)shift, 8)]++;
        dk[to] = sk[i];
        if (sv != NULL)
            dv[to] = sv[i];
    }
    return 1;
}

/* (k, v) sorted stably on bits lo up to (not including) hi, the result in
 * (ok, ov); both pairs of buffers serve as scratch. */
static void lsd_passes(unsigned int *k, unsigned int *v, unsigned int *ok, unsigned int *ov, int64_t n, int lo, int hi)
{
    int64_t start[257];
    unsigned int *sk = k, *sv = v, *dk = ok, *dv = ov;
    for (int shift = lo; shift < hi; shift += 8)
        if (digit_pass(sk, sv, dk, dv, n, shift, start)) {
            unsigned int *t = sk;
            sk = dk, dk = t;
            t = sv, sv = dv, dv = t;
        }
    if (sk != ok) {
        memcpy(ok, sk, sizeof(unsigned int) * (size_t)n);
        if (v != NULL)
            memcpy(ov, sv, sizeof(unsigned int) * (size_t)n);
    }
}

/* One stable pass on the top 8 bits into the scratch, then each of its 256
 * runs sorted on the low 24 bits back into place: a run of 2^28 uniform keys
 * is 4 MB, so its three passes stay in the CPU's caches (2^28 keys: about
 * 1.4x faster than four passes over the whole array, on a 2-core machine's
 * noisy timings). Stable passes: stable. */
void sort_ref(unsigned int *keys, unsigned int *values, int64_t n)
{
    if (n < 2)
        return;
    unsigned int *tk = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)n);
    unsigned int *tv = values != NULL ? (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)n) : NULL;
    int64_t start[257];
    if (!digit_pass(keys, values, tk, tv, n, 24, start)) { /* one top digit: one run, the scratch a copy */
        memcpy(tk, keys, sizeof(unsigned int) * (size_t)n);
        if (values != NULL)
            memcpy(tv, values, sizeof(unsigned int) * (size_t)n);
    }
    for (int d = 0; d < 256; d++) { /* run d: from the scratch back into place, sorted on bits 0-23 */
        const int64_t s = start[d], m = start[d + 1] - s;
        if (m > 0)
            lsd_passes(tk + s, values != NULL ? tv + s : NULL, keys + s, values != NULL ? values + s : NULL, m, 0, 24);
    }
    free(tk);
    free(tv);
}

void sort_ref_radix_iter(const unsigned int *keys, int64_t n, unsigned int iter, unsigned int *ones_before,
                         unsigned int *dest)
{
    unsigned int ones = 0;
    for (int64_t i = 0; i < n; i++) {
        ones_before[i] = ones;
        ones += (keys[i] >> iter) & 1;
    }
    ones_before[n] = ones;
    for (int64_t i = 0; i < n; i++) /* section 13.3: zeros to i - ones before, ones after every zero */
        dest[i] =
            ((keys[i] >> iter) & 1) == 0 ? (unsigned int)i - ones_before[i] : (unsigned int)n - ones + ones_before[i];
}

const char *const sort_dists[] = {"uniform", "sorted", "reverse", "few", "equal", "high", NULL};

const char *const sort_type_names[] = {"uint", "int", "float", NULL};

int sort_type_of(const char *name)
{
    if (strcmp(name, "uint") == 0 || strcmp(name, "unsigned") == 0)
        return SORT_UINT;
    if (strcmp(name, "int") == 0)
        return SORT_INT;
    if (strcmp(name, "float") == 0)
        return SORT_FLOAT;
    return -1;
}

const char *sort_type_name(sort_type type)
{
    return type == SORT_INT ? "int" : type == SORT_FLOAT ? "float" : "uint";
}

static unsigned int rand32(lab_rng *rng)
{
    return (unsigned int)(lab_rng_next(rng) >> 32);
}

int sort_make_keys(const char *dist, lab_rng *rng, unsigned int *keys, int64_t n, sort_type type)
{
    /* first in key order (what the sort sees), then decoded to the type's bits */
    if (strcmp(dist, "uniform") == 0 || strcmp(dist, "sorted") == 0 || strcmp(dist, "reverse") == 0) {
        for (int64_t i = 0; i < n; i++)
            keys[i] = rand32(rng);
        if (dist[0] != 'u')
            sort_ref(keys, NULL, n);
        if (dist[0] == 'r')
            for (int64_t i = 0, j = n - 1; i < j; i++, j--) {
                const unsigned int t = keys[i];
                keys[i] = keys[j], keys[j] = t;
            }
    } else if (strcmp(dist, "few") == 0) {
        unsigned int few[8];
        for (int d = 0; d < 8; d++)
            few[d] = rand32(rng);
        for (int64_t i = 0; i < n; i++)
            keys[i] = few[lab_rng_below(rng, 8)];
    } else if (strcmp(dist, "equal") == 0) {
        const unsigned int k = rand32(rng);
        for (int64_t i = 0; i < n; i++)
            keys[i] = k;
    } else if (strcmp(dist, "high") == 0) {
        /* only the top 8 bits vary: the low radix iterations see nothing but zeros */
        for (int64_t i = 0; i < n; i++)
            keys[i] = (1u + lab_rng_below(rng, 255)) << 24;
    } else {
        return -1;
    }
    if (type == SORT_FLOAT) {
        /* squeeze into the keys of -inf .. +inf (monotone, so order and ties survive): never NaN */
        const unsigned int lo = sort_key_encode(0xff800000u, SORT_FLOAT), hi = sort_key_encode(0x7f800000u, SORT_FLOAT);
        for (int64_t i = 0; i < n; i++)
            keys[i] = lo + (unsigned int)(((uint64_t)keys[i] * ((uint64_t)hi - lo + 1)) >> 32);
    }
    sort_decode_keys(keys, n, type);
    int64_t nonzero = 0;
    for (int64_t i = 0; i < n && nonzero == 0; i++)
        nonzero += keys[i] != 0;
    if (n > 0 && nonzero == 0) /* all zero would look like an untouched output: all ones instead (still sorted) */
        for (int64_t i = 0; i < n; i++)
            keys[i] = 1;
    return 0;
}

void sort_encode_keys(unsigned int *keys, int64_t n, sort_type type)
{
    for (int64_t i = 0; i < n; i++)
        keys[i] = sort_key_encode(keys[i], type);
}

void sort_decode_keys(unsigned int *keys, int64_t n, sort_type type)
{
    for (int64_t i = 0; i < n; i++)
        keys[i] = sort_key_decode(keys[i], type);
}

static int less_than(unsigned int a, unsigned int b, sort_type type)
{
    if (type == SORT_INT)
        return (int32_t)a < (int32_t)b;
    if (type == SORT_FLOAT) {
        float x, y;
        memcpy(&x, &a, sizeof x);
        memcpy(&y, &b, sizeof y);
        return x < y;
    }
    return a < b;
}

int sort_is_ordered(const unsigned int *keys, int64_t n, sort_type type, int64_t *where)
{
    for (int64_t i = 1; i < n; i++)
        if (less_than(keys[i], keys[i - 1], type)) {
            if (where != NULL)
                *where = i;
            return 0;
        }
    return 1;
}
