/* Exercise: fill in each TODO; `make hint STEP=ch10-reduction/step6` gives graded hints. */
/* reduce.cu - ch10 step 6: the block's tree becomes the warp-synchronous
 * listing: each warp reduces its 32 partials through volatile shared memory
 * with no barrier, trusting its lanes to run in lock-step, which Volta's
 * independent thread scheduling no longer promises (README.md).
 * The listing sumCommSingleWarp / sumCommSingleBlockWithWarps (not in the book). */
#include "listing.cuh"

/* What this step is, for ./run and the tests (reduce_step, common/reduce.h). */
const reduce_step reduce_step_info = {
    .block = 1024, .coarsen = 8, .n = 1 << 24, .check = reduce_grid_stride_check,
    .opts = REDUCE_WARP_SPEC(reduce_listing_variants,
        "Step 6: the warp-synchronous listing; --variant v1|v2, its two versions.\n")};

/* The listing's first version: each step halves the lanes whose result is
 * still needed. volatile: every read and write goes to shared memory, in
 * order, so other lanes see it (else the compiler may keep shArr[idx] in a
 * register). No barrier: the warp is assumed to run each line together. */
__device__ reduce_t sumCommSingleWarp(volatile reduce_t *shArr, reduce_kind kind)
{
    int idx = threadIdx.x % warpSize; /* the lane index in the warp */
    /* TODO(2): the listing's first version: for offset 16, 8, 4, 2, 1 (one line each), the lanes
       idx < offset do shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + offset]); no
       barrier: the warp is assumed to run in lock-step */
    (void)idx;
    return shArr[0];
}

/* The listing's second version: lanes 0-15 run all five steps without a test
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

/* A warp's 32 partials at shArr -> shArr[0]: --variant v1 or v2, the listing's two versions. */
static __device__ __forceinline__ reduce_t warp_reduce(reduce_t *shArr, reduce_kind kind, int version)
{
    return version == 2 ? sumCommSingleWarp16(shArr, kind) : sumCommSingleWarp(shArr, kind);
}

/* Each thread's share: the listing's loop. */
static __device__ __forceinline__ reduce_t thread_partial(const reduce_t *a, int64_t arraySize, reduce_kind kind)
{
    return grid_stride_partial(a, arraySize, kind);
}

/* The block: the listing's, over the warp_reduce above. */
static __device__ __forceinline__ void block_reduce(reduce_t sum, reduce_t *out, reduce_kind kind, int version)
{
    block_with_warps(sum, out, kind, version);
}
