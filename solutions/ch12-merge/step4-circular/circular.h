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
    /* exercise: Fig 12.19: Fig 12.5's loop (co_rank.h), but every read wraps: A[i] becomes A[(A_S_start + i) % tile_size], A[i-1] becomes A[(A_S_start + i - 1) % tile_size], and the same for B. Compare keys through MERGE_KEY(x), never raw values (the tests tag each value's low bits) */
    /* hint: i, j, i_low and j_low move exactly as in co_rank: only the four array reads change */
    /* hint: wrap i - 1 itself, (A_S_start + i - 1) % tile_size, not i_cir - 1: at i_cir = 0 that would read A[-1] */
    /* hint: the ties as in co_rank: A[i-1] > B[j] is strict, B[j-1] >= A[i] is not */
    while (active) {
        const int i_cir = (A_S_start + i) % tile_size;         /* A_S index of offset i */
        const int i_m_1_cir = (A_S_start + i - 1) % tile_size; /* wrap i-1 itself, not i_cir-1 */
        const int j_cir = (B_S_start + j) % tile_size;
        const int j_m_1_cir = (B_S_start + j - 1) % tile_size;
        if (i > 0 && j < n && MERGE_KEY(A[i_m_1_cir]) > MERGE_KEY(B[j_cir])) {
            delta = ((i - i_low + 1) >> 1);
            j_low = j;
            i = i - delta;
            j = j + delta;
        } else if (j > 0 && i < m && MERGE_KEY(B[j_m_1_cir]) >= MERGE_KEY(A[i_cir])) {
            delta = ((j - j_low + 1) >> 1);
            i_low = i;
            i = i + delta;
            j = j - delta;
        } else {
            active = 0;
        }
    }
    /* exercise stub: (void)A, (void)B, (void)j, (void)i_low, (void)j_low, (void)delta, (void)active, (void)A_S_start, (void)B_S_start, (void)tile_size; */
    /* end exercise */
    return i;
}

/* Fig 12.20: Fig 12.2's merge reading A and B through wrapped indices. */
static inline __host__ __device__ void merge_sequential_circular(const int *A, int m, const int *B, int n, int *C,
                                                                 int A_S_start, int B_S_start, int tile_size)
{
    /* exercise: Fig 12.20: Fig 12.2's merge (merge_sequential in co_rank.h) where A[i] is read as A[(A_S_start + i) % tile_size], likewise B; C is not circular. Compare keys through MERGE_KEY(x) (ties take A first) */
    /* hint: keep i and j as offsets into the runs; form i_cir = (A_S_start + i) % tile_size and j_cir the same way before each read */
    /* hint: the copy of what is left wraps too: B[(B_S_start + j) % tile_size] */
    int i = 0; /* offsets into the A and B runs */
    int j = 0;
    int k = 0;
    while ((i < m) && (j < n)) {
        const int i_cir = (A_S_start + i) % tile_size;
        const int j_cir = (B_S_start + j) % tile_size;
        if (MERGE_KEY(A[i_cir]) <= MERGE_KEY(B[j_cir])) {
            C[k++] = A[i_cir];
            i++;
        } else {
            C[k++] = B[j_cir];
            j++;
        }
    }
    if (i == m) { /* done with A: copy the rest of B */
        for (; j < n; j++)
            C[k++] = B[(B_S_start + j) % tile_size];
    } else { /* done with B: copy the rest of A */
        for (; i < m; i++)
            C[k++] = A[(A_S_start + i) % tile_size];
    }
    /* exercise stub: (void)A, (void)m, (void)B, (void)n, (void)C, (void)A_S_start, (void)B_S_start, (void)tile_size; */
    /* end exercise */
}

#endif
