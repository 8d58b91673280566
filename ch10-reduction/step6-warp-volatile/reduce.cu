/* Exercise: fill in each TODO; `make hint STEP=ch10-reduction/step6` gives graded hints. */
/* reduce.cu - ch10 step 6: the block's tree becomes the warp-synchronous
 * listing: each warp reduces its 32 partials through volatile shared memory
 * with no barrier, trusting its lanes to run in lock-step, which Volta's
 * independent thread scheduling no longer promises (README.md).
 * The listing sumCommSingleWarp / sumCommSingleBlockWithWarps (not in the book). */
#include "listing.cuh"

/* The listing's first version: each step halves the lanes whose result is
 * still needed. volatile: every read and write goes to shared memory, in
 * order, so other lanes see it (else the compiler may keep shArr[idx] in a
 * register). No barrier: the warp is assumed to run each line together. */
__device__ reduce_t sumCommSingleWarp(volatile reduce_t *shArr, reduce_kind kind)
{
    int idx = threadIdx.x % warpSize; /* the lane index in the warp */
    if (idx < 16)
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 16]);
    if (idx < 8)
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 8]);
    if (idx < 4)
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 4]);
    if (idx < 2)
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 2]);
    if (idx == 0)
        shArr[idx] = reduce_combine(kind, shArr[idx], shArr[idx + 1]);
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

/* The listing's kernel, over a grid: each thread combines its share of the
 * input (the listing's loop), each warp reduces its 32 partials in r with
 * warp_reduce, one __syncthreads(), warp 0 reduces the warps' results the
 * same way, and thread 0 combines the block's into *out atomically (the
 * listing, one block, writes *out = r[0]). version: --variant, 1 or 2. */
__global__ void sumCommSingleBlockWithWarps(const reduce_t *a, reduce_t *out, int64_t arraySize, reduce_kind kind,
                                            int version)
{
    __shared__ reduce_t r[REDUCE_MAX_BLOCK]; /* blockSize in the listing */
    int idx = threadIdx.x;
    r[idx] = listing_grid_stride_partial(a, arraySize, kind);
    warp_reduce(&r[idx & ~(warpSize - 1)], kind, version); /* r + 32 x (this warp's index): 32 elements per warp */
    __syncthreads();
    /* TODO(1): the listing's second level, in the first warp only (idx < warpSize): r[idx] = warp
       idx's result, r[idx*warpSize], or reduce_identity(kind) where the block has no warp idx
       (idx*warpSize >= blockDim.x); reduce r with warp_reduce(r, kind, version); thread 0 then
       combines r[0] into *out with reduce_atomic(kind, out, r[0]) */
}

const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p)
{
    return listing_launch(sumCommSingleBlockWithWarps, input_d, n, output_d, p);
}

/* The --variant names: the listing's two versions of the warp's reduction (version 1, 2). */
static const char *const listing_versions[] = {"v1", "v2", NULL};

/* What this step is, for ./run and the tests (reduce_step, reduce.h). */
const reduce_step reduce_step_info = {
    .lab = {.about =
                "Step 6: the warp-synchronous listing; --variant v1|v2, its two versions.\n" REDUCE_GRID_STRIDE_HELP
                    REDUCE_ANY_N_HELP,
            .default_n = 1 << 24,
            .max_n = REDUCE_MAX_N,
            .max_n_why = REDUCE_MAX_N_WHY,
            .variants = listing_versions},
    .takes = REDUCE_TAKES_GRID_STRIDE,
    .block = 1024,
    .coarsen = 8,
    .check = reduce_grid_stride_check,
};
