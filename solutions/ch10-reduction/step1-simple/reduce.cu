/* reduce.cu - ch10 step 1: the chapter's first kernel, a reduction tree in one
 * block of N/2 threads that sums N floats in place, the stride doubling from 1.
 * Figs 10.6, 10.7 (the sequential loop of Fig 10.2 is the CPU reference). */
#include "reduce_device.cuh"

/* Fig 10.6: thread t owns input[2t] (Fig 10.7); in the time step with stride s
 * the threads whose index is a multiple of s add the partial sum s elements to
 * their right into their own. counters: NULL, or ./run --analyze's. */
__global__ void SimpleSumReductionKernel(float *input, float *output, reduce_counters *counters)
{
    /* exercise: Fig 10.6 lines 02-08, the tree: each thread owns input[i], i = 2*threadIdx.x; for stride = 1, 2, 4, ... up to blockDim.x, the threads whose index is a multiple of stride add input[i + stride] into input[i] and then call reduce_analyze(counters, stride, &input[i], &input[i + stride], &input[i]) (what --analyze and --example count; it does nothing otherwise); a barrier ends every time step */
    /* hint: the last time step has stride == blockDim.x: thread 0 alone adds input[blockDim.x] into input[0], so the loop runs while stride <= blockDim.x (with < it stops one step short) */
    /* hint: the active threads are those with threadIdx.x % stride == 0: every thread runs the loop, the if picks the ones that add */
    /* hint: the barrier is __syncthreads(), at the end of the loop body and outside the if: every thread of the block must reach it, active or not, and the next time step reads what this one wrote */
    unsigned int i = 2 * threadIdx.x; /* line 02: the even positions, one owner each */
    for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
        if (threadIdx.x % stride == 0) { /* line 04: the active threads, ever further apart */
            input[i] += input[i + stride];
            reduce_analyze(counters, stride, &input[i], &input[i + stride], &input[i]); /* 2 reads, 1 write */
        }
        __syncthreads(); /* line 07: this time step's partial sums are written before the next reads them */
    }
    /* end exercise */
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
