/* Exercise made from solutions/ch10-reduction/step5-coarsened/reduce.cu by `make exercises`: fill in each TODO. `make diff STEP=ch10-reduction/step5-coarsened` compares. */
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
    /* TODO(1): Fig 10.15 lines 06-09: sum = input[i] (the identity when i >= N); for tile = 1 .. COARSE_FACTOR*2 - 1, sum = reduce_combine(kind, sum, input[i + tile*blockDim.x]), the identity past N; then input_s[t] = sum */
    input_s[t] = reduce_identity(kind);
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

/* Added by `make exercises`: ./run and the tests print this while the TODOs are undone. */
extern "C" const char *const lab_step_todos =
    "\n  Exercise: TODOs left in ch10-reduction/step5-coarsened (`make diff STEP=ch10-reduction/step5-coarsened` shows the solution):\n"
    "    ch10-reduction/step5-coarsened/reduce.cu:16: TODO(1) Fig 10.15 lines 06-09: sum = input[i] (the identity when i >= N); for tile = 1 .. COARSE_FACTOR*2 - 1, sum = reduce_combine(kind, sum, input[i + tile*blockDim.x]), the identity past N; then input_s[t] = sum\n";
