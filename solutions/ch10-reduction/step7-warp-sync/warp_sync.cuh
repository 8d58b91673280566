/* warp_sync.cuh - ch10 step 7: step 6's warp reductions made correct under
 * independent thread scheduling, two ways (--variant): __syncwarp() between
 * the steps (syncwarp), or register shuffles (shfl); and the block level
 * built on each (warp_sync_block_reduce). Step 8 uses them too. */
#ifndef REDUCE_WARP_SYNC_CUH
#define REDUCE_WARP_SYNC_CUH

#include "reduce_device.cuh"

/* sumCommSingleWarp, first version, with __syncwarp() around every step: the
 * lanes wait for each other, and each step's writes are visible to the next
 * step's reads (so volatile is no longer needed). Within one step the lanes
 * that write (idx < offset) and the elements read (>= offset) do not overlap. */
__device__ reduce_t sumCommSingleWarpSync(reduce_t *shArr, reduce_kind kind)
{
    int idx = threadIdx.x % warpSize; /* the lane index in the warp */
    /* exercise: step 6's sumCommSingleWarp (five guarded steps with reduce_combine, offsets 16, 8, 4, 2, 1), with __syncwarp() before the first step, between the steps and before return shArr[0] */
    /* hint: the first __syncwarp() orders the caller's writes to shArr (other lanes' partials) before the first step reads them */
    /* hint: one __syncwarp() per step is enough: within a step the writers (idx < offset) and the elements read (idx + offset >= offset) never overlap */
    __syncwarp();
    if (idx < 16)
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 16]);
    __syncwarp();
    if (idx < 8)
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 8]);
    __syncwarp();
    if (idx < 4)
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 4]);
    __syncwarp();
    if (idx < 2)
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 2]);
    __syncwarp();
    if (idx == 0)
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 1]);
    __syncwarp();
    /* exercise stub: (void)idx; */
    /* end exercise */
    return shArr[0];
}

/* The same tree in registers: at each step every lane takes the value offset
 * lanes above it (__shfl_down_sync; the mask names the 32 lanes that take part
 * and wait for each other). Lane 0 ends with the warp's result. */
__device__ reduce_t warpReduceShfl(reduce_t val, reduce_kind kind)
{
    /* exercise: for offset = warpSize/2, halving while > 0: combine into val, with reduce_combine, the val of the lane offset above, read with __shfl_down_sync(0xffffffff, val, offset) */
    /* hint: __shfl_down_sync hands each lane the register of lane idx + offset as it was when all 32 lanes named in the mask 0xffffffff reached the call: no shared memory, and no other barrier */
    /* hint: only lane 0 ends with the warp's result; a lane whose idx + offset is past lane 31 gets its own val back and computes a value nobody reads */
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val = reduce_combine(kind, val, __shfl_down_sync(0xffffffff, val, offset));
    /* exercise stub: (void)kind; */
    /* end exercise */
    return val;
}

/* syncwarp: step 6's block level (the listing's), over sumCommSingleWarpSync:
 * each warp reduces its 32 partials in r, one __syncthreads(), warp 0
 * reduces the warps' results the same way and combines them into *out. */
static __device__ __forceinline__ void warp_sync_block_syncwarp(reduce_t sum, reduce_t *out, reduce_kind kind)
{
    __shared__ reduce_t r[REDUCE_MAX_BLOCK]; /* blockSize in the listing */
    int idx = threadIdx.x;
    r[idx] = sum;
    sumCommSingleWarpSync(&r[idx & ~(warpSize - 1)], kind); /* r + 32 x (this warp's index) */
    __syncthreads();
    if (idx < warpSize) { /* first warp only */
        r[idx] = idx * warpSize < blockDim.x ? r[idx * warpSize] : reduce_identity(kind);
        sumCommSingleWarpSync(r, kind);
        if (idx == 0)
            reduce_atomic(kind, out, r[0]);
    }
}

/* shfl: the block's tree in registers; only the warps' results go through
 * shared memory, behind one __syncthreads(). */
static __device__ __forceinline__ void warp_sync_block_shfl(reduce_t sum, reduce_t *out, reduce_kind kind)
{
    __shared__ reduce_t r[REDUCE_MAX_BLOCK / 32]; /* one result per warp */
    int idx = threadIdx.x;
    sum = warpReduceShfl(sum, kind);
    if (idx % warpSize == 0)
        r[idx / warpSize] = sum;
    __syncthreads();
    if (idx < warpSize) { /* first warp only */
        sum = idx * warpSize < blockDim.x ? r[idx] : reduce_identity(kind);
        sum = warpReduceShfl(sum, kind);
        if (idx == 0)
            reduce_atomic(kind, out, sum);
    }
}

/* The block's partials (one per thread, sum) into *out: version 1 the
 * listing's layout over __syncwarp(), version 2 shuffles (--variant). */
static __device__ __forceinline__ void warp_sync_block_reduce(reduce_t sum, reduce_t *out, reduce_kind kind,
                                                              int version)
{
    if (version == 2)
        warp_sync_block_shfl(sum, out, kind);
    else
        warp_sync_block_syncwarp(sum, out, kind);
}

/* The --variant names of steps 7 and 8, in the order of version (1, 2). */
static const char *const warp_sync_forms[] = {"syncwarp", "shfl", NULL};

#endif
