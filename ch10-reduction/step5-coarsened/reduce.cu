/* Exercise: fill in each TODO; `make hint STEP=ch10-reduction/step5` gives graded hints. */
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
    /* TODO(1): Fig 10.15 lines 06-09, for any N and any operator as in step 4: sum starts at
       input[i]; for tile = 1 .. COARSE_FACTOR*2 - 1, combine input[i + tile*blockDim.x] (index in
       int64_t) into sum with reduce_combine, reduce_identity(kind) standing in for an index >= N;
       then input_s[t] = sum */
    input_s[t] = reduce_identity(kind);
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
