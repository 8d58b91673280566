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
    /* exercise: Fig 10.13 lines 03-06, for any N and any operator: the block's segment starts at 2*blockDim.x*blockIdx.x (in int64_t) and this thread's first element is i = segment + t; input_s[t] = reduce_combine(kind, input[i], input[i + blockDim.x]), with reduce_identity(kind) standing in for an element whose index is >= N */
    /* hint: why int64_t: 2*blockDim.x*blockIdx.x in unsigned int wraps once N passes 2^32 elements (16 GiB of floats, which fits on a large GPU) */
    /* hint: why the identity and not 0: reduce_combine(kind, reduce_identity(kind), x) is x for every operator, while a max of negative numbers padded with 0 comes out 0 */
    /* hint: two loads, each behind its own test against N (i < N, and i + blockDim.x < N), then one reduce_combine of the two into input_s[t] */
    int64_t segment = 2 * (int64_t)blockDim.x * blockIdx.x; /* line 03: where this block's elements start */
    int64_t i = segment + t;                                /* line 04: this thread's first element */
    reduce_t first = i < N ? input[i] : reduce_identity(kind);
    reduce_t second = i + blockDim.x < N ? input[i + blockDim.x] : reduce_identity(kind);
    input_s[t] = reduce_combine(kind, first, second); /* line 06 */
    /* exercise stub: input_s[t] = reduce_identity(kind); */
    /* end exercise */
}

/* Fig 10.13, for any N and any operator: load the segment, run step 3's tree
 * (block_tree.cuh), and thread 0 combines the block's result into *output. */
__global__ void SegmentedReductionKernel(const reduce_t *input, reduce_t *output, int64_t N, reduce_kind kind)
{
    __shared__ reduce_t input_s[REDUCE_MAX_BLOCK]; /* line 02: BLOCK_DIM in the book */
    load_segment(input, N, kind, input_s);
    block_tree(input_s, kind); /* lines 07-12: step 3's tree */
    if (threadIdx.x == 0) {
        /* exercise: Fig 10.13 line 14, for any operator: combine the block's result input_s[0] into *output atomically, with reduce_atomic(kind, output, value) (reduce_device.cuh): every block does the same at the same time */
        /* hint: the launcher has set *output to the operator's identity before the kernel (the book assumes 0), so every block can combine its result into it, in whatever order the blocks come */
        /* hint: *output = reduce_combine(kind, *output, x) reads and writes in two steps, and two blocks between them lose a result; reduce_atomic is one indivisible read-modify-write (atomicAdd, atomicMax, atomicMin, or a compare-and-swap loop for float max and min) */
        reduce_atomic(kind, output, input_s[0]); /* one atomic per block: blocks cannot synchronize */
        /* end exercise */
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
