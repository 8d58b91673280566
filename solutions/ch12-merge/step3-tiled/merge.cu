/* merge.cu - ch12 step 3: the tiled merge (Figs 12.11-12.13). Each block
 * co-ranks its output range once, then loads its inputs tile by tile into
 * shared memory with coalesced reads; threads co-rank and merge in there. */
#include "co_rank.h"

__global__ void merge_tiled_kernel(const int *A, int m, const int *B, int n, int *C, int tile_size, int printed)
{
    /* Part 1 (Fig 12.11): the block's output range and, by co-rank, its inputs */
    extern __shared__ int shareAB[];
    int *A_S = &shareAB[0];         /* tile_size elements of A */
    int *B_S = &shareAB[tile_size]; /* tile_size elements of B */
    /* Fig 12.11, fixed: a true ceiling (the printed ceil() sees a truncated quotient) */
    const int C_per_block = (printed & MERGE_PRINTED_CEIL) ? (m + n) / gridDim.x : ceil_div(m + n, gridDim.x);
    const int C_curr = (int)min((int64_t)blockIdx.x * C_per_block, (int64_t)(m + n));
    const int C_next = (int)min((int64_t)(blockIdx.x + 1) * C_per_block, (int64_t)(m + n));
    if (threadIdx.x == 0) {
        A_S[0] = co_rank(C_curr, A, m, B, n); /* one thread searches; shared memory broadcasts */
        A_S[1] = co_rank(C_next, A, m, B, n);
    }
    __syncthreads();
    const int A_curr = A_S[0];
    const int A_next = A_S[1];
    const int B_curr = C_curr - A_curr;
    const int B_next = C_next - A_next;
    __syncthreads(); /* all have read A_S[0..1] before the first tile overwrites them */

    /* Part 2 (Fig 12.12): load the next tile of A and B */
    int counter = 0;
    const int C_length = C_next - C_curr;
    const int A_length = A_next - A_curr;
    const int B_length = B_next - B_curr;
    const int total_iteration = (printed & MERGE_PRINTED_CEIL) ? C_length / tile_size : ceil_div(C_length, tile_size);
    int C_completed = 0;
    int A_consumed = 0;
    int B_consumed = 0;
    while (counter < total_iteration) {
        /* exercise: Fig 12.12: load A[A_curr+A_consumed ...] into A_S and B[B_curr+B_consumed ...] into B_S, blockDim.x at a time (coalesced), staying inside the tile and the block's remaining input; then a barrier */
        for (int i = 0; i < tile_size; i += blockDim.x) {
            if (i + threadIdx.x < A_length - A_consumed && i + threadIdx.x < tile_size)
                A_S[i + threadIdx.x] = A[A_curr + A_consumed + i + threadIdx.x];
        }
        for (int i = 0; i < tile_size; i += blockDim.x) {
            if (i + threadIdx.x < B_length - B_consumed && i + threadIdx.x < tile_size)
                B_S[i + threadIdx.x] = B[B_curr + B_consumed + i + threadIdx.x];
        }
        __syncthreads();
        /* end exercise */

        /* Part 3 (Fig 12.13): each thread merges its share of this tile */
        const int tile_out = min(tile_size, C_length - C_completed); /* outputs of this tile */
        const int A_S_length = min(tile_size, A_length - A_consumed); /* elements loaded in A_S */
        const int B_S_length = min(tile_size, B_length - B_consumed);
        const int per_thread = ceil_div(tile_size, blockDim.x); /* fixed: tile_size/blockDim.x drops outputs */
        /* exercise: Fig 12.13: this thread's outputs are [c_curr, c_next) of the tile (per_thread each, clamped to tile_out); co_rank them in A_S/B_S (lengths A_S_length, B_S_length) and merge_sequential into C + C_curr + C_completed + c_curr */
        const int c_curr = min(threadIdx.x * per_thread, tile_out);
        const int c_next = min((threadIdx.x + 1) * per_thread, tile_out);
        const int a_curr = co_rank(c_curr, A_S, A_S_length, B_S, B_S_length);
        const int b_curr = c_curr - a_curr;
        const int a_next = co_rank(c_next, A_S, A_S_length, B_S, B_S_length);
        const int b_next = c_next - a_next;
        merge_sequential(A_S + a_curr, a_next - a_curr, B_S + b_curr, b_next - b_curr, C + C_curr + C_completed + c_curr);
        /* exercise stub: (void)per_thread; */
        /* end exercise */
        counter++;
        /* Fig 12.13, fixed: count what this tile consumed from what was loaded; the
         * printed co_rank(tile_size, A_S, tile_size, B_S, tile_size) reads stale A_S/B_S */
        /* exercise: Fig 12.13: A_consumed grows by the co-rank of tile_out in the loaded tile (not tile_size in full tiles: see errata); then C_completed and B_consumed */
        if (printed & MERGE_PRINTED_CONSUMED)
            A_consumed += co_rank(tile_size, A_S, tile_size, B_S, tile_size);
        else
            A_consumed += co_rank(tile_out, A_S, A_S_length, B_S, B_S_length);
        C_completed += tile_out;
        B_consumed = C_completed - A_consumed;
        /* exercise stub: C_completed += tile_out; */
        /* end exercise */
        __syncthreads(); /* the tile is merged before the next load overwrites it */
    }
}

const char *merge_launch(const int *A_d, int m, const int *B_d, int n, int *C_d, const merge_params *p)
{
    int grid = 0;
    const char *why = merge_check_params(p, (int64_t)m + n, &grid);
    if (why == NULL && p->tile < 2)
        why = "tile must hold at least 2 elements (Part 1 passes two co-ranks through A_S)";
    const size_t shared = 2 * sizeof(int) * (size_t)p->tile; /* A_S and B_S */
    if (why == NULL)
        why = merge_fit_shared((const void *)merge_tiled_kernel, shared);
    if (why != NULL || (int64_t)m + n == 0)
        return why;
    merge_tiled_kernel<<<grid, p->block, shared>>>(A_d, m, B_d, n, C_d, p->tile, p->printed);
    CUDA_CHECK_LAUNCH();
    return NULL;
}
