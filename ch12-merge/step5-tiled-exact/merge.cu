/* Exercise made from solutions/ch12-merge/step5-tiled-exact/merge.cu by `make exercises`: fill in each TODO. `make diff STEP=ch12-merge/step5-tiled-exact` compares. */
/* merge.cu - ch12 step 5: exact tiles, the exercise section 12.6 leaves to
 * the reader. Step 3 loads tile_size elements of A and of B but consumes only
 * tile_size of the 2*tile_size; here every tile boundary is co-ranked on the
 * global arrays first, so each tile loads exactly the elements it merges, and
 * stores exactly the outputs it makes: every element crosses global memory
 * once, in coalesced accesses. */
#include "co_rank.h"

/* One thread per tile boundary: the co-rank of output rank t*tile_size. */
__global__ void tile_co_rank_kernel(const int *A, int m, const int *B, int n, int tile_size, int ntiles, int *A_tile)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t <= ntiles)
        A_tile[t] = co_rank((int)min((int64_t)t * tile_size, (int64_t)(m + n)), A, m, B, n);
}

__global__ void merge_tiled_exact_kernel(const int *A, int m, const int *B, int n, int *C, int tile_size,
                                         int tiles_per_block, const int *A_tile)
{
    extern __shared__ int AB_S[]; /* the tile's A elements, then its B elements: tile_size in all */
    int *C_S = &AB_S[tile_size];  /* the merged tile, stored to C with coalesced writes */
    int *a_S = &C_S[tile_size];   /* each thread's co-rank, which is also the previous thread's end */
    const int ntiles = ceil_div(m + n, tile_size);
    const int t_end = min((blockIdx.x + 1) * tiles_per_block, ntiles);
    for (int t = blockIdx.x * tiles_per_block; t < t_end; t++) {
        /* the tile's output range and, from the precomputed co-ranks, its exact inputs */
        const int C_curr = t * tile_size;
        const int C_next = (int)min((int64_t)C_curr + tile_size, (int64_t)(m + n));
        const int A_curr = A_tile[t];
        const int A_next = A_tile[t + 1];
        const int B_curr = C_curr - A_curr;
        const int B_next = C_next - A_next;
        const int A_length = A_next - A_curr;
        const int B_length = B_next - B_curr;
        const int C_length = C_next - C_curr; /* == A_length + B_length */
        /* TODO(1): Section 12.6 exercise: load exactly this tile's inputs, A[A_curr, A_next) then B[B_curr, B_next), into AB_S with coalesced reads (C_length elements in all); then a barrier */

        /* as in Fig 12.13, but the tile's lengths are exact: nothing to count afterwards */
        const int *A_S = AB_S;
        const int *B_S = AB_S + A_length;
        const int per_thread = ceil_div(tile_size, blockDim.x);
        const int c_curr = min(threadIdx.x * per_thread, C_length);
        const int c_next = min((threadIdx.x + 1) * per_thread, C_length);
        const int a_curr = co_rank(c_curr, A_S, A_length, B_S, B_length);
        const int b_curr = c_curr - a_curr;
        a_S[threadIdx.x] = a_curr; /* one search per thread: its end is the next thread's start */
        __syncthreads();
        const int a_next = c_next == C_length ? A_length : a_S[threadIdx.x + 1];
        const int b_next = c_next - a_next;
        merge_sequential(A_S + a_curr, a_next - a_curr, B_S + b_curr, b_next - b_curr, C_S + c_curr);
        __syncthreads();
        for (int i = threadIdx.x; i < C_length; i += blockDim.x) /* coalesced: C_S to C */
            C[C_curr + i] = C_S[i];
        __syncthreads(); /* stored before the next tile overwrites AB_S, C_S and a_S */
    }
}

const char *merge_launch(const int *A_d, int m, const int *B_d, int n, int *C_d, const merge_params *p)
{
    int grid = 0;
    const int64_t total = (int64_t)m + n;
    const char *why = merge_check_params(p, total, &grid);
    if (why == NULL && p->tile < 1)
        why = "tile must hold at least 1 element";
    /* AB_S and C_S (the same 2 * tile as step 3) and a_S (block + 1) */
    const size_t shared = sizeof(int) * (2 * (size_t)p->tile + (size_t)p->block + 1);
    if (why == NULL)
        why = merge_fit_shared((const void *)merge_tiled_exact_kernel, shared);
    if (why != NULL || total == 0)
        return why;
    const int ntiles = ceil_div(total, p->tile);
    /* --coarsen sets the outputs per block (block * coarsen); --grid overrides it */
    const int tiles_per_block = p->grid > 0 ? ceil_div(ntiles, p->grid) : ceil_div((int64_t)p->block * p->coarsen, p->tile);
    int *A_tile = NULL; /* co-rank of every tile boundary */
    CUDA_CHECK(cudaMallocAsync((void **)&A_tile, sizeof(int) * ((size_t)ntiles + 1), 0));
    tile_co_rank_kernel<<<ceil_div((int64_t)ntiles + 1, 256), 256>>>(A_d, m, B_d, n, p->tile, ntiles, A_tile);
    CUDA_CHECK_LAUNCH();
    merge_tiled_exact_kernel<<<ceil_div(ntiles, tiles_per_block), p->block, shared>>>(A_d, m, B_d, n, C_d, p->tile,
                                                                                    tiles_per_block, A_tile);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaFreeAsync(A_tile, 0));
    return NULL;
}

/* Added by `make exercises`: ./run and the tests print this while the TODOs are undone. */
extern "C" const char *const lab_step_todos =
    "\n  Exercise: TODOs left in ch12-merge/step5-tiled-exact (`make diff STEP=ch12-merge/step5-tiled-exact` shows the solution):\n"
    "    ch12-merge/step5-tiled-exact/merge.cu:37: TODO(1) Section 12.6 exercise: load exactly this tile's inputs, A[A_curr, A_next) then B[B_curr, B_next), into AB_S with coalesced reads (C_length elements in all); then a barrier\n";
