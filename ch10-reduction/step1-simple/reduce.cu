/* Exercise: fill in each TODO; `make hint STEP=ch10-reduction/step1` gives graded hints. */
/* reduce.cu - ch10 step 1: the chapter's first kernel, a reduction tree in one
 * block of N/2 threads that sums N floats in place, the stride doubling from 1.
 * Figs 10.6, 10.7 (the sequential loop of Fig 10.2 is the CPU reference). */
#include "reduce_device.cuh"

/* Fig 10.6: thread t owns input[2t] (Fig 10.7); in the time step with stride s
 * the threads whose index is a multiple of s add the partial sum s elements to
 * their right into their own. counters: NULL, or ./run --analyze's. */
__global__ void SimpleSumReductionKernel(float *input, float *output, reduce_counters *counters)
{
    /* TODO(1): Fig 10.6 lines 02-08, the tree: each thread owns input[i], i = 2*threadIdx.x; for
       stride = 1, 2, 4, ... up to blockDim.x, the threads whose index is a multiple of stride add
       input[i + stride] into input[i] and then call reduce_analyze(counters, stride, &input[i],
       &input[i + stride], &input[i]) (what --analyze and --example count; it does nothing
       otherwise); a barrier ends every time step */
    if (threadIdx.x == 0) {
        *output = input[0];
        reduce_analyze_output(counters, &input[0]);
    }
}

const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p)
{
    return reduce_launch_one_block(SimpleSumReductionKernel, input_d, n, output_d, p);
}

/* What this step is, for ./run and the tests (reduce_step, reduce.h). */
const reduce_step reduce_step_info = {
    .lab = {.about =
                "Step 1 runs Fig 10.6 as printed (it sums in place); --example draws Fig 10.7.\n" REDUCE_ONE_BLOCK_HELP,
            .default_n = 2 * REDUCE_MAX_BLOCK,
            .max_n = 2 * REDUCE_MAX_BLOCK,
            .max_n_why = REDUCE_ONE_BLOCK_MAX_N_WHY},
    .takes = REDUCE_TAKES_ONE_BLOCK,
    .block = REDUCE_MAX_BLOCK,
    .coarsen = 1,
    .one_block = 1,
    .check = reduce_one_block_check,
    .book = &reduce_fig_10_6,
};
