/* merge.cu - ch12 step 5: step 3's tiles load tile_size elements of A and of
 * B but consume only tile_size of the 2*tile_size; here every tile boundary is
 * co-ranked on the global arrays first, so each tile loads exactly the elements
 * it merges, and stores exactly the outputs it makes: every element crosses
 * global memory once, in coalesced accesses.
 * Section 12.6's exercise (on Figs 12.11-12.13: the span and tile share of tiled.h). */
#include "merge_host.h"
#include "tiled.h"

/* One thread per tile boundary: the co-rank of output rank t*tile_size. */
__global__ void tile_co_rank_kernel(const int *A, int m, const int *B, int n, int tile_size, int ntiles, int *A_tile)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t <= ntiles)
        A_tile[t] = co_rank((int)min((int64_t)t * tile_size, (int64_t)(m + n)), A, m, B, n);
}

/* Tile t's output span and, from the precomputed co-ranks, its exact inputs. */
static __device__ __forceinline__ merge_span tile_span(int t, const int *A_tile, int m, int n, int tile_size)
{
    const int C_curr = t * tile_size;
    const int C_next = (int)min((int64_t)C_curr + tile_size, (int64_t)(m + n));
    const int A_curr = A_tile[t];
    const int A_next = A_tile[t + 1];
    const int B_curr = C_curr - A_curr;
    const int B_next = C_next - A_next;
    const merge_span s = {.C_curr = C_curr,
                          .C_length = C_next - C_curr,
                          .A_curr = A_curr,
                          .A_length = A_next - A_curr,
                          .B_curr = B_curr,
                          .B_length = B_next - B_curr};
    return s; /* C_length == A_length + B_length */
}

/* Section 12.6's exercise: loads exactly the tile's inputs, A[A_curr, +A_length)
 * then B[B_curr, +B_length), into AB_S (C_length elements) with coalesced reads. */
static __device__ __forceinline__ void load_exact_tile(int *AB_S, const int *A, const int *B, const merge_span s)
{
    /* exercise: Section 12.6's exercise: AB_S[i] for i < s.C_length is the tile's i-th input: A[s.A_curr + i] while i < s.A_length, then B's part; thread threadIdx.x loads i = threadIdx.x, threadIdx.x + blockDim.x, ... (coalesced) */
    /* hint: one loop over i from threadIdx.x while i < s.C_length, i += blockDim.x: A's part and B's part follow each other in AB_S */
    /* hint: B's part starts at AB_S[s.A_length], so the tile's input i past it is B's element i - s.A_length of the tile's B range; #pragma unroll 4 on the loop keeps several loads in flight */
#pragma unroll 4
    for (int i = threadIdx.x; i < s.C_length; i += blockDim.x) /* unrolled: several loads in flight */
        AB_S[i] = i < s.A_length ? A[s.A_curr + i] : B[s.B_curr + i - s.A_length];
    /* end exercise */
}

/* A thread's part of a tile: its outputs C_S[c, c + a_length + b_length) merge
 * A_S[a, a + a_length) and B_S[b, b + b_length). */
typedef struct {
    int c, a, a_length, b, b_length;
} thread_part;

/* As in Fig 12.13, but the tile's lengths are exact: this thread's part of the
 * tile (its tile share) with one co-rank search, its end being the next
 * thread's start (through a_S). */
static __device__ __forceinline__ thread_part split_tile(const int *A_S, const int *B_S, const merge_span s,
                                                         int tile_size, int *a_S)
{
    const int c_curr = tile_output_start(threadIdx.x, s.C_length, tile_size);
    const int c_next = tile_output_start(threadIdx.x + 1, s.C_length, tile_size);
    const int a_curr = co_rank(c_curr, A_S, s.A_length, B_S, s.B_length);
    const int b_curr = c_curr - a_curr;
    a_S[threadIdx.x] = a_curr; /* one search per thread: its end is the next thread's start */
    __syncthreads();           /* every thread's start is in a_S before its neighbour reads it */
    const int a_next = c_next == s.C_length ? s.A_length : a_S[threadIdx.x + 1];
    const int b_next = c_next - a_next;
    const thread_part q = {
        .c = c_curr, .a = a_curr, .a_length = a_next - a_curr, .b = b_curr, .b_length = b_next - b_curr};
    return q;
}

/* The merged tile, C_S, to C[C_curr, + C_length) with coalesced writes. */
static __device__ __forceinline__ void store_tile(int *C, const int *C_S, const merge_span s)
{
    for (int i = threadIdx.x; i < s.C_length; i += blockDim.x)
        C[s.C_curr + i] = C_S[i];
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
        const merge_span s = tile_span(t, A_tile, m, n, tile_size);
        load_exact_tile(AB_S, A, B, s);
        __syncthreads(); /* the tile is loaded before anyone merges from it */
        const int *A_S = AB_S, *B_S = AB_S + s.A_length;
        const thread_part q = split_tile(A_S, B_S, s, tile_size, a_S);
        merge_sequential(A_S + q.a, q.a_length, B_S + q.b, q.b_length, C_S + q.c);
        __syncthreads(); /* the tile is merged before it is stored */
        store_tile(C, C_S, s);
        __syncthreads(); /* stored before the next tile overwrites AB_S, C_S and a_S */
    }
}

const char *merge_launch(const merge_args *a, const merge_params *p)
{
    /* AB_S and C_S (the same 2 * tile as step 3) and a_S (block + 1) */
    const size_t shared = sizeof(int) * (2 * (size_t)p->tile + (size_t)p->block + 1);
    int grid = 0;
    merge_ws ws;
    const char *why = merge_prepare(&merge_step_info, a, p, (const void *)merge_tiled_exact_kernel, shared, &grid, &ws);
    if (why != NULL || grid == 0)
        return why;
    /* --coarsen sets the outputs per block (block * coarsen, in whole tiles); --grid overrides it */
    const int tiles_per_block =
        p->grid > 0 ? ceil_div(ws.ntiles, p->grid) : ceil_div((int64_t)p->block * p->coarsen, p->tile);
    tile_co_rank_kernel<<<ceil_div((int64_t)ws.ntiles + 1, 256), 256>>>(a->A, (int)a->m, a->B, (int)a->n, p->tile,
                                                                        ws.ntiles, ws.tile_co_ranks);
    CUDA_CHECK_LAUNCH();
    merge_tiled_exact_kernel<<<ceil_div(ws.ntiles, tiles_per_block), p->block, shared>>>(
        a->A, (int)a->m, a->B, (int)a->n, a->C, p->tile, tiles_per_block, ws.tile_co_ranks);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* Step 5's own host check: a tile of at least one element. */
static const char *exact_check(int64_t m, int64_t n, const merge_params *p)
{
    (void)m, (void)n;
    return p->tile < 1 ? "--tile must be 1 or more" : NULL;
}

/* Step 5's facts for ./run and the tests (merge.h) */
const merge_step merge_step_info = {
    .lab =
        {.about =
             "Step 5: exact tiles, section 12.6's exercise: a tile loads exactly the T inputs it merges.\n" MERGE_HELP_M
                 MERGE_HELP_COARSEN "(A block's outputs are rounded up to whole tiles.)\n" MERGE_HELP_TILE
             "Keep the tile share odd: the threads' stores to C_S then fall in 32 different banks\n"
             "(README). " MERGE_HELP_EXAMPLE,
         .default_n = MERGE_DEFAULT_TOTAL,
         .max_n = MERGE_MAX_TOTAL,
         .max_n_why = MERGE_MAX_N_WHY},
    .takes = MERGE_TAKES_LADDER | MERGE_TAKES_TILE,
    .defaults = {.block = MERGE_LADDER_BLOCK, .tile = MERGE_LADDER_TILE, .coarsen = MERGE_LADDER_COARSEN},
    .tile_co_ranks = 1,
    .check = exact_check,
};
