/* reduce.cu - ch10 step 7: step 6's warp reductions made correct under
 * independent thread scheduling: __syncwarp() between the steps, or register
 * shuffles (warp_sync.cuh); the loop and the launcher are step 6's.
 * The warp-synchronous listing, fixed (not in the book). */
#include "listing.cuh" /* step 6's: the listing's loop and launcher */
#include "warp_sync.cuh"

/* Step 6's kernel with safe warp reductions: each thread's share of the
 * input (the listing's loop, one 4-byte load at a time), then the block level
 * of the form version names (1 syncwarp, 2 shfl). */
__global__ void WarpSyncReductionKernel(const reduce_t *a, reduce_t *out, int64_t arraySize, reduce_kind kind,
                                        int version)
{
    warp_sync_block_reduce(listing_grid_stride_partial(a, arraySize, kind), out, kind, version);
}

const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p)
{
    return listing_launch(WarpSyncReductionKernel, input_d, n, output_d, p);
}

/* What this step is, for ./run and the tests (reduce_step, reduce.h). */
const reduce_step reduce_step_info = {
    .lab = {.about = "Step 7: step 6 made safe; --variant syncwarp|shfl.\n" REDUCE_GRID_STRIDE_HELP REDUCE_ANY_N_HELP,
            .default_n = 1 << 24,
            .max_n = REDUCE_MAX_N,
            .max_n_why = REDUCE_MAX_N_WHY,
            .variants = warp_sync_forms},
    .takes = REDUCE_TAKES_GRID_STRIDE,
    .block = 1024,
    .coarsen = 8,
    .check = reduce_grid_stride_check,
};
