/* Exercise made from solutions/ch10-reduction/step1-simple/reduce.cu by `make exercises`: fill in each TODO. `make diff STEP=ch10-reduction/step1-simple` compares. */
/* reduce.cu - ch10 step 1: the book's first reduction kernel (Fig 10.6). One
 * block of N/2 threads sums N floats in place; the stride doubles from 1. */
#include "reduce.h"

/* Fig 10.6: thread t owns input[2t] (Fig 10.7); in the iteration with stride s
 * the threads whose index is a multiple of s add the partial sum s elements
 * to their right into their own. counters: NULL, or ./run --analyze's. */
__global__ void SimpleSumReductionKernel(float *input, float *output, reduce_counters *counters)
{
    /* TODO(1): Fig 10.6 lines 02-08: i = 2*threadIdx.x; for stride = 1, 2, 4, ... while stride <= blockDim.x: if threadIdx.x % stride == 0, input[i] += input[i + stride] and call reduce_analyze(counters, stride, &input[i], &input[i + stride], &input[i]) for --analyze; __syncthreads() at the end of every iteration */
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

/* Added by `make exercises`: ./run and the tests print this while the TODOs are undone. */
extern "C" const char *const lab_step_todos =
    "\n  Exercise: TODOs left in ch10-reduction/step1-simple (`make diff STEP=ch10-reduction/step1-simple` shows the solution):\n"
    "    ch10-reduction/step1-simple/reduce.cu:11: TODO(1) Fig 10.6 lines 02-08: i = 2*threadIdx.x; for stride = 1, 2, 4, ... while stride <= blockDim.x: if threadIdx.x % stride == 0, input[i] += input[i + stride] and call reduce_analyze(counters, stride, &input[i], &input[i + stride], &input[i]) for --analyze; __syncthreads() at the end of every iteration\n";
