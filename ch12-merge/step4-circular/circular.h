/* Exercise: fill in each TODO; `make hint STEP=ch12-merge/step4` gives graded hints. */
/* circular.h - ch12 step 4: co-rank and sequential merge over circular
 * buffers (Figs 12.19, 12.20). Callers see each tile as a contiguous run of
 * m (or n) elements starting at A_S_start (B_S_start); only the reads wrap.
 * Keys compare through MERGE_KEY(x), as in co_rank.h. */
#ifndef CIRCULAR_H
#define CIRCULAR_H

#include "merge.h"

/* Fig 12.19: Fig 12.5's search; i, j, i_low, j_low are offsets from the start. */
static inline __host__ __device__ int co_rank_circular(int k, const int *A, int m, const int *B, int n, int A_S_start,
                                                       int B_S_start, int tile_size)
{
    int i = k < m ? k : m;
    int j = k - i;
    int i_low = 0 > (k - n) ? 0 : k - n;
    int j_low = 0 > (k - m) ? 0 : k - m;
    int delta;
    int active = 1;
    /* TODO(1): Fig 12.19: Fig 12.5's loop (co_rank.h), but every read wraps: A[i] becomes
       A[(A_S_start + i) % tile_size], A[i-1] becomes A[(A_S_start + i - 1) % tile_size], and the
       same for B. Compare keys through MERGE_KEY(x), never raw values (the tests tag each value's
       low bits) */
    (void)A, (void)B, (void)j, (void)i_low, (void)j_low, (void)delta, (void)active, (void)A_S_start, (void)B_S_start, (void)tile_size;
    return i;
}

/* Fig 12.20: Fig 12.2's merge reading A and B through wrapped indices. */
static inline __host__ __device__ void merge_sequential_circular(const int *A, int m, const int *B, int n, int *C,
                                                                 int A_S_start, int B_S_start, int tile_size)
{
    /* TODO(2): Fig 12.20: Fig 12.2's merge (merge_sequential in co_rank.h) where A[i] is read as
       A[(A_S_start + i) % tile_size], likewise B; C is not circular. Compare keys through
       MERGE_KEY(x) (ties take A first) */
    (void)A, (void)m, (void)B, (void)n, (void)C, (void)A_S_start, (void)B_S_start, (void)tile_size;
}

#endif
