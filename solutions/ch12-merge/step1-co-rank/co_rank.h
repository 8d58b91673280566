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
    /* exercise: Fig 12.2: two fingers i, j walk A and B; C takes A[i] when MERGE_KEY(A[i]) <= MERGE_KEY(B[j]) (ties take A first: the merge is stable), else B[j]; then copy what is left. Compare keys through MERGE_KEY(x), never raw values (the tests tag each value's low bits) */
    /* hint: three indices: i into A, j into B, k into C; the first loop runs while both i < m and j < n */
    /* hint: when the first loop ends one side may still have elements (never both): the rest of it is already sorted and goes to C as it is */
    /* hint: a raw A[i] <= B[j] passes ./run but fails the tests: their values carry tags whose raw order scrambles equal keys; the comparison is MERGE_KEY(A[i]) <= MERGE_KEY(B[j]) */
    int i = 0;                   /* index into A */
    int j = 0;                   /* index into B */
    int k = 0;                   /* index into C */
    while ((i < m) && (j < n)) { /* handle start of A[] and B[] */
        if (MERGE_KEY(A[i]) <= MERGE_KEY(B[j]))
            C[k++] = A[i++];
        else
            C[k++] = B[j++];
    }
    if (i == m) { /* done with A[]; handle remaining B[] */
        while (j < n)
            C[k++] = B[j++];
    } else { /* done with B[]; handle remaining A[] */
        while (i < m)
            C[k++] = A[i++];
    }
    /* exercise stub: (void)A, (void)m, (void)B, (void)n, (void)C; */
    /* end exercise */
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
    /* exercise: Fig 12.5 lines 08-21: while active: if i > 0, j < n and A[i-1] > B[j] (i too big): delta = ceil((i-i_low)/2), j_low = j, then i down and j up by delta; else if j > 0, i < m and B[j-1] >= A[i] (j too big): delta = ceil((j-j_low)/2), i_low = i, then j down and i up by delta; else active = 0. Compare keys through MERGE_KEY(x), never raw values (the tests tag each value's low bits); CO_RANK_TRACE(i, j, i_low, j_low, delta) in each branch (delta 0 when it stops) prints ./run --example's trace */
    /* hint: the two tests must agree on ties: A[i-1] > B[j] is strict and B[j-1] >= A[i] is not, so a tie leaves A's element before B's, as merge_sequential does */
    /* hint: the low bounds are what the search has learnt: once i was too big, B[0, j) is surely among the first k outputs, so j never goes below that j again (j_low); the same for i */
    /* hint: ceil(x / 2) of a non-negative int is (x + 1) >> 1; the guards come first in each test (&& stops before a read past an end) */
    while (active) {
        if (i > 0 && j < n && MERGE_KEY(A[i - 1]) > MERGE_KEY(B[j])) {
            delta = ((i - i_low + 1) >> 1); /* ceil((i - i_low) / 2) */
            CO_RANK_TRACE(i, j, i_low, j_low, delta);
            j_low = j;
            j = j + delta;
            i = i - delta;
        } else if (j > 0 && i < m && MERGE_KEY(B[j - 1]) >= MERGE_KEY(A[i])) {
            delta = ((j - j_low + 1) >> 1); /* ceil((j - j_low) / 2) */
            CO_RANK_TRACE(i, j, i_low, j_low, delta);
            i_low = i;
            i = i + delta;
            j = j - delta;
        } else {
            CO_RANK_TRACE(i, j, i_low, j_low, 0);
            active = 0;
        }
    }
    /* exercise stub: (void)A, (void)B, (void)j, (void)i_low, (void)j_low, (void)delta, (void)active; */
    /* end exercise */
    return i;
}

#endif
