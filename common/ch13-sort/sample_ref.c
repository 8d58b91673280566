/* sample_ref.c - the CPU reference of the sort across GPUs (sample_ref.h). */
#include "sample_ref.h"

#include <string.h>

#include "gen.h"
#include "report.h"
#include "sort_ref.h"

sample_ref sample_ref_make(int64_t N, int dist, uint64_t seed, int with_values)
{
    sample_ref ref = {.N = N, .dist = dist, .seed = seed, .want = NULL, .seen = NULL};
    if (with_values) {
        ref.seen = (unsigned char *)lab_xmalloc((size_t)(N / 8 + 1));
        memset(ref.seen, 0, (size_t)(N / 8 + 1));
        return ref;
    }
    ref.want = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)(N > 0 ? N : 1));
    for (int64_t g = 0; g < N; g++)
        ref.want[g] = gen_key(dist, seed, (uint64_t)g, (uint64_t)N);
    sort_ref(ref.want, NULL, N);
    return ref;
}

void sample_ref_free(sample_ref *ref)
{
    free(ref->want), free(ref->seen);
    ref->want = NULL, ref->seen = NULL;
}

/* Why pair x of a run is wrong (NULL: it is right), and marks its position seen. */
static const char *pair_wrong(sample_ref *ref, const unsigned int *k, const unsigned int *v, int64_t x)
{
    const char *why = NULL;
    if ((int64_t)v[x] >= ref->N)
        return "its value is no input position";
    if (ref->seen[v[x] / 8] >> (v[x] % 8) & 1)
        why = "this input item is here twice (duplicated)";
    else if (k[x] != gen_key(ref->dist, ref->seed, v[x], (uint64_t)ref->N))
        why = "the value left its key (the input has another key at that position)";
    else if (x > 0 && k[x] < k[x - 1])
        why = "key below the one before it (not sorted)";
    else if (x > 0 && k[x] == k[x - 1] && v[x] < v[x - 1])
        why = "equal keys out of input order (not stable)";
    ref->seen[v[x] / 8] |= (unsigned char)(1u << (v[x] % 8));
    return why;
}

int64_t sample_ref_check_run(sample_ref *ref, const unsigned int *k, const unsigned int *v, int64_t n, int64_t at,
                             int rank, int report)
{
    int64_t wrong = 0;
    for (int64_t x = 0; x < n; x++) {
        const int64_t g = at + x;
        const char *why = NULL;
        if (v != NULL)
            why = pair_wrong(ref, k, v, x);
        else if (g >= ref->N || k[x] != ref->want[g])
            why = "the stable sort has another key here";
        if (why == NULL || wrong++ >= report)
            continue;
        if (v != NULL)
            printf("  FAIL GPU %d index %lld (output %lld): key %u value %u: %s%s\n", rank, (long long)x, (long long)g,
                   k[x], v[x], why, lab_marker_meaning(k[x]));
        else
            printf("  FAIL GPU %d index %lld (output %lld): key %u, the stable sort's %u: %s%s\n", rank, (long long)x,
                   (long long)g, k[x], g < ref->N ? ref->want[g] : 0u, why, lab_marker_meaning(k[x]));
    }
    return wrong;
}

int64_t sample_ref_lost(const sample_ref *ref, int report)
{
    int64_t lost = 0;
    for (int64_t g = 0; g < ref->N && ref->seen != NULL; g++)
        if (!(ref->seen[g / 8] >> (g % 8) & 1) && lost++ < report)
            printf("  FAIL: the input item at position %lld (key %u) is in no GPU's run (lost)\n", (long long)g,
                   gen_key(ref->dist, ref->seed, (uint64_t)g, (uint64_t)ref->N));
    return lost;
}
