/* Exercise made from solutions/ch10-reduction/step7-warp-sync/reduce.cu by `make exercises`: fill in each TODO. `make diff STEP=ch10-reduction/step7-warp-sync` compares. */
/* reduce.cu - ch10 step 7: step 6's warp reductions made correct under
 * independent thread scheduling, in two forms: __syncwarp() between the steps
 * (version 1), and register shuffles, __shfl_down_sync (version 2). */
#include "reduce.h"

/* sumCommSingleWarp, first version, with __syncwarp() around every step: the
 * lanes wait for each other, and each step's writes are visible to the next
 * step's reads (so volatile is no longer needed). Within one step the lanes
 * that write (idx < offset) and the elements read (>= offset) do not overlap. */
__device__ reduce_t sumCommSingleWarpSync(reduce_t *shArr, reduce_kind kind)
{
    int idx = threadIdx.x % warpSize; /* the lane index in the warp */
    /* TODO(1): step 6's sumCommSingleWarp with __syncwarp() before the first step (the caller's writes to shArr), between the steps and before return shArr[0] */
    (void)idx;
    return shArr[0];
}

/* The same tree in registers: at each step every lane takes the value offset
 * lanes above it (__shfl_down_sync; the mask names the 32 lanes that take part
 * and wait for each other). Lane 0 ends with the warp's result. */
__device__ reduce_t warpReduceShfl(reduce_t val, reduce_kind kind)
{
    /* TODO(2): for offset = warpSize/2, halving while > 0: val = reduce_combine(kind, val, __shfl_down_sync(0xffffffff, val, offset)) */
    (void)kind;
    return val;
}

/* Step 6's sumCommSingleBlockWithWarps with a warp reduction that is safe:
 * version 1 keeps the seed's shared-memory layout with sumCommSingleWarpSync,
 * version 2 reduces in registers and passes only the warps' results through
 * shared memory. */
__global__ void sumCommSingleBlockWithWarps(const reduce_t *a, reduce_t *out, int64_t arraySize, reduce_kind kind,
                                            int version)
{
    int idx = threadIdx.x;
    reduce_t sum = reduce_identity(kind);
    /* 16-byte loads (four elements at a time), then the last arraySize % 4 one by one:
     * four times the bytes in flight per thread, which the copy-speed tail needs */
    const int64_t stride = (int64_t)blockDim.x * gridDim.x;
    const int4 *a4 = (const int4 *)a; /* cudaMalloc'd: 256-byte aligned */
#pragma unroll 2
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + idx; i < arraySize / 4; i += stride) {
        const int4 v = a4[i];
        sum = reduce_combine(kind, sum, reduce_combine(kind, reduce_combine(kind, v.x, v.y), reduce_combine(kind, v.z, v.w)));
    }
    for (int64_t i = arraySize / 4 * 4 + (int64_t)blockIdx.x * blockDim.x + idx; i < arraySize; i += stride)
        sum = reduce_combine(kind, sum, a[i]);
    __shared__ reduce_t r[REDUCE_MAX_BLOCK]; /* blockSize in the seed */
    if (version == 2) {
        sum = warpReduceShfl(sum, kind);
        if (idx % warpSize == 0)
            r[idx / warpSize] = sum; /* one result per warp */
        __syncthreads();
        if (idx < warpSize) { /* first warp only */
            sum = idx * warpSize < blockDim.x ? r[idx] : reduce_identity(kind);
            sum = warpReduceShfl(sum, kind);
            if (idx == 0)
                reduce_atomic(kind, out, sum);
        }
        return;
    }
    r[idx] = sum;
    sumCommSingleWarpSync(&r[idx & ~(warpSize - 1)], kind);
    __syncthreads();
    if (idx < warpSize) { /* first warp only */
        r[idx] = idx * warpSize < blockDim.x ? r[idx * warpSize] : reduce_identity(kind);
        sumCommSingleWarpSync(r, kind);
        if (idx == 0)
            reduce_atomic(kind, out, r[0]);
    }
}

const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p)
{
    const char *why = reduce_multi_block_check(p, 1);
    if (why == NULL && p->variant != 0 && p->variant != 1 && p->variant != 2)
        why = "variant must be 1 (__syncwarp) or 2 (__shfl_down_sync)";
    if (why == NULL) /* as many blocks as step 5 would use: about 2 x coarsen elements per thread */
        why = reduce_set_grid(n, 2 * (int64_t)p->coarsen * p->block, p, 0);
    if (why != NULL)
        return why;
    const int64_t threads = (int64_t)p->grid * p->block;
    p->per_thread = threads > 0 ? (n + threads - 1) / threads : 0;
    reduce_start_output((reduce_t *)output_d, p->kind);
    if (n > 0)
        sumCommSingleBlockWithWarps<<<p->grid, p->block>>>((const reduce_t *)input_d, (reduce_t *)output_d, n, p->kind,
                                                            p->variant == 2 ? 2 : 1);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* Added by `make exercises`: ./run and the tests print this while the TODOs are undone. */
extern "C" const char *const lab_step_todos =
    "\n  Exercise: TODOs left in ch10-reduction/step7-warp-sync (`make diff STEP=ch10-reduction/step7-warp-sync` shows the solution):\n"
    "    ch10-reduction/step7-warp-sync/reduce.cu:14: TODO(1) step 6's sumCommSingleWarp with __syncwarp() before the first step (the caller's writes to shArr), between the steps and before return shArr[0]\n"
    "    ch10-reduction/step7-warp-sync/reduce.cu:24: TODO(2) for offset = warpSize/2, halving while > 0: val = reduce_combine(kind, val, __shfl_down_sync(0xffffffff, val, offset))\n";
