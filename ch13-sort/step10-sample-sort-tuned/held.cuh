/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step10` gives graded hints. */
/* held.cuh - ch13 step 10's first idea for few buckets: the splitters held
 * in registers. With up to 8 buckets (two or four GPUs of two chunks each)
 * every thread holds the splitters, each as the least item of its tile at or
 * above it, so an item's bucket is a few 64-bit compares in registers where
 * step 9 searches the splitters in shared memory (held_bucket); and the count
 * keeps, per thread, its items at or above each splitter over all its
 * block's tiles: no table in shared memory, no votes, no atomics but the
 * block's sums (count_few). Included by sample_sort.cu. */
#ifndef SS_HELD_CUH
#define SS_HELD_CUH

#include "partition.cuh" /* step 9's: its tiles, cuts and table */
#include "tuned.h"

#define SS_HELD_SPLITS 3                    /* up to 4 buckets (two GPUs, two chunks each) */
#define SS_FEW_SPLITS  (SS_FEW_BUCKETS - 1) /* up to 8 buckets (four GPUs) */

/* The splitters as each thread holds them; the ones past B - 1 are the
 * largest item, which no item reaches. H, here and below, is how many are
 * held: SS_HELD_SPLITS or SS_FEW_SPLITS. */
typedef struct {
    unsigned int key[SS_FEW_SPLITS];
    uint64_t pos[SS_FEW_SPLITS];
} ss_held;

static __device__ __forceinline__ void hold_splits(const ss_cuts *c, ss_held *h, const int H)
{
#pragma unroll
    for (int t = 0; t < H; t++) {
        h->key[t] = t + 1 < c->B ? c->split_key[t] : 0xFFFFFFFFu;
        h->pos[t] = t + 1 < c->B ? c->split_pos[t] : ~0ull;
    }
}

/* Item x of a tile (position pos_lo + x) as one number that orders as the
 * item (key, position) does inside the tile: key << 13 | x (x < 8192, a tile's keys). */
#define SS_TILE_BITS 13
static __device__ __forceinline__ uint64_t tile_item(unsigned int key, int x)
{
    return (uint64_t)key << SS_TILE_BITS | (unsigned int)x;
}

/* Each held splitter as the least tile item at or above it: splitter t is <=
 * item x exactly when tile_item(key, x) >= at[t], one 64-bit compare. */
static __device__ __forceinline__ void held_thresholds(const ss_held *h, int64_t pos_lo, uint64_t *at, const int H)
{
#pragma unroll
    for (int t = 0; t < H; t++) {
        const uint64_t p = h->pos[t], lo = (uint64_t)pos_lo; /* the tile's items of key[t] from x on */
        const unsigned int x = p <= lo ? 0 : p - lo >= (uint64_t)SS_TILE ? SS_TILE : (unsigned int)(p - lo);
        at[t] = ((uint64_t)h->key[t] << SS_TILE_BITS) + x; /* x = SS_TILE: none, the next key's first */
    }
}

/* The bucket of a tile item among held splitters: how many are <= it. */
static __device__ __forceinline__ int held_bucket(uint64_t item, const uint64_t *at, const int H)
{
    /* TODO(1): held_bucket(), the cut in registers: the item's bucket is how many of the H held
       splitters are <= it; splitter t is <= the item exactly when item >= at[t] (its threshold: the
       least item of the tile at or above it) */
    (void)item, (void)at, (void)H;
    return 0;
}

/* A tile's keys (or values) blocked: thread t holds items t * SS_ITEMS on, in
 * input order, read 16 bytes at a time when the tile is whole. */
static __device__ __forceinline__ void load_blocked_tile(const unsigned int *src, int64_t tile_lo, int tile_n,
                                                         unsigned int *v)
{
    const int x0 = threadIdx.x * SS_ITEMS;
    const unsigned int *p = src + tile_lo + x0;
    if (tile_n == SS_TILE && ((uintptr_t)p & 15) == 0) {
#pragma unroll
        for (int q = 0; q < SS_ITEMS; q += 4) {
            const uint4 w = *(const uint4 *)(p + q);
            v[q] = w.x, v[q + 1] = w.y, v[q + 2] = w.z, v[q + 3] = w.w;
        }
    } else {
#pragma unroll
        for (int j = 0; j < SS_ITEMS; j++)
            v[j] = x0 + j < tile_n ? p[j] : 0;
    }
}

/* The count for few buckets: each thread counts, over all of its block's
 * tiles, its items at or above each held splitter; bucket b holds those at or
 * above splitter b - 1 less those at or above splitter b. The block's sums go
 * to its column of the table, as step 9's count_kernel leaves it. */
static __device__ __forceinline__ void count_few(const unsigned int *keys, int64_t n, int64_t start, int64_t chunk,
                                                 const ss_cuts *cuts, unsigned int *table, const int H)
{
    __shared__ unsigned int s_above[SS_FEW_SPLITS];
    unsigned int above[SS_FEW_SPLITS] = {0};
    const int base = (threadIdx.x >> 5) * SS_SEGMENT + (threadIdx.x & 31), B = cuts->B;
    const int64_t lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
    ss_held h;
    hold_splits(cuts, &h, H);
    if (threadIdx.x < H)
        s_above[threadIdx.x] = 0;
    for (int64_t tile_lo = lo; tile_lo < hi; tile_lo += SS_TILE) {
        const int tile_n = (int)min((int64_t)SS_TILE, hi - tile_lo);
        unsigned int key[SS_ITEMS];
        uint64_t at[SS_FEW_SPLITS];
        load_share_tile(keys, NULL, tile_lo, tile_n, key, NULL, 0);
        held_thresholds(&h, start + tile_lo, at, H);
#pragma unroll
        for (int j = 0; j < SS_ITEMS; j++) {
            const int x = base + j * 32;
            const uint64_t item = tile_item(key[j], x);
#pragma unroll
            for (int t = 0; t < H; t++)
                above[t] += x < tile_n && item >= at[t]; /* splitter t <= the item */
        }
    }
    __syncthreads(); /* s_above zeroed */
#pragma unroll
    for (int t = 0; t < H; t++) { /* the warp's sums, then the block's */
        for (int d = 16; d > 0; d >>= 1)
            above[t] += __shfl_xor_sync(0xffffffffu, above[t], d);
        if ((threadIdx.x & 31) == 0 && t + 1 < B)
            atomicAdd(&s_above[t], above[t]);
    }
    __syncthreads();
    const int b = threadIdx.x;
    if (b < B)
        table[(size_t)b * gridDim.x + blockIdx.x] =
            (b == 0 ? (unsigned int)(hi > lo ? hi - lo : 0) : s_above[b - 1]) - (b + 1 < B ? s_above[b] : 0);
}

/* register caps: as many blocks an SM as the split in registers that follows (split_few.cuh) */
__global__ void __launch_bounds__(SS_BLOCK, 3) count_few_kernel(const unsigned int *keys, int64_t n, int64_t start,
                                                                int64_t chunk, ss_cuts cuts, unsigned int *table)
{
    count_few(keys, n, start, chunk, &cuts, table, SS_HELD_SPLITS);
}

__global__ void __launch_bounds__(SS_BLOCK, 3) count_eight_kernel(const unsigned int *keys, int64_t n, int64_t start,
                                                                  int64_t chunk, ss_cuts cuts, unsigned int *table)
{
    count_few(keys, n, start, chunk, &cuts, table, SS_FEW_SPLITS);
}

#endif
