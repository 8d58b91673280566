/* Exercise made from solutions/ch12-merge/step1-co-rank/co_rank.cu by `make exercises`: fill in each TODO. `make diff STEP=ch12-merge/step1-co-rank` compares. */
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

/* Added by `make exercises`: ./run and the tests print this while the TODOs are undone. */
extern "C" const char *const lab_step_todos =
    "\n  Exercise: TODOs left in ch12-merge/step1-co-rank (`make diff STEP=ch12-merge/step1-co-rank` shows the solution):\n"
    "    ch12-merge/step1-co-rank/co_rank.h:18: TODO(1) Fig 12.2: two fingers i, j walk A and B; on a tie (A[i] <= B[j]) take A first; then copy what is left\n"
    "    ch12-merge/step1-co-rank/co_rank.h:32: TODO(2) Fig 12.5 lines 08-21: while active, if A[i-1] > B[j] move i down (and j up) by delta = ceil((i-i_low)/2); else if B[j-1] >= A[i] move j down (and i up) by ceil((j-j_low)/2); else stop\n";
