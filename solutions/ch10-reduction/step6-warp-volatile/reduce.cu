/* reduce.cu - ch10 step 6: the warp-synchronous reductions of the single-warp
 * seed, as written: sumCommSingleWarp (both versions) and
 * sumCommSingleBlockWithWarps. No barrier inside a warp: they assume its 32
 * lanes run each line together, which Volta's independent thread scheduling
 * no longer promises (README.md). compute-sanitizer racecheck reports them. */
#include "reduce.h"

/* The seed's first version: each step halves the lanes whose result is still
 * needed. volatile: every read and write goes to shared memory, in order, so
 * other lanes see it (else the compiler may keep shArr[idx] in a register). */
__device__ reduce_t sumCommSingleWarp(volatile reduce_t *shArr, reduce_kind kind)
{
    int idx = threadIdx.x % warpSize; /* the lane index in the warp */
    /* exercise: single-warp seed, first version: for offset 16, 8, 4, 2, 1, the lanes idx < offset do shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + offset]) (no barrier: the warp is assumed to run in lock-step); return shArr[0] */
    if (idx < 16) shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 16]);
    if (idx < 8) shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 8]);
    if (idx < 4) shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 4]);
    if (idx < 2) shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 2]);
    if (idx == 0) shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 1]);
    /* exercise stub: (void)idx; */
    /* end exercise */
    return shArr[0];
}

/* The seed's second version: lanes 0-15 run all five steps without a test
 * each; the extra lanes compute garbage in shArr[1..31] nobody reads. */
__device__ reduce_t sumCommSingleWarp16(volatile reduce_t *shArr, reduce_kind kind)
{
    int idx = threadIdx.x % warpSize; /* the lane index in the warp */
    if (idx < 16) {
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 16]);
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 8]);
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 4]);
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 2]);
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 1]);
    }
    return shArr[0];
}

/* The seed's block reduction with warps, over a grid: each thread combines a
 * strided share of the input (the seed's loop, stride = all the grid's
 * threads), each warp reduces its 32 partials, warp 0 reduces the warps'
 * results, and thread 0 combines the block's into *out atomically (the seed,
 * one block, writes *out = r[0]). version: 1 or 2, sumCommSingleWarp's. */
__global__ void sumCommSingleBlockWithWarps(const reduce_t *a, reduce_t *out, int64_t arraySize, reduce_kind kind,
                                            int version)
{
    int idx = threadIdx.x;
    reduce_t sum = reduce_identity(kind);
#pragma unroll 4 /* several loads in flight per thread, not one at a time */
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + idx; i < arraySize; i += (int64_t)blockDim.x * gridDim.x)
        sum = reduce_combine(kind, sum, a[i]);
    __shared__ reduce_t r[REDUCE_MAX_BLOCK]; /* blockSize in the seed */
    r[idx] = sum;
    /* &r[idx & ~(warpSize-1)] is r + 32 x (this warp's index): 32 elements per warp */
    if (version == 2)
        sumCommSingleWarp16(&r[idx & ~(warpSize - 1)], kind);
    else
        sumCommSingleWarp(&r[idx & ~(warpSize - 1)], kind);
    __syncthreads();
    /* exercise: single-warp seed, sumCommSingleBlockWithWarps: in the first warp only (idx < warpSize), r[idx] = warp idx's result r[idx*warpSize] (the identity where idx*warpSize >= blockDim.x); reduce r with the same warp function; thread 0 then reduce_atomic(kind, out, r[0]) */
    if (idx < warpSize) { /* first warp only */
        r[idx] = idx * warpSize < blockDim.x ? r[idx * warpSize] : reduce_identity(kind);
        if (version == 2)
            sumCommSingleWarp16(r, kind);
        else
            sumCommSingleWarp(r, kind);
        if (idx == 0)
            reduce_atomic(kind, out, r[0]);
    }
    /* end exercise */
}

const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p)
{
    const char *why = reduce_multi_block_check(p, 1);
    if (why == NULL && p->variant != 0 && p->variant != 1 && p->variant != 2)
        why = "variant must be 1 or 2 (sumCommSingleWarp's first or second version)";
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
