/* merge.cu - ch12 step 4: step 3 reloads a whole tile each iteration although
 * only what the last one consumed is new; here A_S and B_S are circular
 * buffers and each iteration loads only as many elements as were consumed.
 * Figures 12.15-12.20 (Part 1 as in step 3: tiled.h; the circular co-rank
 * and merge: circular.h). */
#include "circular.h"
#include "tiled.h"

/* Part 2 (Fig 12.16): refills the X_S_consumed slots the last tile freed, the
 * ones after the tile's unconsumed rest, wrapping around the buffer, from
 * X[X_curr + X_from ...]: X_from is the first element of the block's input
 * (X_length elements from X_curr) that the buffer does not hold yet. */
static __device__ __forceinline__ void refill(int *X_S, const int *X, int X_curr, int X_length, int X_from,
                                              int X_S_start, int X_S_consumed, int tile_size)
{
    /* exercise: Fig 12.16: the block loads X_S_consumed new elements from X[X_curr + X_from + i + threadIdx.x], blockDim.x per pass, into the freed slots (X_S_start + (tile_size - X_S_consumed) + i + threadIdx.x) % tile_size; stay inside the block's input (X_length elements) */
    /* hint: step 3's load_tile with two changes: the pass loop runs to X_S_consumed, not tile_size, and the slot index wraps with % tile_size */
    /* hint: the tile starts at X_S_start and its tile_size - X_S_consumed unconsumed elements follow it: the first free slot is X_S_start + (tile_size - X_S_consumed) */
    for (int i = 0; i < X_S_consumed; i += blockDim.x) {
        if (i + threadIdx.x < X_length - X_from && i + threadIdx.x < X_S_consumed)
            X_S[(X_S_start + (tile_size - X_S_consumed) + i + threadIdx.x) % tile_size] =
                X[X_curr + X_from + i + threadIdx.x];
    }
    /* end exercise */
}

/* Part 3 (Fig 12.18): step 3's merge_tile through the circular helpers. */
static __device__ __forceinline__ void merge_tile_circular(const int *A_S, int A_S_length, int A_S_start,
                                                           const int *B_S, int B_S_length, int B_S_start, int tile_out,
                                                           int tile_size, int *C)
{
    const int c_curr = tile_output_start(threadIdx.x, tile_out, tile_size);
    const int c_next = tile_output_start(threadIdx.x + 1, tile_out, tile_size);
    const int a_curr = co_rank_circular(c_curr, A_S, A_S_length, B_S, B_S_length, A_S_start, B_S_start, tile_size);
    const int b_curr = c_curr - a_curr;
    const int a_next = co_rank_circular(c_next, A_S, A_S_length, B_S, B_S_length, A_S_start, B_S_start, tile_size);
    const int b_next = c_next - a_next;
    merge_sequential_circular(A_S, a_next - a_curr, B_S, b_next - b_curr, C + c_curr, A_S_start + a_curr,
                              B_S_start + b_curr, tile_size);
}

__global__ void merge_circular_buffer_kernel(const int *A, int m, const int *B, int n, int *C, int tile_size,
                                             int printed)
{
    extern __shared__ int shareAB[];
    int *A_S = &shareAB[0];
    int *B_S = &shareAB[tile_size];
    const merge_span s = block_span(A, m, B, n, A_S, printed); /* Part 1, as in step 3 */
    const int total_iteration = tile_count(s.C_length, tile_size, printed);
    int C_completed = 0, A_consumed = 0, B_consumed = 0;
    int A_S_start = 0, B_S_start = 0;                       /* where the tile begins in each buffer */
    int A_S_consumed = tile_size, B_S_consumed = tile_size; /* the first iteration fills whole tiles */
    int A_loaded = 0, B_loaded = 0; /* fixed: how much of A's and B's spans the buffers received */
    for (int counter = 0; counter < total_iteration; counter++) {
        if (printed & MERGE_PRINTED_LOADER) { /* Fig 12.16 as printed refills after what was consumed (errata E12.5) */
            A_loaded = A_consumed;
            B_loaded = B_consumed;
        }
        /* exercise: Fig 12.16, fixed: refill A_S and B_S (refill), each from the first element of its span not yet LOADED, A_loaded and B_loaded (the printed A_consumed re-reads elements the buffer still holds: see errata E12.5); then a barrier, so the whole tile is in before anyone merges */
        /* hint: refill's X_from is where this refill starts in the block's span: the buffer still holds the tile's unconsumed elements, and the ones after them are the next to load */
        /* hint: one refill call for A_S and one for B_S, with the span (s.A_curr, s.A_length), A_loaded, A_S_start and A_S_consumed; A_loaded and B_loaded advance below, after the barrier */
        refill(A_S, A, s.A_curr, s.A_length, A_loaded, A_S_start, A_S_consumed, tile_size);
        refill(B_S, B, s.B_curr, s.B_length, B_loaded, B_S_start, B_S_consumed, tile_size);
        __syncthreads(); /* the tile is in before anyone merges from it */
        /* end exercise */
        /* what the buffers now hold of A's and B's spans: the last refills load less than they freed */
        A_loaded += min(A_S_consumed, s.A_length - A_loaded);
        /* a published fix bounds this by A_length, a slip (errata E12.6) */
        B_loaded += min(B_S_consumed, ((printed & MERGE_PRINTED_NOTE_SLIP) ? s.A_length : s.B_length) - B_loaded);
        const int tile_out = min(tile_size, s.C_length - C_completed);
        const int A_S_length = min(tile_size, s.A_length - A_consumed);
        const int B_S_length = min(tile_size, s.B_length - B_consumed);
        merge_tile_circular(A_S, A_S_length, A_S_start, B_S, B_S_length, B_S_start, tile_out, tile_size,
                            C + s.C_curr + C_completed); /* Part 3 */
        /* exercise: Fig 12.18: A_S_consumed is the co-rank of tile_out in the circular tile (A_S_length and B_S_length elements from A_S_start and B_S_start), B_S_consumed the rest of tile_out; A_consumed grows by A_S_consumed, C_completed by tile_out, B_consumed is C_completed - A_consumed; A_S_start and B_S_start advance past what was consumed, modulo tile_size */
        /* hint: the consumed slots are the ones the next refill overwrites: the tile's next start is just after them, so the unconsumed rest stays where it is */
        /* hint: the search is the one merge_tile_circular's threads run (co_rank_circular), with the rank tile_out: the last tile makes fewer than tile_size outputs */
        A_S_consumed = co_rank_circular(tile_out, A_S, A_S_length, B_S, B_S_length, A_S_start, B_S_start, tile_size);
        B_S_consumed = tile_out - A_S_consumed;
        A_consumed += A_S_consumed;
        C_completed += tile_out;
        B_consumed = C_completed - A_consumed;
        A_S_start = (A_S_start + A_S_consumed) % tile_size;
        B_S_start = (B_S_start + B_S_consumed) % tile_size;
        /* end exercise */
        __syncthreads(); /* all have merged before the next loads overwrite consumed slots */
    }
}

const char *merge_launch(const merge_args *a, const merge_params *p)
{
    return tiled_launch(&merge_step_info, merge_circular_buffer_kernel, a, p);
}

/* Step 4's facts for ./run and the tests (merge.h) */
const merge_step merge_step_info = {
    .lab = {.about =
                "Step 4: the circular-buffer kernel of Figs 12.15-12.20; shared memory holds T elements of\n"
                "A and T of B, and each tile refills only what the last one consumed (--tile 2 or more).\n" MERGE_HELP_M
                    MERGE_HELP_COARSEN MERGE_HELP_TILE
                "--printed runs the printed code: Fig 12.16's loader, the ceil() of Figs 12.11-12.12\n"
                "and the slip of a published fix (docs/errata.md).\n" MERGE_HELP_EXAMPLE,
            .default_n = MERGE_DEFAULT_TOTAL,
            .max_n = MERGE_MAX_TOTAL,
            .max_n_why = MERGE_MAX_N_WHY},
    .takes = MERGE_TAKES_LADDER | MERGE_TAKES_TILE,
    .defaults = {.block = MERGE_LADDER_BLOCK, .tile = MERGE_LADDER_TILE, .coarsen = MERGE_LADDER_COARSEN},
    .printed = MERGE_PRINTED_CEIL | MERGE_PRINTED_LOADER | MERGE_PRINTED_NOTE_SLIP,
    .check = tiled_check,
};
