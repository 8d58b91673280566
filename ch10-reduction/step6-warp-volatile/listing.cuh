/* Exercise: fill in each TODO; `make hint STEP=ch10-reduction/step6` gives graded hints. */
/* listing.cuh - ch10 step 6: the warp-synchronous listing's kernel,
 * sumCommSingleBlockWithWarps, over a grid, and its launcher; steps 7 and 8
 * use them too. The kernel is two phases, each a function the including step
 * defines (declared here):
 *   thread_partial  what one thread combines from the input (steps 6-7: the
 *                   listing's loop, grid_stride_partial; step 8: 16-byte loads)
 *   block_reduce    the block's partials into *out (step 6: the listing's
 *                   block_with_warps; step 7: it or register shuffles)
 * and block_with_warps reduces each warp's 32 partials with the step's
 * warp_reduce (step 6: the listing's, step 7: __syncwarp()). */
#ifndef REDUCE_LISTING_CUH
#define REDUCE_LISTING_CUH

#include "reduce_device.cuh"

static __device__ reduce_t thread_partial(const reduce_t *a, int64_t arraySize, reduce_kind kind);
static __device__ void block_reduce(reduce_t sum, reduce_t *out, reduce_kind kind, int version);
static __device__ reduce_t warp_reduce(reduce_t *shArr, reduce_kind kind, int version);

/* The listing's loop `for (i = idx; i < arraySize; i += blockSize)`, over a
 * grid: each thread combines every (blockDim.x x gridDim.x)-th element from
 * its own on (with one block it is the listing's). */
static __device__ __forceinline__ reduce_t grid_stride_partial(const reduce_t *a, int64_t arraySize, reduce_kind kind)
{
    reduce_t sum = reduce_identity(kind);
#pragma unroll 4 /* several loads in flight per thread, not one at a time */
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < arraySize;
         i += (int64_t)blockDim.x * gridDim.x) /* the stride: all the grid's threads */
        sum = reduce_combine(kind, sum, a[i]);
    return sum;
}

/* The listing's block level: each warp reduces its 32 partials in r with
 * warp_reduce, one __syncthreads(), warp 0 reduces the warps' results the same
 * way, and thread 0 combines the block's into *out atomically (the listing,
 * one block, writes *out = r[0]). */
static __device__ __forceinline__ void block_with_warps(reduce_t sum, reduce_t *out, reduce_kind kind, int version)
{
    __shared__ reduce_t r[REDUCE_MAX_BLOCK]; /* blockSize in the listing */
    int idx = threadIdx.x;
    r[idx] = sum;
    warp_reduce(&r[idx & ~(warpSize - 1)], kind, version); /* r + 32 x (this warp's index): 32 elements per warp */
    __syncthreads();
    /* TODO(1): the listing's second level, in the first warp only (idx < warpSize): r[idx] = warp
       idx's result, r[idx*warpSize]; reduce r with warp_reduce(r, kind, version); thread 0 then
       combines r[0] into *out with reduce_atomic */
}

/* The listing's kernel: each thread's share of the input, then the block's
 * reduction of the shares into *out. version: --variant, 1 or 2. */
__global__ void sumCommSingleBlockWithWarps(const reduce_t *a, reduce_t *out, int64_t arraySize, reduce_kind kind,
                                            int version)
{
    block_reduce(thread_partial(a, arraySize, kind), out, kind, version);
}

const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p)
{
    const char *why = reduce_start(n, output_d, p); /* the launch check, then *output = the identity */
    if (why == NULL && n > 0)
        sumCommSingleBlockWithWarps<<<p->grid, p->block>>>((const reduce_t *)input_d, (reduce_t *)output_d, n, p->kind,
                                                            p->variant == 2 ? 2 : 1);
    CUDA_CHECK_LAUNCH();
    return why;
}

#endif
