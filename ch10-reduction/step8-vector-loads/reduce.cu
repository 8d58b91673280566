/* Exercise: fill in each TODO; `make hint STEP=ch10-reduction/step8` gives graded hints. */
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
    /* TODO(1): the vector loop, two int4s a round: for i = first, while i + stride < n4, i += 2 *
       stride, load a4[i] and a4[i + stride] first, then combine each into sum with combine4; then
       the int4 left over when i < n4; then the tail: the elements from arraySize / 4 * 4 on,
       strided the same way, one at a time */
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
