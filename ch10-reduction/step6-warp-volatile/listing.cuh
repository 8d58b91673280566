/* listing.cuh - ch10 step 6: the warp-synchronous listing's loop, over a
 * grid, and the launcher of a kernel in the listing's shape; steps 7 and 8
 * use them too (step 7 both, step 8 the launcher). */
#ifndef REDUCE_LISTING_CUH
#define REDUCE_LISTING_CUH

#include "reduce_device.cuh"

/* The listing's loop `for (i = idx; i < arraySize; i += blockSize)`, over a
 * grid: each thread combines every (blockDim.x x gridDim.x)-th element from
 * its own on (with one block it is the listing's). */
static __device__ __forceinline__ reduce_t listing_grid_stride_partial(const reduce_t *a, int64_t arraySize,
                                                                       reduce_kind kind)
{
    reduce_t sum = reduce_identity(kind);
#pragma unroll 4 /* several loads in flight per thread, not one at a time */
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < arraySize;
         i += (int64_t)blockDim.x * gridDim.x) /* the stride: all the grid's threads */
        sum = reduce_combine(kind, sum, a[i]);
    return sum;
}

/* A kernel in the listing's shape (steps 6-8): the input, *out, the input's
 * size, the kind, and the form --variant names (1 or 2). */
typedef void (*listing_kernel)(const reduce_t *a, reduce_t *out, int64_t arraySize, reduce_kind kind, int version);

/* The launcher of steps 6-8: the launch check, *output = the identity, then
 * the step's kernel on the grid the check derived. NULL once launched, or why
 * these parameters cannot run (nothing launched). */
static inline const char *listing_launch(listing_kernel kernel, void *input_d, int64_t n, void *output_d,
                                         reduce_params *p)
{
    const char *why = reduce_start(n, output_d, p); /* the launch check, then *output = the identity */
    if (why == NULL && n > 0)
        kernel<<<p->grid, p->block>>>((const reduce_t *)input_d, (reduce_t *)output_d, n, p->kind,
                                      p->variant == 2 ? 2 : 1);
    CUDA_CHECK_LAUNCH();
    return why;
}

#endif
