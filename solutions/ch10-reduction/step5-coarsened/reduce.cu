/* reduce.cu - ch10 step 5: thread coarsening (Figs 10.14-10.15). Each thread
 * first combines 2*COARSE_FACTOR elements on its own, with no barrier and no
 * shared memory; then step 4's tree and atomic finish the block's segment. */
#include "reduce.h"

/* Fig 10.15, for any N and any operator: segments are COARSE_FACTOR times
 * longer than step 4's; elements past N count as the operator's identity. */
__global__ void CoarsenedReductionKernel(const reduce_t *input, reduce_t *output, int64_t N, reduce_kind kind,
                                         unsigned int COARSE_FACTOR)
{
    __shared__ reduce_t input_s[REDUCE_MAX_BLOCK]; /* line 02: BLOCK_DIM in the book */
    unsigned int t = threadIdx.x;
    int64_t segment = (int64_t)COARSE_FACTOR * 2 * blockDim.x * blockIdx.x; /* line 03: COARSE_FACTOR x longer */
    int64_t i = segment + t;
    /* exercise: Fig 10.15 lines 06-09: sum = input[i] (the identity when i >= N); for tile = 1 .. COARSE_FACTOR*2 - 1, sum = reduce_combine(kind, sum, input[i + tile*blockDim.x]), the identity past N; then input_s[t] = sum */
    reduce_t sum = i < N ? input[i] : reduce_identity(kind); /* line 06; bounds checks: see step 4 */
#pragma unroll 4 /* several loads in flight per thread, not one at a time */
    for (unsigned int tile = 1; tile < COARSE_FACTOR * 2; ++tile) { /* the coarsening loop: all threads active */
        int64_t index = i + (int64_t)tile * blockDim.x; /* blockDim.x apart: each warp's load is coalesced */
        sum = reduce_combine(kind, sum, index < N ? input[index] : reduce_identity(kind));
    }
    input_s[t] = sum; /* line 10 */
    /* exercise stub: input_s[t] = reduce_identity(kind); */
    /* end exercise */
    for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (t < stride) {
            input_s[t] = reduce_combine(kind, input_s[t], input_s[t + stride]);
        }
    }
    if (t == 0) {
        reduce_atomic(kind, output, input_s[0]); /* one atomic per block: blocks cannot synchronize */
    }
}

const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p)
{
    const char *why = reduce_multi_block_check(p, 0);
    if (why == NULL)
        why = reduce_set_grid(n, 2 * (int64_t)p->coarsen * p->block, p, 1); /* section 10.8: COARSE_FACTOR x fewer blocks */
    if (why != NULL)
        return why;
    p->per_thread = 2 * (int64_t)p->coarsen;
    reduce_start_output((reduce_t *)output_d, p->kind);
    if (n > 0)
        CoarsenedReductionKernel<<<p->grid, p->block>>>((const reduce_t *)input_d, (reduce_t *)output_d, n, p->kind,
                                                         (unsigned int)p->coarsen);
    CUDA_CHECK_LAUNCH();
    return NULL;
}
