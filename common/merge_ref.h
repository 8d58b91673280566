/* merge_ref.h - chapter 12's CPU references. Inline, so each user compiles
 * them with its own MERGE_KEY (the tests tag their keys; see merge.h). */
#ifndef LAB_MERGE_REF_H
#define LAB_MERGE_REF_H

#include "merge.h"

/* The stable two-finger merge: ties take A first. */
static inline void merge_ref(const int *A, int m, const int *B, int n, int *C)
{
    int i = 0, j = 0, k = 0;
    while (i < m && j < n)
        C[k++] = MERGE_KEY(A[i]) <= MERGE_KEY(B[j]) ? A[i++] : B[j++];
    while (i < m)
        C[k++] = A[i++];
    while (j < n)
        C[k++] = B[j++];
}

/* want[k] = how many of C[0,k) come from A in the stable merge, k = 0..m+n. */
static inline void merge_co_rank_ref(const int *A, int m, const int *B, int n, int *want)
{
    int i = 0, j = 0;
    for (int k = 0; k <= m + n; k++) {
        want[k] = i;
        if (i < m && (j >= n || MERGE_KEY(A[i]) <= MERGE_KEY(B[j])))
            i++;
        else
            j++;
    }
}

#endif
