/* Exercise: fill in each TODO; `make hint STEP=ch12-merge/step1` gives graded hints. */
/* co_rank.h - ch12 step 1: the sequential merge (Fig 12.2) and the co-rank
 * function (Fig 12.5), callable from the host and from kernels. Steps 2-5
 * (and chapter 13's merge sort) include this file, the solution's, for their
 * own merges and co-rank searches.
 * Keys compare through MERGE_KEY(x) (merge.h), never as raw values: the tests
 * tag the low bits of every value with where it came from, in scrambled order,
 * so only a comparison of keys breaks ties the way the book does (A first). */
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
    /* TODO(1): Fig 12.2: two fingers i, j walk A and B; C takes A[i] when MERGE_KEY(A[i]) <=
       MERGE_KEY(B[j]) (ties take A first: the merge is stable), else B[j]; then copy what is left.
       Compare keys through MERGE_KEY(x), never raw values (the tests tag each value's low bits) */
    (void)A, (void)m, (void)B, (void)n, (void)C;
}

/* Fig 12.5: the co-rank i of output rank k, i.e. C[0,k) merges A[0,i) and
 * B[0,k-i). Binary search for A[i-1] <= B[j] and B[j-1] < A[i]. */
static inline __host__ __device__ int co_rank(int k, const int *A, int m, const int *B, int n)
{
    int i = k < m ? k : m;               /* i = min(k, m): i cannot exceed k nor m */
    int j = k - i;                       /* the invariant: i + j == k */
    int i_low = 0 > (k - n) ? 0 : k - n; /* i_low = max(0, k-n): B supplies at most n */
    int j_low = 0 > (k - m) ? 0 : k - m; /* j_low = max(0, k-m): A supplies at most m */
    int delta;
    int active = 1;
    /* TODO(2): Fig 12.5 lines 08-21: while active: if i > 0, j < n and A[i-1] > B[j] (i too big):
       delta = ceil((i-i_low)/2), j_low = j, then i down and j up by delta; else if j > 0, i < m and
       B[j-1] >= A[i] (j too big): delta = ceil((j-j_low)/2), i_low = i, then j down and i up by
       delta; else active = 0. Compare keys through MERGE_KEY(x), never raw values (the tests tag
       each value's low bits); CO_RANK_TRACE(i, j, i_low, j_low, delta) in each branch (delta 0 when
       it stops) prints ./run --example's trace */
    (void)A, (void)B, (void)j, (void)i_low, (void)j_low, (void)delta, (void)active;
    return i;
}

#endif
