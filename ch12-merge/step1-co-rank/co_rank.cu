/* co_rank.cu - ch12 step 1: the chapter starts here: one thread per output
 * rank k computes its co-rank with Fig 12.5's co_rank (co_rank.h, with Fig
 * 12.2's merge_sequential); the driver checks every one.
 * Figures 12.2, 12.5 (the walk of Figs 12.6-12.8: ./run --example). */
#include "co_rank.h"
#include "merge_host.h"

/* Thread t finds the co-rank of rank k[t]: where A's and B's prefixes split. */
__global__ void co_rank_kernel(const int *A, int m, const int *B, int n, const int *k, int *i_out, int count)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < count) {
        i_out[t] = co_rank(k[t], A, m, B, n);
    }
}

const char *co_rank_launch(const int *A_d, int64_t m, const int *B_d, int64_t n, const int *k_d, int *i_d,
                           int64_t count, const merge_params *p)
{
    const char *why = merge_check(&merge_step_info, m, n, 0, 0, p);
    if (why == NULL)
        why = lab_fit_kernel((const void *)co_rank_kernel, p->block, 0);
    if (why != NULL || count == 0)
        return why;
    co_rank_kernel<<<ceil_div(count, p->block), p->block>>>(A_d, (int)m, B_d, (int)n, k_d, i_d, (int)count);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* Step 1's facts for ./run and the tests (merge.h) */
const merge_step merge_step_info = {
    .lab = {.about = "Step 1 computes the co-rank of every output rank k = 0..m+n on the GPU, one thread\n"
                     "per rank, and checks each against the stable merge on the CPU. A has --m elements\n"
                     "(default: half of -n), B the rest. --example replays the book's co-rank walk (Figs\n"
                     "12.6-12.8) with your co_rank on the CPU (no GPU needed), then on the GPU.\n",
            .default_n = MERGE_DEFAULT_TOTAL,
            .max_n = MERGE_MAX_TOTAL - 1,
            .max_n_why = "m + n must stay below 2^31 - 1: the step computes m + n + 1 co-ranks, and indices are "
                         "int, as in the book"},
    .takes = MERGE_TAKES_BOOK,
    .defaults = {.block = 256, .coarsen = 1},
};
