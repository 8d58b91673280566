/* reduce.cu - ch10 step 3: each thread adds its two elements while loading,
 * and the rest of step 2's tree runs in shared memory, so global memory sees
 * each element once and the input is left unchanged. Figs 10.10, 10.11. */
#include "reduce_device.cuh"

/* Fig 10.11: thread t adds input[t] and input[t + blockDim.x] into input_s[t]
 * (the first time step, Fig 10.10), then Fig 10.9's tree runs in input_s.
 * counters: NULL, or ./run --analyze's. */
__global__ void SharedMemorySumReductionKernel(float *input, float *output, reduce_counters *counters)
{
    __shared__ float input_s[REDUCE_MAX_BLOCK]; /* line 02: BLOCK_DIM in the book (errata E10.4) */
    unsigned int t = threadIdx.x;
    /* exercise: Fig 10.11 lines 04-10: the first time step while loading, input_s[t] = input[t] + input[t + blockDim.x], then reduce_analyze(counters, blockDim.x, &input[t], &input[t + blockDim.x], &input_s[t]); then step 2's tree in input_s from stride blockDim.x/2, the first stride threads adding input_s[t + stride] into input_s[t] and calling reduce_analyze(counters, stride, &input_s[t], &input_s[t + stride], &input_s[t]) (what --analyze and --example count), with the barrier at the top of the loop */
    /* hint: the load is the first time step, the one with stride blockDim.x: a thread adds two elements blockDim.x apart, so each of a warp's two loads is one coalesced request; the loop then halves the stride while stride >= 1 */
    /* hint: a barrier at the top of the loop body does two jobs: before the first time step it makes every thread's loaded input_s[t] visible, before each later one the previous step's sums; global memory is read once and never written */
    /* hint: in the loop body, in order: __syncthreads(), then if (t < stride) the add into input_s[t] and its reduce_analyze call; no barrier is needed after the loop: thread 0 then reads input_s[0], which it wrote itself */
    input_s[t] = input[t] + input[t + blockDim.x]; /* line 04: the first time step, from global memory */
    reduce_analyze(counters, blockDim.x, &input[t], &input[t + blockDim.x], &input_s[t]); /* 2 global reads */
    for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads(); /* line 06: at the top, so the loads above are covered too */
        if (threadIdx.x < stride) {
            input_s[t] += input_s[t + stride];
            reduce_analyze(counters, stride, &input_s[t], &input_s[t + stride], &input_s[t]); /* shared: no request */
        }
    }
    /* exercise stub: input_s[t] = 0.0f; */
    /* end exercise */
    if (threadIdx.x == 0) {
        *output = input_s[0];
        reduce_analyze_output(counters, &input_s[0]);
    }
}

const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p)
{
    return reduce_launch_one_block(SharedMemorySumReductionKernel, input_d, n, output_d, p);
}

/* What this step is, for ./run and the tests (reduce_step, reduce.h). */
const reduce_step reduce_step_info = {
    .lab = {.about =
                "Step 3 runs Fig 10.11 (blockDim.x for BLOCK_DIM); --example draws Fig 10.10.\n" REDUCE_ONE_BLOCK_HELP,
            .default_n = 2 * REDUCE_MAX_BLOCK,
            .max_n = 2 * REDUCE_MAX_BLOCK,
            .max_n_why = REDUCE_ONE_BLOCK_MAX_N_WHY},
    .takes = REDUCE_TAKES_ONE_BLOCK,
    .block = REDUCE_MAX_BLOCK,
    .coarsen = 1,
    .one_block = 1,
    .check = reduce_one_block_check,
    .book = &reduce_fig_10_11,
};
