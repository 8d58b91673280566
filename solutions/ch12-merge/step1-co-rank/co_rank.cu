/* co_rank.cu - ch12 step 1: one thread per output rank k computes its
 * co-rank with Fig 12.5's co_rank; the driver checks every one. */
#include "co_rank.h"

/* Thread t finds the co-rank of rank k[t]: where A's and B's prefixes split. */
__global__ void co_rank_kernel(const int *A, int m, const int *B, int n, const int *k, int *i_out, int count)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < count) {
        i_out[t] = co_rank(k[t], A, m, B, n);
    }
}

const char *co_rank_launch(const int *A_d, int m, const int *B_d, int n, const int *k_d, int *i_d, int count,
                           int block)
{
    if (block < 1 || block > 1024)
        return "block must be 1 to 1024 threads";
    if (count == 0)
        return NULL;
    co_rank_kernel<<<(count + block - 1) / block, block>>>(A_d, m, B_d, n, k_d, i_d, count);
    CUDA_CHECK_LAUNCH();
    return NULL;
}
