/* Exercise: fill in each TODO; `make hint STEP=ch10-reduction/step4` gives graded hints. */
/* reduce.cu - ch10 step 4: any number of blocks, each reducing its own
 * segment of 2 x blockDim.x elements with step 3's tree, then adding its
 * result into *output with one atomic; for any N and any operator.
 * Figs 10.12, 10.13. */
#include "block_tree.cuh"

/* Fig 10.13 lines 03-06: block b's segment starts at 2*blockDim.x*b; thread t
 * combines its two elements of it into input_s[t]. Elements past N count as
 * the operator's identity (the book assumes whole segments: errata E10.5). */
static __device__ __forceinline__ void load_segment(const reduce_t *input, int64_t N, reduce_kind kind,
                                                    reduce_t *input_s)
{
    unsigned int t = threadIdx.x;
    /* TODO(1): Fig 10.13 lines 03-06, for any N and any operator: the block's segment starts at
       2*blockDim.x*blockIdx.x (in int64_t) and this thread's first element is i = segment + t;
       input_s[t] = reduce_combine(kind, input[i], input[i + blockDim.x]), with
       reduce_identity(kind) standing in for an element whose index is >= N */
    input_s[t] = reduce_identity(kind);
}

/* Fig 10.13, for any N and any operator: load the segment, run step 3's tree
 * (block_tree.cuh), and thread 0 combines the block's result into *output. */
__global__ void SegmentedReductionKernel(const reduce_t *input, reduce_t *output, int64_t N, reduce_kind kind)
{
    __shared__ reduce_t input_s[REDUCE_MAX_BLOCK]; /* line 02: BLOCK_DIM in the book */
    load_segment(input, N, kind, input_s);
    block_tree(input_s, kind); /* lines 07-12: step 3's tree */
    if (threadIdx.x == 0) {
        /* TODO(2): Fig 10.13 line 14, for any operator: combine the block's result input_s[0] into
           *output atomically, with reduce_atomic(kind, output, value) (reduce_device.cuh): every
           block does the same at the same time */
    }
}

const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p)
{
    const char *why = reduce_start(n, output_d, p); /* the launch check, then *output = the identity */
    if (why == NULL && n > 0)
        SegmentedReductionKernel<<<p->grid, p->block>>>((const reduce_t *)input_d, (reduce_t *)output_d, n, p->kind);
    CUDA_CHECK_LAUNCH();
    return why;
}

/* What this step is, for ./run and the tests (reduce_step, reduce.h). */
const reduce_step reduce_step_info = {
    .lab = {.about = "Step 4 (Fig 10.13): a segment of 2 x --block elements per block, --block a power\n"
                     "of two; a given --grid must cover N.\n" REDUCE_ANY_N_HELP,
            .default_n = 1 << 24,
            .max_n = REDUCE_MAX_N,
            .max_n_why = REDUCE_MAX_N_WHY},
    .takes = REDUCE_TAKES_SEGMENTS,
    .block = 1024,
    .coarsen = 1,
    .check = reduce_segment_check,
};
