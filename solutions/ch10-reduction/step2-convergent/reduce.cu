/* reduce.cu - ch10 step 2: the owners sit side by side and the stride halves
 * from blockDim.x, so the active threads stay contiguous and whole warps drop
 * out instead of diverging. Figs 10.8, 10.9. */
#include "reduce_device.cuh"

/* Fig 10.9: thread t owns input[t] (Fig 10.8); in the time step with stride s
 * the first s threads add the partial sum s elements to their right into
 * their own. counters: NULL, or ./run --analyze's. */
__global__ void ConvergentSumReductionKernel(float *input, float *output, reduce_counters *counters)
{
    /* exercise: Fig 10.9 lines 02-08, the tree: thread t owns input[i], i = threadIdx.x; for stride = blockDim.x, halving down to 1, the first stride threads add input[i + stride] into input[i] and then call reduce_analyze(counters, stride, &input[i], &input[i + stride], &input[i]) (what --analyze and --example count); a barrier ends every time step */
    /* hint: three lines differ from step 1's loop: where a thread's element is, where the stride starts and which way it goes, and which threads are active; the add, the reduce_analyze call and the barrier stay as they are */
    /* hint: the loop runs while stride >= 1, halving; the active threads are threadIdx.x < stride, side by side, so whole warps fall idle together; __syncthreads() stays after the if, inside the loop */
    unsigned int i = threadIdx.x; /* line 02: adjacent owners, adjacent positions */
    for (unsigned int stride = blockDim.x; stride >= 1; stride /= 2) {
        if (threadIdx.x < stride) { /* line 04: the active threads are the first stride ones */
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
    return reduce_launch_one_block(ConvergentSumReductionKernel, input_d, n, output_d, p);
}

/* What this step is, for ./run and the tests (reduce_step, reduce.h). */
const reduce_step reduce_step_info = {
    .lab = {.about =
                "Step 2 runs Fig 10.9 as printed (it sums in place); --example draws Fig 10.8.\n" REDUCE_ONE_BLOCK_HELP,
            .default_n = 2 * REDUCE_MAX_BLOCK,
            .max_n = 2 * REDUCE_MAX_BLOCK,
            .max_n_why = REDUCE_ONE_BLOCK_MAX_N_WHY},
    .takes = REDUCE_TAKES_ONE_BLOCK,
    .block = REDUCE_MAX_BLOCK,
    .coarsen = 1,
    .one_block = 1,
    .check = reduce_one_block_check,
    .book = &reduce_fig_10_9,
};
