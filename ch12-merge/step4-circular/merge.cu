/* Exercise made from solutions/ch12-merge/step4-circular/merge.cu by `make exercises`: fill in each TODO. `make diff STEP=ch12-merge/step4-circular` compares. */
/* merge.cu - ch12 step 4: the circular-buffer merge (Figs 12.16-12.20).
 * Step 3 reloads a whole tile each iteration although only what was consumed
 * is new; here A_S and B_S are circular buffers and each iteration loads only
 * as many elements as the last one consumed. */
#include "circular.h"
#include "co_rank.h"

__global__ void merge_circular_buffer_kernel(const int *A, int m, const int *B, int n, int *C, int tile_size, int printed)
{
    /* Part 1: as in Fig 12.11 (step 3) */
    extern __shared__ int shareAB[];
    int *A_S = &shareAB[0];
    int *B_S = &shareAB[tile_size];
    const int C_per_block = (printed & MERGE_PRINTED_CEIL) ? (m + n) / gridDim.x : ceil_div(m + n, gridDim.x);
    const int C_curr = (int)min((int64_t)blockIdx.x * C_per_block, (int64_t)(m + n));
    const int C_next = (int)min((int64_t)(blockIdx.x + 1) * C_per_block, (int64_t)(m + n));
    if (threadIdx.x == 0) {
        A_S[0] = co_rank(C_curr, A, m, B, n);
        A_S[1] = co_rank(C_next, A, m, B, n);
    }
    __syncthreads();
    const int A_curr = A_S[0];
    const int A_next = A_S[1];
    const int B_curr = C_curr - A_curr;
    const int B_next = C_next - A_next;
    __syncthreads();

    /* Part 2 (Fig 12.16): refill only the consumed part of each circular buffer */
    int counter = 0;
    const int C_length = C_next - C_curr;
    const int A_length = A_next - A_curr;
    const int B_length = B_next - B_curr;
    const int total_iteration = (printed & MERGE_PRINTED_CEIL) ? C_length / tile_size : ceil_div(C_length, tile_size);
    int C_completed = 0;
    int A_consumed = 0;
    int B_consumed = 0;
    int A_S_start = 0; /* where the tile begins in each buffer */
    int B_S_start = 0;
    int A_S_consumed = tile_size; /* the first iteration fills whole tiles */
    int B_S_consumed = tile_size;
    int A_loaded = 0; /* fixed: how much of A's and B's subarrays the buffers received */
    int B_loaded = 0;
    while (counter < total_iteration) {
        /* TODO(3): Fig 12.16, fixed: load A_S_consumed new A elements, starting after the last one LOADED (A_loaded, not A_consumed), into the freed slots (A_S_start + (tile_size - A_S_consumed) + i) % tile_size; then advance A_loaded; the same for B (bounded by B_length); then a barrier */

        /* Part 3 (Fig 12.18): step 3's thread-level merge through the circular helpers */
        const int tile_out = min(tile_size, C_length - C_completed);
        const int A_S_length = min(tile_size, A_length - A_consumed);
        const int B_S_length = min(tile_size, B_length - B_consumed);
        const int per_thread = ceil_div(tile_size, blockDim.x);
        const int c_curr = min(threadIdx.x * per_thread, tile_out);
        const int c_next = min((threadIdx.x + 1) * per_thread, tile_out);
        const int a_curr = co_rank_circular(c_curr, A_S, A_S_length, B_S, B_S_length, A_S_start, B_S_start, tile_size);
        const int b_curr = c_curr - a_curr;
        const int a_next = co_rank_circular(c_next, A_S, A_S_length, B_S, B_S_length, A_S_start, B_S_start, tile_size);
        const int b_next = c_next - a_next;
        merge_sequential_circular(A_S, a_next - a_curr, B_S, b_next - b_curr, C + C_curr + C_completed + c_curr,
                                  A_S_start + a_curr, B_S_start + b_curr, tile_size);
        counter++;
        /* TODO(4): Fig 12.18: A_S_consumed is the co-rank of tile_out in the circular tile, B_S_consumed the rest; update A_consumed, C_completed, B_consumed and advance A_S_start, B_S_start modulo tile_size */
        C_completed += tile_out;
        __syncthreads(); /* all have merged before the next loads overwrite consumed slots */
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
        why = merge_fit_shared((const void *)merge_circular_buffer_kernel, shared);
    if (why != NULL || (int64_t)m + n == 0)
        return why;
    merge_circular_buffer_kernel<<<grid, p->block, shared>>>(A_d, m, B_d, n, C_d, p->tile, p->printed);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* Added by `make exercises`: ./run and the tests print this while the TODOs are undone. */
extern "C" const char *const lab_step_todos =
    "\n  Exercise: TODOs left in ch12-merge/step4-circular (`make diff STEP=ch12-merge/step4-circular` shows the solution):\n"
    "    ch12-merge/step4-circular/circular.h:20: TODO(1) Fig 12.19: Fig 12.5's loop, but every read wraps: A[(A_S_start + i) % tile_size], A[(A_S_start + i - 1) % tile_size], and the same for B\n"
    "    ch12-merge/step4-circular/circular.h:29: TODO(2) Fig 12.20: Fig 12.2's merge where A[i] is read as A[(A_S_start + i) % tile_size] (likewise B)\n"
    "    ch12-merge/step4-circular/merge.cu:45: TODO(3) Fig 12.16, fixed: load A_S_consumed new A elements, starting after the last one LOADED (A_loaded, not A_consumed), into the freed slots (A_S_start + (tile_size - A_S_consumed) + i) % tile_size; then advance A_loaded; the same for B (bounded by B_length); then a barrier\n"
    "    ch12-merge/step4-circular/merge.cu:61: TODO(4) Fig 12.18: A_S_consumed is the co-rank of tile_out in the circular tile, B_S_consumed the rest; update A_consumed, C_completed, B_consumed and advance A_S_start, B_S_start modulo tile_size\n";
