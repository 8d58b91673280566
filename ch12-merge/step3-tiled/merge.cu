/* Exercise: fill in each TODO; `make hint STEP=ch12-merge/step3` gives graded hints. */
/* merge.cu - ch12 step 3: the threads' co-rank searches and irregular reads
 * move from global to shared memory: each block co-ranks its output span
 * once, then loads its inputs tile by tile into shared memory with coalesced
 * reads, and its threads co-rank and merge in there.
 * Figures 12.10-12.14 (Part 1 and the tile arithmetic are in tiled.h). */
#include "tiled.h"

/* Part 2 (Fig 12.12, fixed): copies X[from, from + min(tile_size, left)) into X_S,
 * blockDim.x elements at a time: consecutive threads read consecutive elements (coalesced). */
static __device__ __forceinline__ void load_tile(int *X_S, const int *X, int from, int left, int tile_size)
{
    /* TODO(1): Fig 12.12: the block copies X[from ...] into X_S, blockDim.x elements per pass,
       thread threadIdx.x taking element from + i + threadIdx.x in pass i; stay inside the tile
       (tile_size) and inside what is left of the block's input (left) */
}

/* Part 3 (Fig 12.13): each thread co-ranks its share of the tile's tile_out
 * outputs in A_S and B_S and merges it into C (the tile's first output). */
static __device__ __forceinline__ void merge_tile(const int *A_S, int A_S_length, const int *B_S, int B_S_length,
                                                  int tile_out, int tile_size, int *C)
{
    /* TODO(2): Fig 12.13: this thread's outputs of the tile are [c_curr, c_next): tile_output_start
       (tiled.h) of threadIdx.x and of threadIdx.x + 1; co_rank each in A_S and B_S (A_S_length and
       B_S_length elements), then merge_sequential the two slices into C + c_curr */
}

/* The end of Fig 12.13's iteration, fixed: how many of A the tile's tile_out
 * outputs took, counted in what the tile holds (see errata E12.4). */
static __device__ __forceinline__ int tile_A_consumed(const int *A_S, int A_S_length, const int *B_S, int B_S_length,
                                                      int tile_out)
{
    /* TODO(3): Fig 12.13, fixed: return how many of A the tile's tile_out outputs took: the co-rank
       of tile_out in the tile as it is loaded, A_S_length elements of A_S and B_S_length of B_S
       (the printed co_rank(tile_size, A_S, tile_size, B_S, tile_size) searches full tiles: see
       errata E12.4) */
    (void)A_S, (void)A_S_length, (void)B_S, (void)B_S_length, (void)tile_out;
    return 0;
}

__global__ void merge_tiled_kernel(const int *A, int m, const int *B, int n, int *C, int tile_size, int printed)
{
    extern __shared__ int shareAB[];
    int *A_S = &shareAB[0];                                    /* tile_size elements of A */
    int *B_S = &shareAB[tile_size];                            /* tile_size elements of B */
    const merge_span s = block_span(A, m, B, n, A_S, printed); /* Part 1 */
    const int total_iteration = tile_count(s.C_length, tile_size, printed);
    int C_completed = 0;
    int A_consumed = 0;
    int B_consumed = 0;
    for (int counter = 0; counter < total_iteration; counter++) {
        load_tile(A_S, A, s.A_curr + A_consumed, s.A_length - A_consumed, tile_size); /* Part 2 */
        load_tile(B_S, B, s.B_curr + B_consumed, s.B_length - B_consumed, tile_size);
        __syncthreads(); /* the tile is loaded before anyone merges from it */
        const int tile_out = min(tile_size, s.C_length - C_completed);  /* outputs of this tile */
        const int A_S_length = min(tile_size, s.A_length - A_consumed); /* elements loaded in A_S */
        const int B_S_length = min(tile_size, s.B_length - B_consumed);
        merge_tile(A_S, A_S_length, B_S, B_S_length, tile_out, tile_size, C + s.C_curr + C_completed); /* Part 3 */
        /* what the tile consumed: --printed counts it as Fig 12.13 prints it, in full tiles (errata E12.4) */
        A_consumed += (printed & MERGE_PRINTED_CONSUMED) ? co_rank(tile_size, A_S, tile_size, B_S, tile_size)
                                                         : tile_A_consumed(A_S, A_S_length, B_S, B_S_length, tile_out);
        C_completed += tile_out;
        B_consumed = C_completed - A_consumed; /* every output came from A or from B */
        __syncthreads();                       /* the tile is merged before the next load overwrites it */
    }
}

const char *merge_launch(const merge_args *a, const merge_params *p)
{
    return tiled_launch(&merge_step_info, merge_tiled_kernel, a, p);
}

/* Step 3's facts for ./run and the tests (merge.h) */
const merge_step merge_step_info = {
    .lab = {.about = "Step 3: the tiled kernel of Figs 12.10-12.14, with T elements of A and T of B in shared\n"
                     "memory (--tile 2 or more). " MERGE_HELP_M MERGE_HELP_COARSEN MERGE_HELP_TILE
                     "--printed runs Figs 12.11-12.13 as printed (docs/errata.md).\n" MERGE_HELP_EXAMPLE,
            .default_n = MERGE_DEFAULT_TOTAL,
            .max_n = MERGE_MAX_TOTAL,
            .max_n_why = MERGE_MAX_N_WHY},
    .takes = MERGE_TAKES_LADDER | MERGE_TAKES_TILE,
    .defaults = {.block = MERGE_LADDER_BLOCK, .tile = MERGE_LADDER_TILE, .coarsen = MERGE_LADDER_COARSEN},
    .printed = MERGE_PRINTED_CEIL | MERGE_PRINTED_CONSUMED,
    .check = tiled_check,
};
