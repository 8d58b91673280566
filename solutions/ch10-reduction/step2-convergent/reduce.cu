/* reduce.cu - ch10 step 2: the convergent kernel (Fig 10.9). The owners are
 * the first threads, the stride halves from blockDim.x: active threads stay
 * contiguous, so whole warps drop out instead of diverging. */
#include "reduce.h"

/* Fig 10.9: thread t owns input[t] (Fig 10.8); in the iteration with stride s
 * the first s threads add the partial sum s elements to their right into
 * their own. counters: NULL, or ./run --analyze's. */
__global__ void ConvergentSumReductionKernel(float *input, float *output, reduce_counters *counters)
{
    /* exercise: Fig 10.9 lines 02-08: i = threadIdx.x; for stride = blockDim.x, halving while stride >= 1: if threadIdx.x < stride, input[i] += input[i + stride] and call reduce_analyze(counters, stride, &input[i], &input[i + stride], &input[i]) for --analyze; __syncthreads() at the end of every iteration */
    unsigned int i = threadIdx.x; /* line 02: adjacent owners, adjacent positions */
    for (unsigned int stride = blockDim.x; stride >= 1; stride /= 2) {
        if (threadIdx.x < stride) { /* line 04: the active threads are the first stride ones */
            input[i] += input[i + stride];
            reduce_analyze(counters, stride, &input[i], &input[i + stride], &input[i]); /* --analyze: 2 reads, 1 write */
        }
        __syncthreads(); /* line 07: this iteration's partial sums are written before the next reads them */
    }
    /* end exercise */
    if (threadIdx.x == 0) {
        *output = input[0];
        reduce_analyze_output(counters, &input[0]);
    }
}

const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p)
{
    const char *why = reduce_single_block_check(n, p);
    if (why != NULL)
        return why;
    p->block = (int)(n / 2); /* section 10.3: one block of N/2 threads */
    p->grid = 1;
    p->per_thread = 1;
    ConvergentSumReductionKernel<<<1, p->block>>>((float *)input_d, (float *)output_d, p->counters);
    CUDA_CHECK_LAUNCH();
    return NULL;
}
