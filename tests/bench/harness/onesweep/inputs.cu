/* inputs.cu - the onesweep harness's inputs and the CPU reference they are
 * checked against: keys of six distributions, values a distinct payload per
 * input position (~i), a stable LSD radix sort on the CPU, and the small host
 * helpers every mode uses. Nothing here depends on the step or the variant:
 * run.sh compiles it once. */
#include <time.h>

#include "harness.h"

double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

unsigned int *host_words(int64_t n)
{
    return (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)(n > 0 ? n : 1));
}

void *dev_alloc(size_t bytes)
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
void ref_sort(unsigned int *keys, unsigned int *values, int64_t n)
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

const char *const dists[] = {"uniform", "sorted", "reverse", "equal", "few", "high", NULL};

static unsigned int rand32(lab_rng *r)
{
    return (unsigned int)(lab_rng_next(r) >> 32);
}

void make_keys(const char *dist, uint64_t seed, unsigned int *k, int64_t n)
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

void make_values(unsigned int *v, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        v[i] = ~(unsigned int)i; /* distinct per position, never the poison word below 2^30 */
}
