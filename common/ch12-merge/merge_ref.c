/* merge_ref.c - chapter 12's CPU reference: input generators, the stable
 * merge, the co-ranks, and the check of a result (see merge_ref.h). */
#include "merge_ref.h"

#include <string.h>

const char *const merge_dists[] = {"uniform", "equal", "a-below", "a-above", "interleaved", "dups", NULL};
const char *const merge_types[] = {"int", "float", NULL};

/* ---- inputs ------------------------------------------------------------------ */

/* Sorted keys from `first`, rising by `rise` per element on average, by a
 * random 0, 1, 2, ... so that ties occur. */
static void sorted_keys(int *X, int len, lab_rng *rng, int first, double rise)
{
    int key = first;
    for (int i = 0; i < len; i++) {
        X[i] = key;
        key += rise < 1.0 ? (lab_rng_unit(rng) < rise) : (int)lab_rng_below(rng, (uint32_t)(2.0 * rise));
    }
}

/* MERGE_TAG_ORIGIN's low byte: a hash of the position in bits 1-7, the origin in bit 0. */
static int origin_tag(int64_t i, int from_B)
{
    return (int)(((uint32_t)i * 0x9E3779B1u) >> 25) << 1 | from_B;
}

void merge_tag(int *X, int64_t len, int from_B, int tagged)
{
    for (int64_t i = 0; i < len; i++)
        X[i] = X[i] << 8 | (tagged == MERGE_TAG_ORIGIN ? origin_tag(i, from_B) : 0);
}

int merge_make_inputs(const char *dist, lab_rng *rng, int *A, int m, int *B, int n, int tagged)
{
    const int64_t limit = tagged ? (1 << 23) - 2 : (1 << 30);
    const int64_t total = (int64_t)m + n;
    /* mean rise per element; a rise is at most twice the mean, so keys stay below 0.9 * limit */
    const double step = total > 0 ? 0.45 * (double)limit / (double)total : 1.0;
    if (strcmp(dist, "uniform") == 0) {
        sorted_keys(A, m, rng, 1, step);
        sorted_keys(B, n, rng, 1, step);
    } else if (strcmp(dist, "equal") == 0) {
        for (int i = 0; i < m; i++)
            A[i] = 7;
        for (int j = 0; j < n; j++)
            B[j] = 7;
    } else if (strcmp(dist, "a-below") == 0 || strcmp(dist, "a-above") == 0) {
        int *low = dist[2] == 'b' ? A : B, *high = dist[2] == 'b' ? B : A;
        const int low_len = dist[2] == 'b' ? m : n, high_len = dist[2] == 'b' ? n : m;
        sorted_keys(low, low_len, rng, 1, step);
        const int top = low_len > 0 ? low[low_len - 1] : 1;
        sorted_keys(high, high_len, rng, top + 1, step); /* strictly above every low key */
    } else if (strcmp(dist, "interleaved") == 0) {
        /* A odd, B even: the two arrays alternate (q > 1 only when too long to fit) */
        const int64_t q = (m > n ? m : n) / (limit / 2 - 1) + 1;
        for (int i = 0; i < m; i++)
            A[i] = 1 + 2 * (int)(i / q);
        for (int j = 0; j < n; j++)
            B[j] = 2 + 2 * (int)(j / q);
    } else if (strcmp(dist, "dups") == 0) {
        /* twelve distinct keys: long runs of ties that straddle tiles and blocks */
        for (int i = 0; i < m; i++)
            A[i] = 1 + (int)(i * (int64_t)12 / m);
        for (int j = 0; j < n; j++)
            B[j] = 1 + (int)(j * (int64_t)12 / n);
    } else {
        return -1;
    }
    if (tagged) {
        merge_tag(A, m, 0, tagged);
        merge_tag(B, n, 1, tagged);
    }
    return 0;
}

/* Int keys onto floats, in order: centred on half the largest key and scaled by
 * 1/8, so both signs and fractions occur; B's zeros become -0.0. */
static void keys_to_floats(merge_inputs *in)
{
    const int top = in->m > 0 && (in->n == 0 || in->A[in->m - 1] > in->B[in->n - 1]) ? in->A[in->m - 1]
                    : in->n > 0                                                      ? in->B[in->n - 1]
                                                                                     : 0;
    for (int pass = 0; pass < 2; pass++) {
        int *X = pass ? in->B : in->A;
        const int64_t len = pass ? in->n : in->m;
        for (int64_t i = 0; i < len; i++) {
            float f = ((float)X[i] - (float)(top / 2)) * 0.125f;
            if (f == 0.0f && pass == 1)
                f = -0.0f;
            memcpy(&X[i], &f, sizeof f);
        }
    }
}

int merge_inputs_make(merge_inputs *in, const char *dist, uint64_t seed, int64_t m, int64_t n, int is_float,
                      int with_values, int tagged)
{
    lab_rng rng = lab_rng_seeded(seed);
    memset(in, 0, sizeof *in);
    in->m = m, in->n = n, in->is_float = is_float, in->tagged = is_float ? MERGE_TAG_NONE : tagged;
    in->A = (int *)lab_xmalloc(sizeof(int) * (size_t)m);
    in->B = (int *)lab_xmalloc(sizeof(int) * (size_t)n);
    if (merge_make_inputs(dist, &rng, in->A, (int)m, in->B, (int)n, in->tagged) != 0) {
        merge_inputs_free(in);
        return -1;
    }
    if (is_float)
        keys_to_floats(in);
    if (with_values) {
        in->A_values = (int *)lab_xmalloc(sizeof(int) * (size_t)m);
        in->B_values = (int *)lab_xmalloc(sizeof(int) * (size_t)n);
        for (int64_t i = 0; i < m; i++)
            in->A_values[i] = (int)(i + 1);
        for (int64_t j = 0; j < n; j++)
            in->B_values[j] = (int)(m + j + 1);
    }
    return 0;
}

void merge_inputs_free(merge_inputs *in)
{
    free(in->A), free(in->B), free(in->A_values), free(in->B_values);
    memset(in, 0, sizeof *in);
}

/* ---- the reference ----------------------------------------------------------- */

static float as_float(int word)
{
    float f;
    memcpy(&f, &word, sizeof f);
    return f;
}

int merge_key_le(const merge_inputs *in, int x, int y)
{
    if (in->is_float)
        return as_float(x) <= as_float(y);
    return in->tagged ? (x >> 8) <= (y >> 8) : x <= y;
}

void merge_ref(const merge_inputs *in, int *C, int *C_values)
{
    const int values = in->A_values != NULL && C_values != NULL;
    int64_t i = 0, j = 0;
    for (int64_t k = 0; k < in->m + in->n; k++) {
        const int from_A = j >= in->n || (i < in->m && merge_key_le(in, in->A[i], in->B[j]));
        C[k] = from_A ? in->A[i] : in->B[j];
        if (values)
            C_values[k] = from_A ? in->A_values[i] : in->B_values[j];
        if (from_A)
            i++;
        else
            j++;
    }
}

void merge_co_rank_ref(const merge_inputs *in, int *want)
{
    int64_t i = 0, j = 0;
    for (int64_t k = 0; k <= in->m + in->n; k++) {
        want[k] = (int)i;
        if (i < in->m && (j >= in->n || merge_key_le(in, in->A[i], in->B[j])))
            i++;
        else
            j++;
    }
}

/* ---- the check --------------------------------------------------------------- */

/* Where a tagged word lies in its input (bit 0 names the input): the first
 * index holding exactly it, found from its key's run; -1 when none does. */
static int64_t position_of(const merge_inputs *in, int word)
{
    const int *X = (word & 1) ? in->B : in->A;
    int64_t lo = 0, hi = (word & 1) ? in->n : in->m;
    while (lo < hi) { /* the first element whose key is not below word's */
        const int64_t mid = lo + (hi - lo) / 2;
        if ((X[mid] >> 8) < (word >> 8))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int64_t i = lo; i < ((word & 1) ? in->n : in->m) && (X[i] >> 8) == (word >> 8); i++)
        if (X[i] == word)
            return i;
    return -1;
}

const char *merge_describe_key(const merge_inputs *in, int word, char *buf, size_t len)
{
    if ((uint32_t)word == LAB_POISON_WORD)
        snprintf(buf, len, "0x%08x%s", (uint32_t)word, lab_marker_meaning((uint32_t)word));
    else if (in->is_float)
        snprintf(buf, len, "%g (0x%08x)", (double)as_float(word), (uint32_t)word);
    else if (in->tagged == MERGE_TAG_ORIGIN && position_of(in, word) >= 0)
        snprintf(buf, len, "key %d from %c[%lld] (0x%08x)", word >> 8, (word & 1) ? 'B' : 'A',
                 (long long)position_of(in, word), (uint32_t)word);
    else if (in->tagged != MERGE_TAG_NONE)
        snprintf(buf, len, "key %d (0x%08x: in neither input)", word >> 8, (uint32_t)word);
    else
        snprintf(buf, len, "%d", word);
    return buf;
}

const char *merge_describe_value(const merge_inputs *in, int value, char *buf, size_t len)
{
    if (value >= 1 && value <= in->m)
        snprintf(buf, len, "A[%d]'s value", value - 1);
    else if (value > in->m && value <= in->m + in->n)
        snprintf(buf, len, "B[%lld]'s value", (long long)(value - in->m - 1));
    else if ((uint32_t)value == LAB_POISON_WORD)
        snprintf(buf, len, "value 0x%08x%s", (uint32_t)value, lab_marker_meaning((uint32_t)value));
    else
        snprintf(buf, len, "value %d (no input's)", value);
    return buf;
}

/* Appends to buf[0, len) after what it holds. */
static void append(char *buf, size_t len, const char *s)
{
    const size_t at = strlen(buf);
    if (at + 1 < len)
        snprintf(buf + at, len - at, "%s", s);
}

/* One mismatch at C[k], described on one line. */
static void describe_mismatch(const merge_inputs *in, int64_t k, const int got[2], const int want[2], char *buf,
                              size_t len)
{
    char word[128];
    const int values = in->A_values != NULL;
    const int tie =
        (uint32_t)got[0] != LAB_POISON_WORD && merge_key_le(in, got[0], want[0]) && merge_key_le(in, want[0], got[0]);
    snprintf(buf, len, "C[%lld] = %s", (long long)k, merge_describe_key(in, got[0], word, sizeof word));
    if (values)
        append(buf, len, " with "), append(buf, len, merge_describe_value(in, got[1], word, sizeof word));
    append(buf, len, ", expected "), append(buf, len, merge_describe_key(in, want[0], word, sizeof word));
    if (values)
        append(buf, len, " with "), append(buf, len, merge_describe_value(in, want[1], word, sizeof word));
    if (tie)
        append(buf, len,
               ": equal keys in the wrong order (ties take A first, each input in its own order; "
               "compare keys through MERGE_KEY)");
}

lab_mismatch merge_compare(const merge_inputs *in, const int *got, const int *got_values, const int *want,
                           const int *want_values, int max_report, char *first, size_t first_len)
{
    const int values = in->A_values != NULL && got_values != NULL && want_values != NULL;
    lab_mismatch mm = {.count = 0, .first = -1};
    char line[512];
    if (first != NULL && first_len > 0)
        first[0] = '\0';
    for (int64_t k = 0; k < in->m + in->n; k++) {
        const int g[2] = {got[k], values ? got_values[k] : 0}, w[2] = {want[k], values ? want_values[k] : 0};
        if (g[0] == w[0] && g[1] == w[1])
            continue;
        if (mm.count < max_report || (mm.count == 0 && first != NULL)) {
            describe_mismatch(in, k, g, w, line, sizeof line);
            if (mm.count < max_report)
                printf("  %s\n", line);
            if (mm.count == 0 && first != NULL)
                snprintf(first, first_len, "%s", line);
        }
        if (mm.count++ == 0)
            mm.first = k;
    }
    if (mm.count > max_report && max_report > 0)
        printf("  ... %lld mismatches in all\n", (long long)mm.count);
    return mm;
}
