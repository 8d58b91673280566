/* reduce.cu - ch10 step 1: the book's first reduction kernel (Fig 10.6). One
 * block of N/2 threads sums N floats in place; the stride doubles from 1. */
#include "reduce.h"

/* Fig 10.6: thread t owns input[2t] (Fig 10.7); in the iteration with stride s
 * the threads whose index is a multiple of s add the partial sum s elements
 * to their right into their own. counters: NULL, or ./run --analyze's. */
__global__ void SimpleSumReductionKernel(float *input, float *output, reduce_counters *counters)
{
    /* exercise: Fig 10.6 lines 02-08: i = 2*threadIdx.x; for stride = 1, 2, 4, ... while stride <= blockDim.x: if threadIdx.x % stride == 0, input[i] += input[i + stride] and call reduce_analyze(counters, stride, &input[i], &input[i + stride], &input[i]) for --analyze; __syncthreads() at the end of every iteration */
    unsigned int i = 2 * threadIdx.x; /* line 02: the even positions, one owner each */
    for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
        if (threadIdx.x % stride == 0) { /* line 04: the active threads, ever further apart */
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
    SimpleSumReductionKernel<<<1, p->block>>>((float *)input_d, (float *)output_d, p->counters);
    CUDA_CHECK_LAUNCH();
    return NULL;
}
