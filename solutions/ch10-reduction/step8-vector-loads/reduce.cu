/* reduce.cu - ch10 step 8: each thread's loop reads 16 bytes (four elements)
 * per load and issues two loads before combining either, so two are in flight
 * and the reduction reads at the copy's speed; the warp and block reductions
 * are step 7's (warp_sync.cuh). Beyond the book (README.md). */
#include "listing.cuh"   /* step 6's: the launcher */
#include "warp_sync.cuh" /* step 7's: the warp reductions and the block levels */

/* The four elements of an int4 as (x op y) op (z op w): two independent
 * combines first shorten the chain of dependent ones. */
static __device__ __forceinline__ reduce_t combine4(reduce_kind kind, int4 v)
{
    return reduce_combine(kind, reduce_combine(kind, v.x, v.y), reduce_combine(kind, v.z, v.w));
}

/* Each thread's share of the input, four elements per load: int4 i of the
 * input is elements 4i..4i+3, and the threads of the grid stride over the
 * int4s as the listing's loop strides over elements, two int4s a round (i
 * and i + stride, both loaded before either is combined); then an odd int4
 * left over, then the last arraySize % 4 elements one by one. The input is
 * cudaMalloc'd: 256-byte aligned, so every int4 is 16-byte aligned. */
static __device__ __forceinline__ reduce_t vector_partial(const reduce_t *a, int64_t arraySize, reduce_kind kind)
{
    const int64_t stride = (int64_t)blockDim.x * gridDim.x;
    const int64_t first = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t n4 = arraySize / 4; /* the whole int4s */
    const int4 *a4 = (const int4 *)a;
    reduce_t sum = reduce_identity(kind);
    /* exercise: the vector loop, two int4s a round: for i = first, while i + stride < n4, i += 2 * stride, load a4[i] and a4[i + stride] first, then combine each into sum with combine4; then the int4 left over when i < n4; then the tail: the elements from arraySize / 4 * 4 on, strided the same way, one at a time */
    /* hint: both loads go before the first combine: with the kind a run-time argument each reduce_combine is a branch, and the compiler does not move a load above one, so a load written after a combine waits for it (#pragma unroll 2 on a one-load loop does not overlap the two loads: measured, 1.00x of CUB against 1.02x) */
    /* hint: the loop stops while one int4 may remain (i < n4 but i + stride >= n4): combine it alone, once, after the loop */
    /* hint: the tail is the last arraySize % 4 elements (at most 3), which no int4 covers: the listing's grid-stride loop again, over elements this time, starting where the int4s end */
    int64_t i = first;
    for (; i + stride < n4; i += 2 * stride) {
        const int4 v = a4[i], w = a4[i + stride]; /* both loads issued before either combine: two in flight */
        sum = reduce_combine(kind, sum, combine4(kind, v));
        sum = reduce_combine(kind, sum, combine4(kind, w));
    }
    if (i < n4) /* the odd int4 left over */
        sum = reduce_combine(kind, sum, combine4(kind, a4[i]));
    for (i = arraySize / 4 * 4 + first; i < arraySize; i += stride) /* the last arraySize % 4 */
        sum = reduce_combine(kind, sum, a[i]);
    /* end exercise */
    return sum;
}

/* Step 7's kernel with 16-byte loads: each thread's share of the input
 * (vector_partial), then step 7's block level of the form version names
 * (1 syncwarp, 2 shfl). */
__global__ void VectorLoadReductionKernel(const reduce_t *a, reduce_t *out, int64_t arraySize, reduce_kind kind,
                                          int version)
{
    warp_sync_block_reduce(vector_partial(a, arraySize, kind), out, kind, version);
}

const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p)
{
    return listing_launch(VectorLoadReductionKernel, input_d, n, output_d, p);
}

/* What this step is, for ./run and the tests (reduce_step, reduce.h). */
const reduce_step reduce_step_info = {
    .lab = {.about = "Step 8: step 7 reading 16 bytes per load; --variant syncwarp|shfl.\n" REDUCE_GRID_STRIDE_HELP
                REDUCE_ANY_N_HELP,
            .default_n = 1 << 24,
            .max_n = REDUCE_MAX_N,
            .max_n_why = REDUCE_MAX_N_WHY,
            .variants = warp_sync_forms},
    .takes = REDUCE_TAKES_GRID_STRIDE,
    .block = 1024,
    .coarsen = 8,
    .check = reduce_grid_stride_check,
};
