/* sample_ref.h - the CPU reference of the sort across GPUs (steps 9 and 10),
 * element by element: a rank's run of the output against what the CPU makes
 * of the same input (gen.h makes it from the positions alone). Nothing here
 * needs a GPU.
 *  Pairs, in O(N): every value is an input position seen once, its key is
 *    the key at that position, and the items (key, position) rise strictly.
 *    A permutation of the input's items in (key, position) order IS the
 *    stable sort, so this is the element-by-element check without sorting.
 *  Keys alone: against sort_ref's stable sort of every key. */
#ifndef LAB_SAMPLE_REF_H
#define LAB_SAMPLE_REF_H

#include "lab.h"

LAB_BEGIN_C

/* What a run is checked against: for keys, every key of the input stably
 * sorted; for pairs, which input positions a run has shown so far. */
typedef struct {
    int64_t N;
    int dist;
    uint64_t seed;
    unsigned int *want;  /* keys: the stable sort of all N keys; pairs: NULL */
    unsigned char *seen; /* pairs: N bits, one an input position; keys: NULL */
} sample_ref;

sample_ref sample_ref_make(int64_t N, int dist, uint64_t seed, int with_values);
void sample_ref_free(sample_ref *ref);

/* Rank `rank`'s run, n keys (and values, or NULL) that belong at output
 * positions [at, at + n): the wrong ones, the first `report` of them printed. */
int64_t sample_ref_check_run(sample_ref *ref, const unsigned int *k, const unsigned int *v, int64_t n, int64_t at,
                             int rank, int report);

/* Pairs, once every rank's run is checked: the input positions no run held
 * (lost keys), the first `report` of them printed. */
int64_t sample_ref_lost(const sample_ref *ref, int report);

LAB_END_C

#endif
