/* Exercise made from solutions/ch12-merge/step1-co-rank/co_rank.h by `make exercises`: fill in each TODO. `make diff STEP=ch12-merge/step1-co-rank` compares. */
/* co_rank.h - ch12 step 1: the sequential merge (Fig 12.2) and the co-rank
 * function (Fig 12.5), callable from the host and from kernels. Steps 2-5
 * include this file (the solution's) for their own co-rank searches. */
#ifndef CO_RANK_H
#define CO_RANK_H

#include "merge.h"

/* ./run --example defines this to print each search iteration (Figs 12.6-12.8). */
#ifndef CO_RANK_TRACE
#define CO_RANK_TRACE(i, j, i_low, j_low, delta)
#endif

/* Fig 12.2: merge sorted A[0,m) and B[0,n) into C; ties take A first (stable). */
static inline __host__ __device__ void merge_sequential(const int *A, int m, const int *B, int n, int *C)
{
    /* TODO(1): Fig 12.2: two fingers i, j walk A and B; on a tie (A[i] <= B[j]) take A first; then copy what is left */
    (void)A; (void)m; (void)B; (void)n; (void)C;
}

/* Fig 12.5: the co-rank i of output rank k, i.e. C[0,k) merges A[0,i) and
 * B[0,k-i). Binary search for A[i-1] <= B[j] and B[j-1] < A[i]. */
static inline __host__ __device__ int co_rank(int k, const int *A, int m, const int *B, int n)
{
    int i = k < m ? k : m;             /* i = min(k, m): i cannot exceed k nor m */
    int j = k - i;                     /* the invariant: i + j == k */
    int i_low = 0 > (k - n) ? 0 : k - n; /* i_low = max(0, k-n): B supplies at most n */
    int j_low = 0 > (k - m) ? 0 : k - m; /* j_low = max(0, k-m): A supplies at most m */
    int delta;
    int active = 1;
    /* TODO(2): Fig 12.5 lines 08-21: while active, if A[i-1] > B[j] move i down (and j up) by delta = ceil((i-i_low)/2); else if B[j-1] >= A[i] move j down (and i up) by ceil((j-j_low)/2); else stop */
    (void)A; (void)B; (void)delta; (void)active; (void)i_low; (void)j_low; (void)j;
    return i;
}

#endif
