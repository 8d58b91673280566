/* reduce.cu - ch10 step 5: each thread first combines 2 x COARSE_FACTOR
 * elements of a segment COARSE_FACTOR times longer, alone, with no barrier and
 * no shared memory; then step 4's tree and atomic. Figs 10.14, 10.15. */
#include "block_tree.cuh" /* step 4's */

/* Fig 10.15 lines 03-10: the segment of block b starts at
 * COARSE_FACTOR*2*blockDim.x*b; thread t combines its 2*COARSE_FACTOR elements,
 * blockDim.x apart, in a register, then stores the partial in input_s[t].
 * Elements past N count as the operator's identity (errata E10.5). */
static __device__ __forceinline__ void coarsened_load(const reduce_t *input, int64_t N, reduce_kind kind,
                                                      unsigned int COARSE_FACTOR, reduce_t *input_s)
{
    unsigned int t = threadIdx.x;
    int64_t segment = (int64_t)COARSE_FACTOR * 2 * blockDim.x * blockIdx.x; /* line 03: COARSE_FACTOR x longer */
    int64_t i = segment + t;
    /* exercise: Fig 10.15 lines 06-09, for any N and any operator as in step 4: sum starts at input[i]; for tile = 1 .. COARSE_FACTOR*2 - 1, combine input[i + tile*blockDim.x] (index in int64_t) into sum with reduce_combine, reduce_identity(kind) standing in for an index >= N; then input_s[t] = sum */
    /* hint: a thread's elements are blockDim.x apart, not side by side: at each tile the warp's 32 threads read 32 neighbouring elements, one coalesced request */
    /* hint: sum lives in a register: no barrier and no shared memory until the one store into input_s[t], which step 4's block_tree (its barrier at the top) then reads */
    /* hint: the loop starts at tile = 1 (tile 0 is the sum's first value) and runs while tile < COARSE_FACTOR * 2; #pragma unroll 4 above it keeps several loads in flight */
    reduce_t sum = i < N ? input[i] : reduce_identity(kind); /* line 06 */
#pragma unroll 4                                             /* several loads in flight per thread, not one at a time */
    for (unsigned int tile = 1; tile < COARSE_FACTOR * 2; ++tile) { /* the coarsening loop: all threads active */
        int64_t index = i + (int64_t)tile * blockDim.x; /* blockDim.x apart: each warp's load is coalesced */
        sum = reduce_combine(kind, sum, index < N ? input[index] : reduce_identity(kind));
    }
    input_s[t] = sum; /* line 10 */
    /* exercise stub: input_s[t] = reduce_identity(kind); */
    /* end exercise */
}

/* Fig 10.15, for any N and any operator: the coarsened load, then step 4's
 * tree (block_tree.cuh) and atomic over the block's partials. */
__global__ void CoarsenedReductionKernel(const reduce_t *input, reduce_t *output, int64_t N, reduce_kind kind,
                                         unsigned int COARSE_FACTOR)
{
    __shared__ reduce_t input_s[REDUCE_MAX_BLOCK]; /* line 02: BLOCK_DIM in the book */
    coarsened_load(input, N, kind, COARSE_FACTOR, input_s);
    block_tree(input_s, kind); /* lines 11-16: step 3's tree */
    if (threadIdx.x == 0)
        reduce_atomic(kind, output, input_s[0]); /* line 18: one atomic per block */
}

const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p)
{
    const char *why = reduce_start(n, output_d, p); /* the launch check, then *output = the identity */
    if (why == NULL && n > 0)
        CoarsenedReductionKernel<<<p->grid, p->block>>>((const reduce_t *)input_d, (reduce_t *)output_d, n, p->kind,
                                                        (unsigned int)p->coarsen);
    CUDA_CHECK_LAUNCH();
    return why;
}

/* What this step is, for ./run and the tests (reduce_step, reduce.h). */
const reduce_step reduce_step_info = {
    .lab =
        {.about =
             "Step 5 (Fig 10.15): --coarsen is COARSE_FACTOR; segments of 2 x coarsen x --block.\n" REDUCE_ANY_N_HELP,
         .default_n = 1 << 24,
         .max_n = REDUCE_MAX_N,
         .max_n_why = REDUCE_MAX_N_WHY},
    .takes = REDUCE_TAKES_SEGMENTS | REDUCE_TAKES_COARSEN,
    .block = 1024,
    .coarsen = 8,
    .check = reduce_coarsened_check,
};
