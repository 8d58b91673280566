/* Exercise: fill in each TODO; `make hint STEP=ch10-reduction/step7` gives graded hints. */
/* warp_sync.cuh - ch10 step 7: step 6's warp reductions made correct under
 * independent thread scheduling, two ways (--variant): __syncwarp() between
 * the steps (syncwarp), or register shuffles (shfl). Step 8 uses them too. */
#ifndef REDUCE_WARP_SYNC_CUH
#define REDUCE_WARP_SYNC_CUH

#include "listing.cuh" /* step 6's: the listing's kernel, launcher and block level */

/* sumCommSingleWarp, first version, with __syncwarp() around every step: the
 * lanes wait for each other, and each step's writes are visible to the next
 * step's reads (so volatile is no longer needed). Within one step the lanes
 * that write (idx < offset) and the elements read (>= offset) do not overlap. */
__device__ reduce_t sumCommSingleWarpSync(reduce_t *shArr, reduce_kind kind)
{
    int idx = threadIdx.x % warpSize; /* the lane index in the warp */
    /* TODO(1): step 6's sumCommSingleWarp (five guarded steps, offsets 16, 8, 4, 2, 1), with
       __syncwarp() before the first step, between the steps and before return shArr[0] */
    (void)idx;
    return shArr[0];
}

/* The same tree in registers: at each step every lane takes the value offset
 * lanes above it (__shfl_down_sync; the mask names the 32 lanes that take part
 * and wait for each other). Lane 0 ends with the warp's result. */
__device__ reduce_t warpReduceShfl(reduce_t val, reduce_kind kind)
{
    /* TODO(2): for offset = warpSize/2, halving while > 0: combine into val the val of the lane
       offset above, __shfl_down_sync(0xffffffff, val, offset) */
    (void)kind;
    return val;
}

/* syncwarp: the listing's block level (block_with_warps) runs over this. */
static __device__ __forceinline__ reduce_t warp_reduce(reduce_t *shArr, reduce_kind kind, int version)
{
    return sumCommSingleWarpSync(shArr, kind);
}

/* shfl: the block's tree in registers; only the warps' results go through
 * shared memory, behind one __syncthreads(). */
static __device__ __forceinline__ void block_with_shuffles(reduce_t sum, reduce_t *out, reduce_kind kind)
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

/* The block: version 1 the listing's layout over __syncwarp(), version 2 shuffles. */
static __device__ __forceinline__ void block_reduce(reduce_t sum, reduce_t *out, reduce_kind kind, int version)
{
    if (version == 2)
        block_with_shuffles(sum, out, kind);
    else
        block_with_warps(sum, out, kind, version);
}

#endif
