/* Exercise: fill in each TODO; `make hint STEP=ch10-reduction/step7` gives graded hints. */
/* reduce.cu - ch10 step 7: step 6's warp reductions made correct under
 * independent thread scheduling: __syncwarp() between the steps, or register
 * shuffles (warp_sync.cuh); the kernel and its loads are step 6's.
 * The warp-synchronous listing, fixed (not in the book). */
#include "warp_sync.cuh"

/* What this step is, for ./run and the tests (reduce_step, common/reduce.h). */
const reduce_step reduce_step_info = {
    .block = 1024, .coarsen = 8, .n = 1 << 24, .check = reduce_grid_stride_check,
    .opts = REDUCE_WARP_SPEC(reduce_warp_sync_variants, "Step 7: step 6 made safe; --variant syncwarp|shfl.\n")};

/* Each thread's share: the listing's loop, one 4-byte load at a time, as in
 * step 6 (step 8 reads 16 bytes per load). */
static __device__ __forceinline__ reduce_t thread_partial(const reduce_t *a, int64_t arraySize, reduce_kind kind)
{
    return grid_stride_partial(a, arraySize, kind);
}
