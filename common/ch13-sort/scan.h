/* scan.h - the lab's device exclusive scan, in chapter 13's wing, its only
 * user (chapter 11, where the book builds scans, is not part of the lab).
 * Hierarchical and plain: a block scans a tile of SCAN_TILE values in shared
 * memory; above one tile, the tiles' sums are scanned (recursively, by the
 * same function) and each tile adds its offset:
 *     1. scan_reduce_kernel: sums[b] = the sum of tile b          (reads n)
 *     2. scan_exclusive(sums, sums, tiles)                        (recursion)
 *     3. scan_tile_kernel:  out = exclusive scan of each tile + sums[b]
 * so it reads the input twice and writes it once, in 2 launches per level.
 * block_exclusive_scan, the block-level step, is shared with the sort steps'
 * local scans (sections 13.4-13.6). */
#ifndef LAB_SCAN_H
#define LAB_SCAN_H

#include "lab.h"

#define SCAN_BLOCK 512                       /* threads per scan block */
#define SCAN_ITEMS 8                         /* values per thread */
#define SCAN_TILE  (SCAN_BLOCK * SCAN_ITEMS) /* values per scan block */

LAB_BEGIN_C

/* out[i] = in[0] + ... + in[i-1] for 0 <= i <= n: out holds n + 1 values and
 * out[n] is the total (Fig 13.4 reads it as bits[N]). in == out is allowed.
 * Sums wrap modulo 2^32. temp_d: scan_temp_bytes(n) bytes of device memory.
 * Launches on the default stream; NULL, or why it cannot run. */
const char *scan_exclusive(const unsigned int *in_d, unsigned int *out_d, int64_t n, void *temp_d);

/* Above one tile, the temporaries hold the tiles' sums (tiles + 1 of them,
 * 256-byte aligned), then the next level's temporaries. Pure host, inline:
 * the chapter's host code sizes its workspace with it without linking the scan. */
static inline size_t scan_sums_bytes(int64_t tiles)
{
    return ((size_t)(tiles + 1) * sizeof(unsigned int) + 255) & ~(size_t)255;
}

static inline size_t scan_temp_bytes(int64_t n)
{
    const int64_t tiles = (n + SCAN_TILE - 1) / SCAN_TILE;
    return n <= SCAN_TILE ? 0 : scan_sums_bytes(tiles) + scan_temp_bytes(tiles);
}

LAB_END_C

#ifdef __CUDACC__
/* Every thread of the block brings x; returns the sum of the x of the threads
 * before it (exclusive) and sets *total to the block's sum. All threads must
 * call it (it has barriers); blockDim.x must be a multiple of 32. warp_sums:
 * 33 words of shared memory. Each warp scans with shuffles (Kogge-Stone over
 * 32 lanes), warp 0 scans the warps' sums, each thread adds its warp's offset. */
static __device__ __forceinline__ unsigned int block_exclusive_scan(unsigned int x, unsigned int *total,
                                                                    unsigned int *warp_sums)
{
    const unsigned int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    unsigned int inclusive = x;
    for (unsigned int d = 1; d < 32; d <<= 1) {
        const unsigned int y = __shfl_up_sync(0xffffffffu, inclusive, d);
        if (lane >= d)
            inclusive += y;
    }
    if (lane == 31)
        warp_sums[warp] = inclusive;
    __syncthreads();
    if (warp == 0) { /* the warps' sums, scanned by the first warp */
        const unsigned int s = lane < warps ? warp_sums[lane] : 0;
        unsigned int s_inclusive = s;
        for (unsigned int d = 1; d < 32; d <<= 1) {
            const unsigned int y = __shfl_up_sync(0xffffffffu, s_inclusive, d);
            if (lane >= d)
                s_inclusive += y;
        }
        if (lane < warps)
            warp_sums[lane] = s_inclusive - s;
        if (lane == 31)
            warp_sums[32] = s_inclusive;
    }
    __syncthreads();
    *total = warp_sums[32];
    return warp_sums[warp] + inclusive - x;
}
#endif

#endif
