/* reduce_device.cuh - device code two or more chapter 10 steps share: the
 * launch of the single-block steps, the atomic that combines a block's result
 * into *output and the identity written there first, and the --analyze hooks
 * of steps 1-3. Every step's kernel
 * file includes it (CUDA only); it brings the host side (reduce_host.h). */
#ifndef LAB_REDUCE_DEVICE_CUH
#define LAB_REDUCE_DEVICE_CUH

#include "reduce_host.h"

/* Steps 1-3 (section 10.3): the step's launch check, then its kernel on one
 * block of N/2 threads. NULL once launched, or why it cannot run. */
typedef void (*reduce_one_block_kernel)(float *input, float *output, reduce_counters *counters);
static inline const char *reduce_launch_one_block(reduce_one_block_kernel kernel, void *input_d, int64_t n,
                                                  void *output_d, reduce_params *p)
{
    const char *why = reduce_step_info.check(n, p);
    if (why == NULL) {
        kernel<<<1, p->block>>>((float *)input_d, (float *)output_d, p->counters);
        CUDA_CHECK_LAUNCH();
    }
    return why;
}

/* Combines value into *output atomically: atomicAdd/Max/Min where the GPU has
 * them; float max and min have none, so compare-and-swap until ours is in. */
static __device__ __forceinline__ void reduce_atomic(reduce_kind k, reduce_t *output, reduce_t value)
{
    if (k.type == REDUCE_INT && k.op == REDUCE_SUM)
        atomicAdd(output, value);
    else if (k.type == REDUCE_INT && k.op == REDUCE_MAX)
        atomicMax(output, value);
    else if (k.type == REDUCE_INT)
        atomicMin(output, value);
    else if (k.op == REDUCE_SUM)
        atomicAdd((float *)output, reduce_as_float(value));
    else {
        reduce_t old = *output, assumed;
        do {
            assumed = old;
            old = atomicCAS(output, assumed, reduce_combine(k, assumed, value));
        } while (old != assumed);
    }
}

static __global__ void reduce_identity_kernel(reduce_t *output, reduce_kind k)
{
    *output = reduce_identity(k);
}

/* Steps 4-8, before their kernel: the step's launch check (reduce_step_info,
 * reduce_host.c), then *output = the identity, into which every block
 * combines its result (the book assumes *output == 0 before the launch).
 * Returns the check's reason, NULL when the kernel may launch. */
static inline const char *reduce_start(int64_t n, void *output_d, reduce_params *p)
{
    const char *why = reduce_step_info.check(n, p);
    if (why == NULL) {
        reduce_identity_kernel<<<1, 1>>>((reduce_t *)output_d, p->kind);
        CUDA_CHECK_LAUNCH();
    }
    return why;
}

/* --analyze and --example (steps 1-3): an active thread of the time step with
 * this stride records its lane, the 128-byte segments of global memory its
 * accesses touch (a and b the elements it combines, into the one it writes;
 * shared memory makes no global request), and, for the first threads, which
 * elements those are. One not-taken branch when counters is NULL. */
static __device__ __forceinline__ void reduce_analyze(reduce_counters *counters, unsigned int stride, const void *a,
                                                      const void *b, const void *into)
{
    if (counters == NULL)
        return;
    const unsigned int slot = __ffs(stride) - 1, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const void *access[REDUCE_ACCESSES] = {a, b, into};
    atomicOr(&counters->lanes[slot][warp], 1u << lane);
    for (int k = 0; k < REDUCE_ACCESSES; k++) {
        const int global = __isGlobal(access[k]);
        const unsigned long long at = global ? (unsigned long long)access[k] - counters->base
                                             : (unsigned long long)__cvta_generic_to_shared(access[k]);
        if (global)
            atomicOr(&counters->segments[slot][k][warp], 1ull << (at / 128 % 64));
        if (threadIdx.x < REDUCE_EXAMPLE_THREADS) /* the element: 4 bytes each; shared ones negative */
            counters->element[slot][threadIdx.x][k] = global ? 1 + (int)(at / 4) : -1 - (int)(at / 4);
    }
}

/* --analyze: thread 0 writes *output (one request), after reading the
 * result from global memory (one more) or from shared memory. */
static __device__ __forceinline__ void reduce_analyze_output(reduce_counters *counters, const void *result)
{
    if (counters != NULL)
        atomicAdd(&counters->out_requests, __isGlobal(result) ? 2ull : 1ull);
}

#endif
