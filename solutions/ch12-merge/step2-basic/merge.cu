/* merge.cu - ch12 step 2: the basic parallel merge (Fig 12.9). Each thread
 * co-ranks the first output of its own slice and of the next thread's, then
 * merges its two input slices sequentially. */
#include "co_rank.h"

/* Fig 12.9, fixed: elementsPerThread rounds up (the printed ceil() of an
 * integer division truncates) and k_curr is clamped to m+n (see errata). */
__global__ void merge_basic_kernel(const int *A, int m, const int *B, int n, int *C, int printed)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t threads = (int64_t)blockDim.x * gridDim.x;
    const int elementsPerThread = (printed & MERGE_PRINTED_CEIL) ? (int)((m + n) / threads) : ceil_div(m + n, threads);
    /* exercise: Fig 12.9: this thread's output slice is C[k_curr, k_next) with k_curr = tid*elementsPerThread (both clamped to m+n); co_rank gives i_curr and i_next, j = k - i; merge_sequential the two input slices into &C[k_curr] */
    const int k_curr = (int)min((int64_t)tid * elementsPerThread, (int64_t)(m + n)); /* start output index */
    const int k_next = (int)min((int64_t)(tid + 1) * elementsPerThread, (int64_t)(m + n)); /* end output index */
    const int i_curr = co_rank(k_curr, A, m, B, n);
    const int i_next = co_rank(k_next, A, m, B, n);
    const int j_curr = k_curr - i_curr;
    const int j_next = k_next - i_next;
    merge_sequential(&A[i_curr], i_next - i_curr, &B[j_curr], j_next - j_curr, &C[k_curr]);
    /* exercise stub: (void)A; (void)B; (void)C; (void)elementsPerThread; (void)tid; */
    /* end exercise */
}

const char *merge_launch(const int *A_d, int m, const int *B_d, int n, int *C_d, const merge_params *p)
{
    int grid = 0;
    const char *why = merge_check_params(p, (int64_t)m + n, &grid);
    if (why != NULL || (int64_t)m + n == 0)
        return why;
    merge_basic_kernel<<<grid, p->block>>>(A_d, m, B_d, n, C_d, p->printed);
    CUDA_CHECK_LAUNCH();
    return NULL;
}
