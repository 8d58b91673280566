/* split_few.cuh - ch13 step 10's scatter for few buckets, in registers: its
 * split held in registers (held.cuh) where step 9's scatter ranks each tile
 * in shared-memory tables. Tile by tile, each thread finds its blocked
 * items' buckets and counts them packed, 16 bits a bucket, in two words; one
 * block scan of the packed words gives each item its place in the staged
 * tile (stable: threads and items in input order); the staged tile goes out
 * bucket by bucket. A whole tile that no splitter's position falls in (all
 * but a few) is staged by 32-bit compares of its keys alone (count_by_key,
 * stage_by_key): half the instructions a key. Included by sample_sort.cu. */
#ifndef SS_SPLIT_FEW_CUH
#define SS_SPLIT_FEW_CUH

#include "held.cuh"

/* The split's shared memory, carved in this order (8-byte items first). */
typedef struct {
    uint64_t *split_pos;             /* [B - 1]: read tile by tile by the stage by keys */
    uint64_t *run;                   /* [B]: where the block's keys of bucket b go */
    uint64_t *warp_total;            /* [2][SS_WARPS]: each warp's packed counts */
    unsigned int *split_key;         /* [B - 1] */
    unsigned int *stage_k, *stage_v; /* [SS_TILE] each (values: pairs only) */
} few_smem;

static __host__ __device__ size_t few_smem_carve(void *base, int B, int has_values, few_smem *s)
{
    char *at = (char *)base;
    size_t used = 0;
    const size_t u64 = sizeof(uint64_t), u32 = sizeof(unsigned int);
    s->split_pos = (uint64_t *)ss_take(at, &used, u64 * (size_t)(B - 1));
    s->run = (uint64_t *)ss_take(at, &used, u64 * (size_t)B);
    s->warp_total = (uint64_t *)ss_take(at, &used, u64 * 2 * SS_WARPS);
    s->split_key = (unsigned int *)ss_take(at, &used, u32 * (size_t)(B - 1));
    s->stage_k = (unsigned int *)ss_take(at, &used, u32 * SS_TILE);
    s->stage_v = (unsigned int *)ss_take(at, &used, has_values ? u32 * SS_TILE : 0);
    return used;
}

#define SS_FIELD 16 /* bits of one bucket's count in a packed word: a tile's 4096 keys fit */

/* Bucket b's count in packed words: 16 bits a bucket, buckets 0-3 in w[0],
 * 4-7 in w[1] (used only when H > 3). */
static __device__ __forceinline__ unsigned int field_of(const uint64_t *w, int b, const int H)
{
    return (unsigned int)((H > 3 && b >= 4 ? w[1] : w[0]) >> (SS_FIELD * (b & 3))) & 0xffffu;
}

/* v added to bucket b's field of packed words. */
static __device__ __forceinline__ void add_field(uint64_t *w, int b, unsigned int v, const int H)
{
    const uint64_t add = (uint64_t)v << (SS_FIELD * (b & 3));
    w[0] += H > 3 && b >= 4 ? 0 : add;
    if (H > 3)
        w[1] += b >= 4 ? add : 0;
}

/* A packed word summed over the threads before this one in the block (the
 * warp's scan by shuffles, then the warps' totals), and over the tile in *total. */
static __device__ __forceinline__ uint64_t block_scan_packed(uint64_t mine, uint64_t *warp_total, uint64_t *total)
{
    const unsigned int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    uint64_t upto = mine;
#pragma unroll
    for (unsigned int d = 1; d < 32; d <<= 1) {
        const uint64_t earlier = __shfl_up_sync(0xffffffffu, upto, d);
        upto += lane >= d ? earlier : 0;
    }
    if (lane == 31)
        warp_total[warp] = upto;
    __syncthreads();
    uint64_t before = 0, all = 0;
#pragma unroll
    for (int w = 0; w < SS_WARPS; w++) {
        const uint64_t t = warp_total[w];
        before += w < (int)warp ? t : 0;
        all += t;
    }
    *total = all;
    return before + upto - mine;
}

/* Each blocked item's bucket among few (held_bucket; B: a missing item), four
 * bits an item in one word, and the thread's packed count of each bucket. */
static __device__ __forceinline__ uint64_t find_few_buckets(const unsigned int *key, int tile_n, const uint64_t *at,
                                                            int B, uint64_t *mine, const int H)
{
    const int x0 = threadIdx.x * SS_ITEMS;
    uint64_t buckets = 0;
    mine[0] = mine[1] = 0;
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) {
        const int b = x0 + j < tile_n ? held_bucket(tile_item(key[j], x0 + j), at, H) : B;
        buckets |= (uint64_t)b << (4 * j);
        add_field(mine, b, b < B, H);
    }
    return buckets;
}

/* The thread's packed counts of a tile (mine) scanned over the block: each
 * bucket's first place in the staged tile (first[b]; total: the tile's
 * counts), and this thread's first place of each bucket (place: first[b] and
 * the bucket's items of the threads before this one). */
static __device__ __forceinline__ void place_few(const uint64_t *mine, uint64_t *place, uint64_t *total,
                                                 unsigned int *first, const few_smem *s, const int H)
{
    total[1] = 0;
    place[0] = block_scan_packed(mine[0], s->warp_total, &total[0]);
    place[1] = H > 3 ? block_scan_packed(mine[1], s->warp_total + SS_WARPS, &total[1]) : 0;
    unsigned int run = 0;
#pragma unroll
    for (int b = 0; b <= H; b++) {
        first[b] = run;
        add_field(place, b, run, H);
        run += field_of(total, b, H);
    }
}

/* Each item to its place in the staged tile: its bucket's next place
 * (place_few's, moved on by this thread's items of the bucket before it). */
static __device__ __forceinline__ void stage_few(const unsigned int *key, const unsigned int *val, uint64_t buckets,
                                                 uint64_t *place, int B, const few_smem *s, const int has_values,
                                                 const int H)
{
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) {
        const int b = (int)(buckets >> (4 * j)) & 15;
        if (b < B) {
            const unsigned int to = field_of(place, b, H);
            add_field(place, b, 1, H);
            s->stage_k[to] = key[j];
            if (has_values)
                s->stage_v[to] = val[j];
        }
    }
}

/* The staged tile out bucket by bucket: bucket b's run of it, from first[b],
 * to consecutive addresses from the block's cursor (consecutive threads,
 * consecutive addresses: no search for an item's bucket); then the cursor
 * moves on. The cursor: the block's first place of bucket b in part
 * (s->run[b], the same for every thread) and what its tiles wrote (done[b]). */
static __device__ __forceinline__ void write_few(const few_smem *s, const unsigned int *first, const uint64_t *total,
                                                 unsigned int *done, unsigned int *part_k, unsigned int *part_v,
                                                 const int has_values, const int H)
{
#pragma unroll
    for (int b = 0; b <= H; b++) {
        const int from = (int)first[b], n = (int)field_of(total, b, H);
        const uint64_t cursor = s->run[b] + done[b];
        for (int i = threadIdx.x; i < n; i += SS_BLOCK) {
            part_k[cursor + i] = s->stage_k[from + i];
            if (has_values)
                part_v[cursor + i] = s->stage_v[from + i];
        }
        done[b] += n;
    }
}

/* split_few's start: the splitters and each bucket's first place in part
 * (send_off + the block's row prefix) to shared memory, read there tile by
 * tile (registers go to the tile); nothing written yet. */
static __device__ __forceinline__ void few_start(const ss_cuts *cuts, const uint64_t *row_prefix,
                                                 const int64_t *send_off, const few_smem *s, unsigned int *done,
                                                 const int H)
{
    for (int b = threadIdx.x; b < cuts->B; b += blockDim.x) {
        if (b + 1 < cuts->B)
            s->split_key[b] = cuts->split_key[b], s->split_pos[b] = cuts->split_pos[b];
        s->run[b] = (uint64_t)send_off[b] + row_prefix[(size_t)b * gridDim.x + blockIdx.x];
    }
#pragma unroll
    for (int b = 0; b <= H; b++)
        done[b] = 0;
}

/* Each held splitter as a 32-bit key when the tile's items go by their key
 * alone: the splitter's position lies outside the tile (at[t]'s x is 0, every
 * item of its key at or above it; or the tile's end, none of them, so the next
 * key). An item is then at or above splitter t exactly when its key >= cut[t],
 * and the cuts are sorted as the splitters are. 0 when a splitter's position
 * falls inside the tile, or no key lies above it (the held ones past B - 1). */
static __device__ __forceinline__ int key_cuts(const uint64_t *at, unsigned int *cut, const int H)
{
    int whole = 1;
#pragma unroll
    for (int t = 0; t < H; t++) {
        const unsigned int key = (unsigned int)(at[t] >> SS_TILE_BITS);
        const unsigned int x = (unsigned int)at[t] & ((1u << SS_TILE_BITS) - 1u);
        whole &= x == 0 || (x == SS_TILE && key != 0xFFFFFFFFu);
        cut[t] = x == 0 ? key : key + 1u;
    }
    return whole;
}

/* find_few_buckets for a whole tile cut by keys alone (key_cuts), in half
 * the instructions a key: 32-bit compares, no bucket numbers. The thread
 * counts its items at or above each cut, so its count of bucket b is those at
 * or above cut b - 1 less those at or above cut b. */
static __device__ __forceinline__ void count_by_key(const unsigned int *key, const unsigned int *cut, uint64_t *mine,
                                                    const int H)
{
    unsigned int above[SS_FEW_SPLITS];
#pragma unroll
    for (int t = 0; t < H; t++)
        above[t] = 0;
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++)
#pragma unroll
        for (int t = 0; t < H; t++)
            above[t] += key[j] >= cut[t];
    mine[0] = mine[1] = 0;
#pragma unroll
    for (int b = 0; b <= H; b++)
        add_field(mine, b, (b == 0 ? SS_ITEMS : above[b - 1]) - (b < H ? above[b] : 0), H);
}

/* stage_few for such a tile: each item takes the next place of its bucket,
 * kept one register a bucket (next[b]): the place of the last cut its key
 * reaches. Same places as stage_few's. */
static __device__ __forceinline__ void stage_by_key(const unsigned int *key, const unsigned int *val,
                                                    const unsigned int *cut, const uint64_t *place, const few_smem *s,
                                                    const int has_values, const int H)
{
    unsigned int next[SS_FEW_SPLITS + 1];
#pragma unroll
    for (int b = 0; b <= H; b++)
        next[b] = field_of(place, b, H);
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) {
        unsigned int to = next[0], up[SS_FEW_SPLITS];
#pragma unroll
        for (int t = 0; t < H; t++) {
            up[t] = key[j] >= cut[t];
            to = up[t] ? next[t + 1] : to;
        }
#pragma unroll
        for (int b = 0; b <= H; b++) /* bucket b: at or above cut b - 1, below cut b */
            next[b] += (b == 0 ? 1u : up[b - 1]) - (b < H ? up[b] : 0u);
        s->stage_k[to] = key[j];
        if (has_values)
            s->stage_v[to] = val[j];
    }
}

/* One tile of few buckets staged: by keys alone (count_by_key, stage_by_key;
 * when by_key) if the tile is whole and every splitter leaves it whole, else
 * item by item (find_few_buckets, stage_few); the places from one scan
 * (place_few). The splitters: held (in registers all along), or, when NULL,
 * read from shared memory for the tile (the registers go to the stage).
 * first[b] and total say where bucket b's run of the staged tile lies. */
static __device__ __forceinline__ void stage_few_tile(const unsigned int *key, const unsigned int *val, int64_t pos_lo,
                                                      int tile_n, int B, const ss_held *held, unsigned int *first,
                                                      uint64_t *total, const few_smem *s, const int has_values,
                                                      const int H, const int by_key)
{
    uint64_t at[SS_FEW_SPLITS], mine[2], place[2], buckets = 0;
    unsigned int cut[SS_FEW_SPLITS];
    ss_held h;
    if (held == NULL) {
        const ss_cuts cuts = {.split_key = s->split_key, .split_pos = s->split_pos, .B = B};
        hold_splits(&cuts, &h, H);
        held = &h;
    }
    held_thresholds(held, pos_lo, at, H);
    const int whole = by_key && tile_n == SS_TILE && key_cuts(at, cut, H);
    if (whole)
        count_by_key(key, cut, mine, H);
    else
        buckets = find_few_buckets(key, tile_n, at, B, mine, H);
    place_few(mine, place, total, first, s, H);
    if (whole)
        stage_by_key(key, val, cut, place, s, has_values, H);
    else
        stage_few(key, val, buckets, place, B, s, has_values, H);
}

/* step 9's scatter_body for few buckets: tile by tile, each thread finds its blocked
 * items' buckets and counts them packed; a block scan of the packed words
 * gives each item its place in the staged tile (stable: threads and items in
 * input order); the staged tile goes out bucket by bucket. The next tile is
 * read into the registers the staged one left while it goes out. by_key: a
 * whole tile that no splitter's position falls in (all but a few) is staged
 * by 32-bit compares of its keys (count_by_key, stage_by_key), the splitters then read
 * from shared memory tile by tile. */
static __device__ __forceinline__ void split_few(const unsigned int *keys, const unsigned int *values,
                                                 unsigned int *part_k, unsigned int *part_v, int64_t start, int64_t lo,
                                                 int64_t hi, const ss_cuts *cuts, const uint64_t *row_prefix,
                                                 const int64_t *send_off, const few_smem *s, const int has_values,
                                                 const int H, const int by_key)
{
    const int B = cuts->B;
    unsigned int done[SS_FEW_SPLITS + 1];
    few_start(cuts, row_prefix, send_off, s, done, H);
    ss_held h; /* by key: read tile by tile from shared memory instead */
    if (!by_key)
        hold_splits(cuts, &h, H);
    __syncthreads();
    unsigned int key[SS_ITEMS], val[SS_ITEMS];
    if (lo < hi) {
        load_blocked_tile(keys, lo, (int)min((int64_t)SS_TILE, hi - lo), key);
        if (has_values)
            load_blocked_tile(values, lo, (int)min((int64_t)SS_TILE, hi - lo), val);
    }
    for (int64_t tile_lo = lo; tile_lo < hi; tile_lo += SS_TILE) {
        const int tile_n = (int)min((int64_t)SS_TILE, hi - tile_lo);
        uint64_t total[2];
        unsigned int first[SS_FEW_SPLITS + 1];
        stage_few_tile(key, val, start + tile_lo, tile_n, B, by_key ? NULL : &h, first, total, s, has_values, H,
                       by_key);
        __syncthreads();
        const int64_t next = tile_lo + SS_TILE; /* read while this tile goes out */
        if (next < hi) {
            load_blocked_tile(keys, next, (int)min((int64_t)SS_TILE, hi - next), key);
            if (has_values)
                load_blocked_tile(values, next, (int)min((int64_t)SS_TILE, hi - next), val);
        }
        write_few(s, first, total, done, part_k, part_v, has_values, H);
        __syncthreads(); /* the staged tile and the warps' totals are written again next tile */
    }
}

/* The split in registers, kernels of their own: their
 * registers are not the general split's, and up to 8 buckets (H = 7) take
 * more than up to 4. Register caps, measured on an H200 (2^29 keys a rank):
 * the stage by keys needs about 70 registers for keys (3 blocks an SM: 1.41
 * ms where 4 blocks of the item-by-item stage took 1.63) and more than 80 for
 * pairs (2 blocks: 2.53 ms, where 3 took 2.64 item by item); 8 buckets of
 * pairs by keys spill at 128 (3.75 ms against 3.40), so they go item by item. */
static __device__ __forceinline__ void split_few_body(const unsigned int *keys, const unsigned int *values,
                                                      unsigned int *part_k, unsigned int *part_v, int64_t n,
                                                      int64_t start, int64_t chunk, const ss_cuts *cuts,
                                                      const uint64_t *row_prefix, const int64_t *send_off,
                                                      const int has_values, const int H, const int by_key)
{
    extern __shared__ uint64_t s_mem[];
    few_smem s;
    few_smem_carve(s_mem, cuts->B, has_values, &s);
    const int64_t lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
    split_few(keys, values, part_k, part_v, start, lo, hi, cuts, row_prefix, send_off, &s, has_values, H, by_key);
}

__global__ void __launch_bounds__(SS_BLOCK, 3)
    split_few_keys_kernel(const unsigned int *keys, unsigned int *part_k, int64_t n, int64_t start, int64_t chunk,
                          ss_cuts cuts, const uint64_t *row_prefix, const int64_t *send_off)
{
    split_few_body(keys, NULL, part_k, NULL, n, start, chunk, &cuts, row_prefix, send_off, 0, SS_HELD_SPLITS, 1);
}

__global__ void __launch_bounds__(SS_BLOCK, 2)
    split_few_pairs_kernel(const unsigned int *keys, const unsigned int *values, unsigned int *part_k,
                           unsigned int *part_v, int64_t n, int64_t start, int64_t chunk, ss_cuts cuts,
                           const uint64_t *row_prefix, const int64_t *send_off)
{
    split_few_body(keys, values, part_k, part_v, n, start, chunk, &cuts, row_prefix, send_off, 1, SS_HELD_SPLITS, 1);
}

__global__ void __launch_bounds__(SS_BLOCK, 3)
    split_eight_keys_kernel(const unsigned int *keys, unsigned int *part_k, int64_t n, int64_t start, int64_t chunk,
                            ss_cuts cuts, const uint64_t *row_prefix, const int64_t *send_off)
{
    split_few_body(keys, NULL, part_k, NULL, n, start, chunk, &cuts, row_prefix, send_off, 0, SS_FEW_SPLITS, 1);
}

__global__ void __launch_bounds__(SS_BLOCK, 2)
    split_eight_pairs_kernel(const unsigned int *keys, const unsigned int *values, unsigned int *part_k,
                             unsigned int *part_v, int64_t n, int64_t start, int64_t chunk, ss_cuts cuts,
                             const uint64_t *row_prefix, const int64_t *send_off)
{
    split_few_body(keys, values, part_k, part_v, n, start, chunk, &cuts, row_prefix, send_off, 1, SS_FEW_SPLITS, 0);
}

/* The kernel of the split in registers for B buckets (keys or pairs), and its shared memory. */
static const void *split_few_kernel(int B, int with_values)
{
    if (B <= SS_HELD_SPLITS + 1)
        return with_values ? (const void *)split_few_pairs_kernel : (const void *)split_few_keys_kernel;
    return with_values ? (const void *)split_eight_pairs_kernel : (const void *)split_eight_keys_kernel;
}

static size_t split_few_shared(int B, int with_values)
{
    few_smem s;
    return few_smem_carve(NULL, B, with_values, &s);
}

#endif
