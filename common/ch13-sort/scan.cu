/* scan.cu - the lab's hierarchical device exclusive scan (see scan.h). */
#include "scan.h"

/* Shared-memory index with one word of padding per 32: thread t reading its
 * SCAN_ITEMS consecutive values then hits distinct banks. */
#define SCAN_PAD(x) ((x) + ((x) >> 5))

/* Level step 1: sums[b] = the sum of tile b (coalesced, strided reads). */
__global__ void scan_reduce_kernel(const unsigned int *in, int64_t n, unsigned int *sums)
{
    __shared__ unsigned int warp_sums[33];
    const int64_t base = (int64_t)blockIdx.x * SCAN_TILE;
    unsigned int s = 0;
    for (int j = 0; j < SCAN_ITEMS; j++) {
        const int64_t idx = base + j * SCAN_BLOCK + threadIdx.x;
        if (idx < n)
            s += in[idx];
    }
    unsigned int total;
    block_exclusive_scan(s, &total, warp_sums);
    if (threadIdx.x == 0)
        sums[blockIdx.x] = total;
}

/* Level step 3 (or the whole scan when n <= SCAN_TILE, offsets NULL): each
 * block scans its tile in shared memory and adds offsets[b]; the last block
 * also writes the grand total to out[n]. */
__global__ void scan_tile_kernel(const unsigned int *in, unsigned int *out, int64_t n, const unsigned int *offsets)
{
    __shared__ unsigned int tile[SCAN_PAD(SCAN_TILE)];
    __shared__ unsigned int warp_sums[33];
    const int64_t base = (int64_t)blockIdx.x * SCAN_TILE;
    for (int j = 0; j < SCAN_ITEMS; j++) { /* coalesced load; zeros past the end */
        const int64_t idx = base + j * SCAN_BLOCK + threadIdx.x;
        tile[SCAN_PAD(j * SCAN_BLOCK + threadIdx.x)] = idx < n ? in[idx] : 0;
    }
    __syncthreads();
    const int first = threadIdx.x * SCAN_ITEMS; /* this thread's consecutive values */
    unsigned int mine = 0;
    for (int j = 0; j < SCAN_ITEMS; j++)
        mine += tile[SCAN_PAD(first + j)];
    unsigned int total;
    const unsigned int offset = offsets != NULL ? offsets[blockIdx.x] : 0;
    unsigned int running = offset + block_exclusive_scan(mine, &total, warp_sums);
    for (int j = 0; j < SCAN_ITEMS; j++) {
        const unsigned int v = tile[SCAN_PAD(first + j)];
        tile[SCAN_PAD(first + j)] = running;
        running += v;
    }
    __syncthreads();
    for (int j = 0; j < SCAN_ITEMS; j++) { /* coalesced store */
        const int64_t idx = base + j * SCAN_BLOCK + threadIdx.x;
        if (idx < n)
            out[idx] = tile[SCAN_PAD(j * SCAN_BLOCK + threadIdx.x)];
    }
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
        out[n] = offset + total;
}

const char *scan_exclusive(const unsigned int *in_d, unsigned int *out_d, int64_t n, void *temp_d)
{
    if (n < 0 || n > ((int64_t)1 << 40))
        return "scan: n must be 0 to 2^40";
    if (n <= SCAN_TILE) { /* one tile: one block, no offsets */
        scan_tile_kernel<<<1, SCAN_BLOCK>>>(in_d, out_d, n, NULL);
        CUDA_CHECK_LAUNCH();
        return NULL;
    }
    const int64_t tiles = (n + SCAN_TILE - 1) / SCAN_TILE;
    unsigned int *sums = (unsigned int *)temp_d;
    void *rest = (char *)temp_d + scan_sums_bytes(tiles);
    scan_reduce_kernel<<<(unsigned int)tiles, SCAN_BLOCK>>>(in_d, n, sums);
    CUDA_CHECK_LAUNCH();
    scan_exclusive(sums, sums, tiles, rest); /* the tiles' offsets (sums[tiles] = total, unused) */
    scan_tile_kernel<<<(unsigned int)tiles, SCAN_BLOCK>>>(in_d, out_d, n, sums);
    CUDA_CHECK_LAUNCH();
    return NULL;
}
