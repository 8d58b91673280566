/* block_tree.cuh - ch10 step 4: step 3's tree for any operator, over the
 * block's partials in shared memory (Fig 10.13 lines 07-12). Step 5 uses it
 * too. */
#ifndef REDUCE_BLOCK_TREE_CUH
#define REDUCE_BLOCK_TREE_CUH

#include "reduce_device.cuh"

/* input_s[0, blockDim.x) -> input_s[0], the block's result; blockDim.x a
 * power of two. The barrier at the top also covers the caller's writes. */
static __device__ __forceinline__ void block_tree(reduce_t *input_s, reduce_kind kind)
{
    unsigned int t = threadIdx.x;
    for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (t < stride) {
            input_s[t] = reduce_combine(kind, input_s[t], input_s[t + stride]);
        }
    }
}

#endif
