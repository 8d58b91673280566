/* reference.c - the sample sort against the CPU, element by element
 * (ss_check_reference, sample_sort.h): each owned rank's run is downloaded
 * and compared with what the CPU makes of the same input (gen.h makes it
 * from the positions alone).
 *  Pairs, in O(N): every value is an input position seen once, its key is
 *    the key at that position, and the items (key, position) rise strictly.
 *    A permutation of the input's items in (key, position) order IS the
 *    stable sort, so this is the element-by-element check without sorting.
 *  Keys alone: against sort_ref's stable sort of every key. */
#include <string.h>

#include "gen.h"
#include "report.h"
#include "sample_sort.h"
#include "sort_ref.h"

int64_t ss_output_start(const ss_plan *plan, int r)
{
    int64_t at = 0;
    for (int d = 0; d < r; d++)
        at += plan_received(plan, d);
    return at;
}

/* Why pair x of a run is wrong (NULL: it is right), and marks its position seen. */
static const char *pair_wrong(const unsigned int *k, const unsigned int *v, int64_t x, int dist, uint64_t seed,
                              int64_t N, unsigned char *seen)
{
    const char *why = NULL;
    if ((int64_t)v[x] >= N)
        return "its value is no input position";
    if (seen[v[x] / 8] >> (v[x] % 8) & 1)
        why = "this input item is here twice (duplicated)";
    else if (k[x] != gen_key(dist, seed, v[x], (uint64_t)N))
        why = "the value left its key (the input has another key at that position)";
    else if (x > 0 && k[x] < k[x - 1])
        why = "key below the one before it (not sorted)";
    else if (x > 0 && k[x] == k[x - 1] && v[x] < v[x - 1])
        why = "equal keys out of input order (not stable)";
    seen[v[x] / 8] |= (unsigned char)(1u << (v[x] % 8));
    return why;
}

/* Every key of the input, stably sorted on the CPU. */
static unsigned int *sorted_keys(int64_t N, int dist, uint64_t seed)
{
    unsigned int *all = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)(N > 0 ? N : 1));
    for (int64_t g = 0; g < N; g++)
        all[g] = gen_key(dist, seed, (uint64_t)g, (uint64_t)N);
    sort_ref(all, NULL, N);
    return all;
}

int ss_check_reference(const ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, int dist, uint64_t seed,
                       int quiet)
{
    const int64_t N = c->N;
    const int report = quiet ? 0 : 5;
    unsigned char *seen = c->with_values ? (unsigned char *)calloc((size_t)(N / 8 + 1), 1) : NULL;
    unsigned int *want = c->with_values ? NULL : sorted_keys(N, dist, seed);
    int fails = 0;
    for (int i = 0; i < nlocal; i++) {
        const ss_rank *r = &R[i];
        const int64_t at = ss_output_start(plan, r->rank), n = r->run_n;
        const size_t bytes = sizeof(unsigned int) * (size_t)(n > 0 ? n : 1);
        unsigned int *k = (unsigned int *)lab_xmalloc(bytes),
                     *v = c->with_values ? (unsigned int *)lab_xmalloc(bytes) : NULL;
        CUDA_CHECK(cudaSetDevice(r->device));
        CUDA_CHECK(cudaMemcpy(k, r->run_k, sizeof(unsigned int) * (size_t)n, cudaMemcpyDeviceToHost));
        if (v != NULL)
            CUDA_CHECK(cudaMemcpy(v, r->run_v, sizeof(unsigned int) * (size_t)n, cudaMemcpyDeviceToHost));
        int64_t wrong = 0;
        for (int64_t x = 0; x < n; x++) {
            const char *why = NULL;
            if (v != NULL)
                why = pair_wrong(k, v, x, dist, seed, N, seen);
            else if (at + x >= N || k[x] != want[at + x])
                why = "the stable sort has another key here";
            if (why != NULL && wrong++ < report)
                printf("  FAIL GPU %d index %lld (output %lld): key %u%s%u: %s%s\n", r->rank, (long long)x,
                       (long long)(at + x), k[x], v != NULL ? " value " : ", the stable sort's ",
                       v != NULL    ? v[x]
                       : at + x < N ? want[at + x]
                                    : 0u,
                       why, lab_marker_meaning(k[x]));
        }
        if (wrong > 0 && !quiet)
            printf("  FAIL GPU %d: %lld of its %lld keys wrong against the CPU reference%s\n", r->rank,
                   (long long)wrong, (long long)n, lab_todo_note());
        fails += wrong > 0;
        free(k), free(v);
    }
    if (c->with_values && nlocal == c->G) /* every rank is here: a position never seen is a lost key */
        for (int64_t g = 0, told = 0; g < N && told < 5; g++)
            if (!(seen[g / 8] >> (g % 8) & 1)) {
                if (!quiet)
                    printf("  FAIL: the input item at position %lld (key %u) is in no GPU's run (lost)\n", (long long)g,
                           gen_key(dist, seed, (uint64_t)g, (uint64_t)N));
                fails += told++ == 0;
            }
    free(seen), free(want);
    return fails;
}
