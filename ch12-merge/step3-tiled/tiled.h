/* tiled.h - ch12 step 3: the parts of the tiled merge (Figs 12.11-12.13)
 * that steps 4 and 5 reuse: a span of the output and the input spans it
 * merges from, the block's span found by co-rank (Part 1), the number of
 * tiles, where each thread's share of a tile begins, and the launch of a
 * kernel with A_S and B_S in shared memory. Steps 4 and 5 include this file,
 * the solution's. */
#ifndef TILED_H
#define TILED_H

#include "co_rank.h"
#include "merge_host.h"

/* C[C_curr, C_curr + C_length) merges A[A_curr, + A_length) and B[B_curr, + B_length). */
typedef struct {
    int C_curr, C_length;
    int A_curr, A_length;
    int B_curr, B_length;
} merge_span;

/* Part 1 (Fig 12.11, fixed: a true ceiling): the block's output span and, by
 * co-rank, its inputs. One thread searches; A_S[0..1] broadcasts the result. */
static __device__ __forceinline__ merge_span block_span(const int *A, int m, const int *B, int n, int *A_S, int printed)
{
    const int C_per_block = (printed & MERGE_PRINTED_CEIL) ? (m + n) / gridDim.x : ceil_div(m + n, gridDim.x);
    const int C_curr = (int)min((int64_t)blockIdx.x * C_per_block, (int64_t)(m + n));
    const int C_next = (int)min((int64_t)(blockIdx.x + 1) * C_per_block, (int64_t)(m + n));
    if (threadIdx.x == 0) {
        A_S[0] = co_rank(C_curr, A, m, B, n); /* one thread searches; shared memory broadcasts */
        A_S[1] = co_rank(C_next, A, m, B, n);
    }
    __syncthreads(); /* the co-ranks are in A_S[0..1] before anyone reads them */
    const int A_curr = A_S[0];
    const int A_next = A_S[1];
    const int B_curr = C_curr - A_curr;
    const int B_next = C_next - A_next;
    const merge_span s = {.C_curr = C_curr,
                          .C_length = C_next - C_curr,
                          .A_curr = A_curr,
                          .A_length = A_next - A_curr,
                          .B_curr = B_curr,
                          .B_length = B_next - B_curr};
    __syncthreads(); /* all have read A_S[0..1] before the first tile overwrites them */
    return s;
}

/* Fig 12.12, fixed: the tiles a block needs for its C_length outputs, a true
 * ceiling (the printed ceil() sees a truncated quotient). */
static __device__ __forceinline__ int tile_count(int C_length, int tile_size, int printed)
{
    return (printed & MERGE_PRINTED_CEIL) ? C_length / tile_size : ceil_div(C_length, tile_size);
}

/* Fig 12.13, fixed: where thread t's outputs begin in a tile of tile_out
 * outputs. Each thread's tile share is ceil(tile_size / blockDim.x): the
 * printed tile_size/blockDim.x drops the tile's tail when blockDim.x does not
 * divide tile_size. */
static __device__ __forceinline__ int tile_output_start(unsigned int t, int tile_out, int tile_size)
{
    const int tile_share = ceil_div(tile_size, blockDim.x);
    return min(t * tile_share, tile_out);
}

/* The tiled steps' own host check: Part 1 passes two co-ranks through A_S. */
static const char *tiled_check(int64_t m, int64_t n, const merge_params *p)
{
    (void)m, (void)n;
    return p->tile < 2 ? "--tile must be 2 or more: Part 1 passes the block's two co-ranks through A_S" : NULL;
}

/* The launch of steps 3 and 4 (s: the step's descriptor): a kernel of Part 1's
 * block spans, with tile_size elements of A and of B in shared memory. */
typedef void (*tiled_kernel)(const int *A, int m, const int *B, int n, int *C, int tile_size, int printed);
static const char *tiled_launch(const merge_step *s, tiled_kernel kernel, const merge_args *a, const merge_params *p)
{
    const size_t shared = 2 * sizeof(int) * (size_t)p->tile; /* A_S and B_S */
    int grid = 0;
    merge_ws ws;
    const char *why = merge_prepare(s, a, p, (const void *)kernel, shared, &grid, &ws);
    if (why != NULL || grid == 0)
        return why;
    kernel<<<grid, p->block, shared>>>(a->A, (int)a->m, a->B, (int)a->n, a->C, p->tile, p->printed);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

#endif
