/* Exercise made from solutions/ch12-merge/step2-basic/merge.cu by `make exercises`: fill in each TODO. `make diff STEP=ch12-merge/step2-basic` compares. */
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
    /* TODO(1): Fig 12.9: this thread's output slice is C[k_curr, k_next) with k_curr = tid*elementsPerThread (both clamped to m+n); co_rank gives i_curr and i_next, j = k - i; merge_sequential the two input slices into &C[k_curr] */
    (void)A; (void)B; (void)C; (void)elementsPerThread; (void)tid;
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

/* Added by `make exercises`: ./run and the tests print this while the TODOs are undone. */
extern "C" const char *const lab_step_todos =
    "\n  Exercise: TODOs left in ch12-merge/step2-basic (`make diff STEP=ch12-merge/step2-basic` shows the solution):\n"
    "    ch12-merge/step2-basic/merge.cu:14: TODO(1) Fig 12.9: this thread's output slice is C[k_curr, k_next) with k_curr = tid*elementsPerThread (both clamped to m+n); co_rank gives i_curr and i_next, j = k - i; merge_sequential the two input slices into &C[k_curr]\n";
