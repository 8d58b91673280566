/* reduce.cu - ch10 step 3: the shared-memory kernel (Fig 10.11). The first
 * iteration reads global memory once; the rest of the tree stays in shared
 * memory, and the input is left unchanged. */
#include "reduce.h"

/* Fig 10.11: thread t adds input[t] and input[t + blockDim.x] into input_s[t]
 * (the first iteration, Fig 10.10), then Fig 10.9's tree runs in input_s.
 * counters: NULL, or ./run --analyze's. */
__global__ void SharedMemorySumReductionKernel(float *input, float *output, reduce_counters *counters)
{
    __shared__ float input_s[REDUCE_MAX_BLOCK]; /* line 02: BLOCK_DIM in the book */
    unsigned int t = threadIdx.x;
    /* exercise: Fig 10.11 lines 04-10: input_s[t] = input[t] + input[t + blockDim.x] (then reduce_analyze(counters, blockDim.x, &input[t], &input[t + blockDim.x], NULL)); for stride = blockDim.x/2, halving while >= 1: __syncthreads() first, then if threadIdx.x < stride, input_s[t] += input_s[t + stride] and reduce_analyze(counters, stride, NULL, NULL, NULL) */
    input_s[t] = input[t] + input[t + blockDim.x]; /* line 04: the first iteration, from global memory */
    reduce_analyze(counters, blockDim.x, &input[t], &input[t + blockDim.x], NULL); /* --analyze: 2 reads */
    for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
        __syncthreads(); /* line 06: at the top, so the loads above are covered too */
        if (threadIdx.x < stride) {
            input_s[t] += input_s[t + stride];
            reduce_analyze(counters, stride, NULL, NULL, NULL); /* --analyze: shared memory, no global request */
        }
    }
    /* exercise stub: input_s[t] = 0.0f; */
    /* end exercise */
    if (threadIdx.x == 0) {
        *output = input_s[0];
        reduce_analyze_output(counters, NULL);
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
    SharedMemorySumReductionKernel<<<1, p->block>>>((float *)input_d, (float *)output_d, p->counters);
    CUDA_CHECK_LAUNCH();
    return NULL;
}
