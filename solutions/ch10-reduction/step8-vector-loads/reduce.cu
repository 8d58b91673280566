/* reduce.cu - ch10 step 8: each thread's loop reads 16 bytes (four elements)
 * per load and keeps two loads in flight, so the reduction reads at the copy's
 * speed; the warp and block reductions are step 7's (warp_sync.cuh).
 * Beyond the book (README.md). */
#include "listing.cuh"   /* step 6's: the launcher */
#include "warp_sync.cuh" /* step 7's: the warp reductions and the block levels */

/* Each thread's share of the input, four elements per load: int4 i of the
 * input is elements 4i..4i+3, and the threads of the grid stride over the
 * int4s as the listing's loop strides over elements; then the last
 * arraySize % 4 elements one by one. The input is cudaMalloc'd: 256-byte
 * aligned, so every int4 is 16-byte aligned. */
static __device__ __forceinline__ reduce_t vector_partial(const reduce_t *a, int64_t arraySize, reduce_kind kind)
{
    const int64_t stride = (int64_t)blockDim.x * gridDim.x;
    const int64_t first = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    reduce_t sum = reduce_identity(kind);
    /* exercise: the vector loop: for i = first, i < arraySize / 4, i += stride, load the int4 ((const int4 *)a)[i] and combine its four elements .x .y .z .w into sum with reduce_combine; then the tail: the elements from arraySize / 4 * 4 on, strided the same way, one at a time */
    /* hint: combine the four as (x op y) op (z op w): two independent combines first shorten the chain of dependent ones */
    /* hint: #pragma unroll 2 on the vector loop keeps two 16-byte loads in flight per thread; without it the loop waits for each load */
    /* hint: the tail is the last arraySize % 4 elements (at most 3), which no int4 covers: the listing's grid-stride loop again, over elements this time, starting where the int4s end */
    const int4 *a4 = (const int4 *)a;
#pragma unroll 2
    for (int64_t i = first; i < arraySize / 4; i += stride) {
        const int4 v = a4[i];
        const reduce_t pairs = reduce_combine(kind, reduce_combine(kind, v.x, v.y), reduce_combine(kind, v.z, v.w));
        sum = reduce_combine(kind, sum, pairs);
    }
    for (int64_t i = arraySize / 4 * 4 + first; i < arraySize; i += stride) /* the last arraySize % 4 */
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
