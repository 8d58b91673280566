/* Exercise: fill in each TODO; `make hint STEP=ch12-merge/step2` gives graded hints. */
/* merge.cu - ch12 step 2: the co-ranks of step 1 now split the merge itself:
 * each thread co-ranks the first output of its own slice and of the next
 * thread's, then merges its two input slices with merge_sequential.
 * Figure 12.9 (with 12.2 and 12.5 from step 1). */
#include "co_rank.h"
#include "merge_host.h"

/* Fig 12.9, fixed: elementsPerThread rounds up (the printed ceil() of an
 * integer division truncates) and k_curr is clamped to m+n (see errata). */
__global__ void merge_basic_kernel(const int *A, int m, const int *B, int n, int *C, int printed)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t threads = (int64_t)blockDim.x * gridDim.x;
    const int elementsPerThread = (printed & MERGE_PRINTED_CEIL) ? (int)((m + n) / threads) : ceil_div(m + n, threads);
    /* TODO(1): Fig 12.9: this thread's output slice is C[k_curr, k_next) with k_curr =
       tid*elementsPerThread (both clamped to m+n); co_rank gives i_curr and i_next, j = k - i;
       merge_sequential the two input slices into &C[k_curr] */
    (void)A, (void)B, (void)C, (void)elementsPerThread, (void)tid;
}

const char *merge_launch(const merge_args *a, const merge_params *p)
{
    int grid = 0;
    merge_ws ws;
    const char *why = merge_prepare(&merge_step_info, a, p, (const void *)merge_basic_kernel, 0, &grid, &ws);
    if (why != NULL || grid == 0)
        return why;
    merge_basic_kernel<<<grid, p->block>>>(a->A, (int)a->m, a->B, (int)a->n, a->C, p->printed);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* Step 2's facts for ./run and the tests (merge.h) */
const merge_step merge_step_info = {
    .lab = {.about =
                "Step 2: Fig 12.9's basic kernel; each thread co-ranks and merges its own slice of the\n"
                "output. " MERGE_HELP_M MERGE_HELP_COARSEN "--printed runs Fig 12.9's ceil() of an integer division as "
                "printed (docs/errata.md).\n" MERGE_HELP_EXAMPLE,
            .default_n = MERGE_DEFAULT_TOTAL,
            .max_n = MERGE_MAX_TOTAL,
            .max_n_why = MERGE_MAX_N_WHY},
    .takes = MERGE_TAKES_LADDER,
    .defaults = {.block = MERGE_LADDER_BLOCK, .tile = MERGE_LADDER_TILE, .coarsen = MERGE_LADDER_COARSEN},
    .printed = MERGE_PRINTED_CEIL,
};
