/* reduce.cu - ch10 step 4: hierarchical reduction (Figs 10.12-10.13). Any N:
 * each block reduces its own segment of 2*blockDim.x elements with step 3's
 * tree, and thread 0 adds the block's result into *output atomically. */
#include "reduce.h"

/* Fig 10.13, for any N and any operator: the segment of block b starts at
 * 2*blockDim.x*b; elements past N count as the operator's identity. */
__global__ void SegmentedReductionKernel(const reduce_t *input, reduce_t *output, int64_t N, reduce_kind kind)
{
    __shared__ reduce_t input_s[REDUCE_MAX_BLOCK]; /* line 02: BLOCK_DIM in the book */
    unsigned int t = threadIdx.x;
    /* exercise: Fig 10.13 lines 03-06: segment = 2*blockDim.x*blockIdx.x (as int64_t), i = segment + t; input_s[t] = input[i] combined with input[i + blockDim.x], each replaced by reduce_identity(kind) when its index is >= N */
    int64_t segment = 2 * (int64_t)blockDim.x * blockIdx.x; /* line 03: where this block's elements start */
    int64_t i = segment + t;                                 /* line 04: this thread's first element */
    reduce_t first = i < N ? input[i] : reduce_identity(kind); /* bounds checks: the book assumes whole segments */
    reduce_t second = i + blockDim.x < N ? input[i + blockDim.x] : reduce_identity(kind);
    input_s[t] = reduce_combine(kind, first, second); /* line 06 */
    /* exercise stub: input_s[t] = reduce_identity(kind); */
    /* end exercise */
    for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (t < stride) {
            input_s[t] = reduce_combine(kind, input_s[t], input_s[t + stride]);
        }
    }
    if (t == 0) {
        /* exercise: Fig 10.13 line 14: combine the block's result input_s[0] into *output with reduce_atomic (atomicAdd for a sum): other blocks do the same at the same time */
        reduce_atomic(kind, output, input_s[0]); /* one atomic per block: blocks cannot synchronize */
        /* end exercise */
    }
}

const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p)
{
    const char *why = reduce_multi_block_check(p, 0);
    if (why == NULL)
        why = reduce_set_grid(n, 2 * (int64_t)p->block, p, 1); /* section 10.7: N / (2 x blockDim.x) blocks */
    if (why != NULL)
        return why;
    p->per_thread = 2;
    reduce_start_output((reduce_t *)output_d, p->kind);
    if (n > 0)
        SegmentedReductionKernel<<<p->grid, p->block>>>((const reduce_t *)input_d, (reduce_t *)output_d, n, p->kind);
    CUDA_CHECK_LAUNCH();
    return NULL;
}
