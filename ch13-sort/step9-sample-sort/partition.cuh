/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step9` gives graded hints. */
/* partition.cuh - ch13 step 9's partition kernels: the sample, the count of
 * each block's keys per sub-bucket, its scan, and the stable scatter of the
 * share sub-bucket by sub-bucket (a multi-way split, as Fig 13.6's). Each
 * item's sub-bucket is the cut (plan_bucket_of: a binary search over the
 * splitters; with up to 4 buckets, one compare a splitter on registers) and
 * then the radix cut inside its bucket (plan_fine_of). Up to 8 buckets with
 * no radix cut (two and four GPUs' default) are counted and split in
 * registers instead of shared-memory tables (count_few, split_few). Included by
 * sample_sort.cu. */
#ifndef SS_PARTITION_CUH
#define SS_PARTITION_CUH

#include "onesweep.cuh" /* ch13 step 7's: onesweep_agree_on_bit, its vote */
#include "sample_sort.h"
#include "scan.h"

#define SS_BLOCK   256                   /* threads per block of the count and scatter kernels */
#define SS_ITEMS   16                    /* keys per thread per tile */
#define SS_TILE    (SS_BLOCK * SS_ITEMS) /* keys per tile */
#define SS_WARPS   (SS_BLOCK / 32)
#define SS_SEGMENT (32 * SS_ITEMS) /* a warp's keys of a tile, consecutive */

/* The plan's cuts, as a kernel gets them (the splitters and each bucket's radix cut). */
typedef struct {
    const unsigned int *split_key, *shift, *fine_base;
    const uint64_t *split_pos;
    int B, F;
} ss_cuts;

/* Key i of the sample is the key at position pos[i] of the share; the unused ones sort last. */
__global__ void take_sample_kernel(const unsigned int *keys, const int64_t *pos, int used, int S, unsigned int *sample)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < S)
        sample[i] = i < used ? keys[pos[i]] : 0xFFFFFFFFu;
}

/* ---- shared memory, laid out once for both kernels ---------------------------------- */

/* Carved from the dynamic shared memory in this order (8-byte items first);
 * the count kernel takes the cuts and `hist`, the scatter kernel the rest. */
typedef struct {
    uint64_t *split_pos;             /* [B - 1] */
    uint64_t *run;                   /* [BF]: scatter: where the block's next key of sub-bucket x goes */
    uint64_t *warp_total;            /* [2][SS_WARPS]: scatter, few buckets: each warp's packed counts */
    unsigned int *split_key;         /* [B - 1] */
    unsigned int *shift, *fine_base; /* [B] */
    unsigned int *hist;              /* [BF]: count: the block's keys per sub-bucket */
    unsigned int *warp;              /* [SS_WARPS][BF]: scatter: per-warp counts, then offsets */
    unsigned int *start;             /* [BF + 1]: scatter: the tile's sub-buckets, staged */
    unsigned int *scan;              /* [33]: block_exclusive_scan's */
    unsigned int *stage_k, *stage_v; /* [SS_TILE] each (values: pairs only) */
    unsigned short *stage_b;         /* [SS_TILE]: each staged key's sub-bucket */
} ss_smem;

/* The next part of the shared memory: `bytes` at *used from base, and *used moved on. */
static __host__ __device__ void *ss_take(char *base, size_t *used, size_t bytes)
{
    void *p = base + *used;
    *used += bytes;
    return p;
}

/* Lays ss_smem out from base (NULL: only counts); returns its bytes. */
static __host__ __device__ size_t ss_smem_carve(void *base, int B, int BF, int scatter, int has_values, ss_smem *s)
{
    char *at = (char *)base;
    size_t used = 0;
    const size_t u64 = sizeof(uint64_t), u32 = sizeof(unsigned int);
    s->split_pos = (uint64_t *)ss_take(at, &used, u64 * (size_t)(B - 1));
    s->run = (uint64_t *)ss_take(at, &used, scatter ? u64 * (size_t)BF : 0);
    s->warp_total = (uint64_t *)ss_take(at, &used, scatter ? u64 * 2 * SS_WARPS : 0);
    s->split_key = (unsigned int *)ss_take(at, &used, u32 * (size_t)(B - 1));
    s->shift = (unsigned int *)ss_take(at, &used, u32 * (size_t)B);
    s->fine_base = (unsigned int *)ss_take(at, &used, u32 * (size_t)B);
    s->hist = (unsigned int *)ss_take(at, &used, scatter ? 0 : u32 * (size_t)BF);
    s->warp = (unsigned int *)ss_take(at, &used, scatter ? u32 * SS_WARPS * (size_t)BF : 0);
    s->start = (unsigned int *)ss_take(at, &used, scatter ? u32 * (size_t)(BF + 1) : 0);
    s->scan = (unsigned int *)ss_take(at, &used, scatter ? u32 * 33 : 0);
    s->stage_k = (unsigned int *)ss_take(at, &used, scatter ? u32 * SS_TILE : 0);
    s->stage_v = (unsigned int *)ss_take(at, &used, scatter && has_values ? u32 * SS_TILE : 0);
    s->stage_b = (unsigned short *)ss_take(at, &used, scatter ? sizeof(unsigned short) * SS_TILE : 0);
    return used;
}

/* The cuts to shared memory: every key of a block is searched among them. */
static __device__ __forceinline__ void load_cuts(const ss_cuts *c, const ss_smem *s)
{
    for (int t = threadIdx.x; t < c->B; t += blockDim.x) {
        if (t + 1 < c->B)
            s->split_key[t] = c->split_key[t], s->split_pos[t] = c->split_pos[t];
        s->shift[t] = c->shift[t], s->fine_base[t] = c->fine_base[t];
    }
}

/* A tile's keys (values), warp-striped: item j of lane l of warp w is key
 * w * SS_SEGMENT + j * 32 + l of the tile, so each load is one coalesced
 * line, and a warp's items in (j, lane) order are the tile's in input order. */
static __device__ __forceinline__ void load_share_tile(const unsigned int *keys, const unsigned int *values,
                                                       int64_t tile_lo, int tile_n, unsigned int *key,
                                                       unsigned int *val, const int has_values)
{
    const int base = (threadIdx.x >> 5) * SS_SEGMENT + (threadIdx.x & 31);
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) {
        const int x = base + j * 32;
        key[j] = x < tile_n ? keys[tile_lo + x] : 0;
        if (has_values)
            val[j] = x < tile_n ? values[tile_lo + x] : 0;
    }
}

#define SS_HELD_SPLITS 3 /* up to 4 buckets (two GPUs, two chunks each): the splitters held in registers */
#define SS_FEW_SPLITS  7 /* up to 8 buckets (four GPUs): held too, where counted and split in registers */

/* The splitters as each thread holds them when there are few (B <= 4, or 8
 * for count_few and split_few), so that finding a bucket reads no memory;
 * the ones past B - 1 are the largest item, which no item reaches. H, here
 * and below, is how many are held: SS_HELD_SPLITS or SS_FEW_SPLITS. */
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
 * item (key, position) does inside the tile: key << 13 | x (x < 8192: a
 * tile of the split, SS_TILE, or of the fine split, ONESWEEP_TILE). */
#define SS_TILE_BITS 13
static __device__ __forceinline__ uint64_t tile_item(unsigned int key, int x)
{
    return (uint64_t)key << SS_TILE_BITS | (unsigned int)x;
}

/* Each held splitter as the least tile item at or above it: splitter t is <=
 * item x exactly when tile_item(key, x) >= at[t], one 64-bit compare. */
static __device__ __forceinline__ void held_thresholds(const ss_held *h, int64_t pos_lo, uint64_t *at, const int H,
                                                       const unsigned int tile)
{
#pragma unroll
    for (int t = 0; t < H; t++) {
        const uint64_t p = h->pos[t], lo = (uint64_t)pos_lo; /* the tile's items of key[t] from x on */
        const unsigned int x = p <= lo ? 0 : p - lo >= (uint64_t)tile ? tile : (unsigned int)(p - lo);
        at[t] = ((uint64_t)h->key[t] << SS_TILE_BITS) + x; /* x = tile: none, the next key's first */
    }
}

/* The bucket of a tile item among held splitters: how many are <= it. */
static __device__ __forceinline__ int held_bucket(uint64_t item, const uint64_t *at, const int H)
{
    int b = 0;
#pragma unroll
    for (int t = 0; t < H; t++)
        b += item >= at[t]; /* splitter t <= the item */
    return b;
}

/* Each item's sub-bucket: its bucket (the cut on the item (key, global
 * position): plan_bucket_of's binary search over the splitters in shared
 * memory, or, for B <= 4, the count of held splitters <= the item, the same
 * answer since they are sorted), then the radix cut inside it; BF for the
 * tile's missing items. */
static __device__ __forceinline__ void find_sub_buckets(const unsigned int *key, int64_t pos_lo, int tile_n,
                                                        const ss_held *h, const ss_smem *s, int B, int F, int *sub)
{
    const int base = (threadIdx.x >> 5) * SS_SEGMENT + (threadIdx.x & 31), held = B <= SS_HELD_SPLITS + 1;
    uint64_t at[SS_HELD_SPLITS];
    held_thresholds(h, pos_lo, at, SS_HELD_SPLITS, SS_TILE);
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) {
        const int x = base + j * 32;
        int b = 0;
        if (held)
            b = held_bucket(tile_item(key[j], x), at, SS_HELD_SPLITS);
        else if (x < tile_n)
            b = plan_bucket_of(key[j], (uint64_t)(pos_lo + x), s->split_key, s->split_pos, B - 1);
        const int f = F > 1 ? plan_fine_of(key[j], s->shift[b], s->fine_base[b]) : 0; /* one sub-bucket: no cut */
        sub[j] = x < tile_n ? b * F + f : B * F;
    }
}

/* ---- count ------------------------------------------------------------------------------ */

#define SS_VOTE_BITS 4 /* sub-buckets 0 .. 15 found by votes; more by the match instruction */

/* The lanes of this warp whose sub-bucket is this lane's: what
 * __match_any_sync(0xffffffff, x) returns. Under 16 sub-buckets (the missing
 * item's BF counted), from one vote per bit of x (three under 8; step 7's
 * onesweep_agree_on_bit): a few votes cost less than the match instruction
 * (CUB's MatchAny says the same), whose cost does not shrink with the
 * sub-buckets. */
static __device__ __forceinline__ unsigned int ss_peers_of(unsigned int x, int BF)
{
    if (BF >= (1 << SS_VOTE_BITS))
        return __match_any_sync(0xffffffffu, x);
    unsigned int peers = onesweep_agree_on_bit(x, 0) & onesweep_agree_on_bit(x, 1) & onesweep_agree_on_bit(x, 2);
    return BF >= 8 ? peers & onesweep_agree_on_bit(x, 3) : peers;
}

#define SS_PACKED_SUBS 8 /* up to 8 sub-buckets: a thread counts a tile in two words, 8 bits a sub-bucket */

/* The four 8-bit counts of a word summed over the warp: the even and the odd
 * bytes apart, as 16-bit fields, so 32 lanes x 16 items fit; lane 0 adds them. */
static __device__ __forceinline__ void add_packed(unsigned int w, int first, int BF, unsigned int *s_hist)
{
    unsigned int even = w & 0x00FF00FFu, odd = (w >> 8) & 0x00FF00FFu;
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) {
        even += __shfl_xor_sync(0xffffffffu, even, d);
        odd += __shfl_xor_sync(0xffffffffu, odd, d);
    }
    if ((threadIdx.x & 31) == 0)
        for (int x = first; x < first + 4 && x < BF; x++) {
            const unsigned int field = ((x & 1) ? odd : even) >> (16 * ((x & 3) >> 1));
            atomicAdd(&s_hist[x], field & 0xffffu);
        }
}

/* count_tile for few sub-buckets (BF <= 8): each item adds one to its
 * sub-bucket's 8-bit field of two words (a shift and an add, no vote), the
 * fields are summed over the warp, and lane 0 adds the warp's counts. */
static __device__ __forceinline__ void count_tile_packed(const int *sub, int BF, unsigned int *s_hist)
{
    unsigned int low = 0, high = 0; /* sub-buckets 0 .. 3, 4 .. 7: at most 16 items each */
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) { /* a missing item (sub-bucket BF) lands in a field add_packed skips */
        const unsigned int one = 1u << ((sub[j] & 3) << 3);
        low += sub[j] < 4 ? one : 0;
        high += sub[j] >= 4 && sub[j] < BF ? one : 0; /* BF = 8: its field would be sub-bucket 4's */
    }
    add_packed(low, 0, BF, s_hist);
    if (BF > 4)
        add_packed(high, 4, BF, s_hist);
}

/* The tile's items added to the block's count of their sub-bucket (s_hist). */
static __device__ __forceinline__ void count_tile(const int *sub, int BF, unsigned int *s_hist)
{
    /* TODO(1): count_tile(), the counts: add each of the thread's SS_ITEMS items to s_hist[its
       sub-bucket] in shared memory (sub-bucket BF: a missing item, not counted) */
}

/* ---- few buckets, no radix cut: counted and split in registers ----------------------- */

/* The default on two and four GPUs (two chunks each): up to 8 buckets,
 * their splitters held in registers, one sub-bucket each. The count and the
 * scatter then need no per-tile table in shared memory, no votes and no
 * atomics: each thread keeps its counts in registers (count_few,
 * split_few), H = 3 splitters for up to 4 buckets, 7 for up to 8. Not while
 * a TODO of the step is open: then every split runs count_tile and
 * rank_in_warp, so a student's code runs, and is checked, in every
 * configuration. ss_few_held says which: the splitters a split holds (0:
 * the tables' split); the count and the scatter pick their kernels by it,
 * so the two always take the same path. */
static int ss_held_splits(int B)
{
    if (B > SS_FEW_SPLITS + 1 || lab_todo_note()[0] != '\0')
        return 0;
    return B <= SS_HELD_SPLITS + 1 ? SS_HELD_SPLITS : SS_FEW_SPLITS;
}

static int ss_few_held(int B, int F)
{
    return F == 1 ? ss_held_splits(B) : 0;
}

/* The fine split (the radix cut on, F > 1): with at most ONESWEEP_RADIX
 * sub-buckets in all and up to 8 buckets, their splitters held as the few
 * buckets' are (ss_held_splits), a key's sub-bucket is one 8-bit digit, so
 * each tile is split as one pass of step 7 splits it (per-warp counts and
 * eight votes, not the match instruction: split_fine below) and counted with
 * one shared atomic a key. Not while a TODO of the step is open. */
#define SS_FINE (-1) /* count_body's H for the fine split's count */
static int ss_fine_split(int B, int F)
{
    return F > 1 && B * F <= ONESWEEP_RADIX && ss_held_splits(B) > 0;
}

/* count_tile for the fine split: one shared atomic a key (sub-bucket BF: a missing item). */
static __device__ __forceinline__ void count_tile_atomic(const int *sub, int BF, unsigned int *s_hist)
{
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++)
        if (sub[j] < BF)
            atomicAdd(&s_hist[sub[j]], 1u);
}

/* count_tile for few buckets: each thread counts, over all of the block's
 * tiles, its items at or above each held splitter; bucket b holds those at or
 * above splitter b - 1 less those at or above splitter b. Then the block's
 * sums to s_hist[0 .. B-1] as counts per bucket. */
static __device__ __forceinline__ void count_few(const unsigned int *keys, int64_t start, int64_t lo, int64_t hi,
                                                 const ss_cuts *cuts, unsigned int *s_hist, const int H)
{
    unsigned int above[SS_FEW_SPLITS] = {0};
    const int base = (threadIdx.x >> 5) * SS_SEGMENT + (threadIdx.x & 31), B = cuts->B;
    ss_held h;
    hold_splits(cuts, &h, H);
    for (int64_t tile_lo = lo; tile_lo < hi; tile_lo += SS_TILE) {
        const int tile_n = (int)min((int64_t)SS_TILE, hi - tile_lo);
        unsigned int key[SS_ITEMS];
        uint64_t at[SS_FEW_SPLITS];
        load_share_tile(keys, NULL, tile_lo, tile_n, key, NULL, 0);
        held_thresholds(&h, start + tile_lo, at, H, SS_TILE);
#pragma unroll
        for (int j = 0; j < SS_ITEMS; j++) {
            const int x = base + j * 32;
            const uint64_t item = tile_item(key[j], x);
#pragma unroll
            for (int t = 0; t < H; t++)
                above[t] += x < tile_n && item >= at[t]; /* splitter t <= the item */
        }
    }
#pragma unroll
    for (int t = 0; t < H; t++) { /* the warp's sums, then the block's */
        for (int d = 16; d > 0; d >>= 1)
            above[t] += __shfl_xor_sync(0xffffffffu, above[t], d);
        if ((threadIdx.x & 31) == 0 && t + 1 < B)
            atomicAdd(&s_hist[t], above[t]);
    }
    __syncthreads();
    const int b = threadIdx.x;
    const unsigned int in_b =
        b < B ? (b == 0 ? (unsigned int)(hi - lo) : s_hist[b - 1]) - (b + 1 < B ? s_hist[b] : 0) : 0;
    __syncthreads();
    if (b < B)
        s_hist[b] = in_b;
}

/* count_buckets: block b counts its chunk's keys per sub-bucket; the table is
 * sub-bucket-major (row = sub-bucket, column = block), as Fig 13.6's. H = 0:
 * tile by tile (count_tile); SS_FINE: the same, one atomic a key; H > 0: few
 * buckets, H splitters held (count_few). */
static __device__ __forceinline__ void count_body(const unsigned int *keys, int64_t n, int64_t start, int64_t chunk,
                                                  const ss_cuts *cuts, unsigned int *table, const int H)
{
    extern __shared__ uint64_t s_mem[];
    ss_smem s;
    const int BF = cuts->B * cuts->F;
    ss_smem_carve(s_mem, cuts->B, BF, 0, 0, &s);
    for (int x = threadIdx.x; x < BF; x += blockDim.x)
        s.hist[x] = 0;
    const int64_t lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
    if (H > 0) {
        __syncthreads();
        count_few(keys, start, lo, hi, cuts, s.hist, H);
    } else {
        load_cuts(cuts, &s);
        ss_held h;
        hold_splits(cuts, &h, SS_HELD_SPLITS);
        __syncthreads();
        for (int64_t tile_lo = lo; tile_lo < hi; tile_lo += SS_TILE) {
            const int tile_n = (int)min((int64_t)SS_TILE, hi - tile_lo);
            unsigned int key[SS_ITEMS];
            int sub[SS_ITEMS];
            load_share_tile(keys, NULL, tile_lo, tile_n, key, NULL, 0);
            find_sub_buckets(key, start + tile_lo, tile_n, &h, &s, cuts->B, cuts->F, sub);
            if (H == SS_FINE)
                count_tile_atomic(sub, BF, s.hist);
            else
                count_tile(sub, BF, s.hist);
        }
    }
    __syncthreads();
    for (int x = threadIdx.x; x < BF; x += blockDim.x)
        table[(size_t)x * gridDim.x + blockIdx.x] = s.hist[x];
}

__global__ void count_kernel(const unsigned int *keys, int64_t n, int64_t start, int64_t chunk, ss_cuts cuts,
                             unsigned int *table)
{
    count_body(keys, n, start, chunk, &cuts, table, 0);
}

/* register caps: as many blocks a SM as the split that follows (split_few_keys_kernel, split_eight_keys_kernel) */
__global__ void __launch_bounds__(SS_BLOCK, 4) count_fine_kernel(const unsigned int *keys, int64_t n, int64_t start,
                                                                 int64_t chunk, ss_cuts cuts, unsigned int *table)
{
    count_body(keys, n, start, chunk, &cuts, table, SS_FINE);
}

__global__ void __launch_bounds__(SS_BLOCK, 3) count_few_kernel(const unsigned int *keys, int64_t n, int64_t start,
                                                                int64_t chunk, ss_cuts cuts, unsigned int *table)
{
    count_body(keys, n, start, chunk, &cuts, table, SS_HELD_SPLITS);
}

__global__ void __launch_bounds__(SS_BLOCK, 3) count_eight_kernel(const unsigned int *keys, int64_t n, int64_t start,
                                                                  int64_t chunk, ss_cuts cuts, unsigned int *table)
{
    count_body(keys, n, start, chunk, &cuts, table, SS_FEW_SPLITS);
}

/* The count kernel for B buckets of F sub-buckets each. */
static const void *ss_count_kernel(int B, int F)
{
    if (ss_fine_split(B, F))
        return (const void *)count_fine_kernel;
    const int H = ss_few_held(B, F);
    return H == 0                ? (const void *)count_kernel
           : H == SS_HELD_SPLITS ? (const void *)count_few_kernel
                                 : (const void *)count_eight_kernel;
}

/* Row x of the table, one warp per sub-bucket: where each block's keys of it
 * start inside it, and its total, in 64 bits (a share above 2^32 keys). Each
 * lane adds up a run of columns; a shuffle scan over the lanes' sums gives
 * each run's start. */
__global__ void scan_table_kernel(const unsigned int *table, int cols, uint64_t *row_prefix, uint64_t *totals)
{
    const unsigned int lane = threadIdx.x;
    const unsigned int *row = table + (size_t)blockIdx.x * cols;
    const int per = (cols + 31) / 32, lo = (int)lane * per, hi = min(cols, lo + per);
    uint64_t sum = 0;
    for (int c = lo; c < hi; c++)
        sum += row[c];
    uint64_t upto = sum; /* this lane's run and the runs of the lanes before it */
    for (unsigned int d = 1; d < 32; d <<= 1) {
        const uint64_t earlier = __shfl_up_sync(0xffffffffu, upto, d);
        upto += lane >= d ? earlier : 0;
    }
    uint64_t at = upto - sum;
    for (int c = lo; c < hi; c++) {
        row_prefix[(size_t)blockIdx.x * cols + c] = at;
        at += row[c];
    }
    if (lane == 31)
        totals[blockIdx.x] = upto;
}

/* ---- scatter: a stable multi-way split, tile by tile ----------------------------------- */

/* Each item's rank among the warp's items of its sub-bucket, in input order
 * (items j, then lanes), and the warp's count of each sub-bucket moved on.
 * The rank joins the sub-bucket in one register: tag = sub-bucket << 16 | rank. */
static __device__ __forceinline__ void rank_in_warp(int *tag, int BF, unsigned int *warp_counts)
{
    const unsigned int lane = threadIdx.x & 31;
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) {
        const int x = tag[j];
        /* TODO(2): rank_in_warp(), the stable split: item j of this lane gets rank = the warp's
           items of sub-bucket x before it (warp_counts[x], from items 0 .. j-1) + the lanes below
           this one with the same x at item j; then the warp's count of x grows by its lanes with x,
           and tag[j] = x << 16 | rank; x == BF is a missing item: no count */
        tag[j] = x << 16;
    }
}

/* Per sub-bucket, the warps' counts become each warp's offset inside the
 * tile's sub-bucket; then the sub-buckets' sizes become their places in the
 * staged tile (start[x]; start[BF] = the tile's keys). */
static __device__ __forceinline__ void place_sub_buckets(const ss_smem *s, int BF)
{
    for (int x = threadIdx.x; x < BF; x += blockDim.x) {
        unsigned int run = 0;
        for (int w = 0; w < SS_WARPS; w++) {
            const unsigned int c = s->warp[w * BF + x];
            s->warp[w * BF + x] = run;
            run += c;
        }
        s->start[x] = run;
    }
    __syncthreads();
    const int per = (BF + blockDim.x - 1) / blockDim.x, lo = threadIdx.x * per; /* per <= 4: BF <= 1024 */
    unsigned int mine[4], sum = 0, total;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        mine[i] = i < per && lo + i < BF ? s->start[lo + i] : 0;
        sum += mine[i];
    }
    unsigned int at = block_exclusive_scan(sum, &total, s->scan);
#pragma unroll
    for (int i = 0; i < 4; i++)
        if (i < per && lo + i < BF) {
            s->start[lo + i] = at;
            at += mine[i];
        }
    if (threadIdx.x == 0)
        s->start[BF] = total;
}

/* Each item to its place in the staged tile: its sub-bucket's start, its
 * warp's offset in it, its rank in the warp. */
static __device__ __forceinline__ void stage_tile(const unsigned int *key, const unsigned int *val, const int *tag,
                                                  int BF, const ss_smem *s, const int has_values)
{
    const int warp = threadIdx.x >> 5;
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) {
        const int x = tag[j] >> 16;
        if (x < BF) {
            const unsigned int at = s->start[x] + s->warp[warp * BF + x] + (tag[j] & 0xffff);
            s->stage_k[at] = key[j];
            if (has_values)
                s->stage_v[at] = val[j];
            s->stage_b[at] = (unsigned short)x;
        }
    }
}

/* The staged tile out, each sub-bucket's keys to consecutive addresses of part. */
static __device__ __forceinline__ void write_tile(const ss_smem *s, int tile_n, unsigned int *part_k,
                                                  unsigned int *part_v, const int has_values)
{
    for (int i = threadIdx.x; i < tile_n; i += blockDim.x) {
        const int x = s->stage_b[i];
        const uint64_t at = s->run[x] + (unsigned int)(i - s->start[x]);
        part_k[at] = s->stage_k[i];
        if (has_values)
            part_v[at] = s->stage_v[i];
    }
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

/* The bins' way (plan_bin_splitters) is the count's when it can be: with no
 * TODO open (the tables' count is the exercise), whole chunks, and at most
 * SS_BIN_BUCKETS buckets. */
#define SS_BIN_BUCKETS 64
static int ss_bins_path(const ss_config *c)
{
    return c->bin_splitters && c->F == 1 && c->G * c->K > 1 && c->G * c->K <= SS_BIN_BUCKETS &&
           lab_todo_note()[0] == '\0';
}

/* Each block's keys per bin (plan_bin_of) over its chunk of the share, as the
 * count's blocks take them: its row of block_bins, and added to the rank's
 * bins. One shared atomic a key. */
__global__ void __launch_bounds__(SS_BLOCK)
    count_bins_kernel(const unsigned int *keys, int64_t n, int64_t chunk, unsigned int *block_bins, unsigned int *bins)
{
    __shared__ unsigned int s_bins[PLAN_BINS];
    for (int i = threadIdx.x; i < PLAN_BINS; i += blockDim.x)
        s_bins[i] = 0;
    __syncthreads();
    const int64_t lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
    unsigned int key[SS_ITEMS], next[SS_ITEMS];
    if (lo < hi)
        load_blocked_tile(keys, lo, (int)min((int64_t)SS_TILE, hi - lo), key);
    for (int64_t tile_lo = lo; tile_lo < hi; tile_lo += SS_TILE) {
        const int tile_n = (int)min((int64_t)SS_TILE, hi - tile_lo);
        if (tile_lo + SS_TILE < hi) /* the next tile in flight while this one is counted */
            load_blocked_tile(keys, tile_lo + SS_TILE, (int)min((int64_t)SS_TILE, hi - tile_lo - SS_TILE), next);
#pragma unroll
        for (int j = 0; j < SS_ITEMS; j++) {
            if (threadIdx.x * SS_ITEMS + j < tile_n)
                atomicAdd(&s_bins[plan_bin_of(key[j])], 1u);
            key[j] = next[j];
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < PLAN_BINS; i += blockDim.x) {
        const unsigned int c = s_bins[i];
        block_bins[(size_t)blockIdx.x * PLAN_BINS + i] = c;
        if (c != 0)
            atomicAdd(&bins[i], c);
    }
}

/* The count's table (bucket-major, a column per block) from the blocks' bins:
 * bucket b of block c holds its bins [first_bin[b], first_bin[b + 1]). */
__global__ void __launch_bounds__(SS_BLOCK)
    bins_table_kernel(const unsigned int *block_bins, const int *first_bin, int B, unsigned int *table)
{
    __shared__ unsigned int s_sum[SS_BIN_BUCKETS];
    for (int b = threadIdx.x; b < B; b += blockDim.x)
        s_sum[b] = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < PLAN_BINS; i += blockDim.x) {
        int b = 0;
        while (b + 1 < B && i >= first_bin[b + 1])
            b++;
        const unsigned int c = block_bins[(size_t)blockIdx.x * PLAN_BINS + i];
        if (c != 0)
            atomicAdd(&s_sum[b], c);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < B; b += blockDim.x)
        table[(size_t)b * gridDim.x + blockIdx.x] = s_sum[b];
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
                                                 unsigned int *first, const ss_smem *s, const int H)
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
                                                 uint64_t *place, int B, const ss_smem *s, const int has_values,
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
static __device__ __forceinline__ void write_few(const ss_smem *s, const unsigned int *first, const uint64_t *total,
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
                                                 const int64_t *send_off, const ss_smem *s, unsigned int *done,
                                                 const int H)
{
    load_cuts(cuts, s);
    for (int b = threadIdx.x; b < cuts->B; b += blockDim.x)
        s->run[b] = (uint64_t)send_off[b] + row_prefix[(size_t)b * gridDim.x + blockIdx.x];
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
                                                    const unsigned int *cut, const uint64_t *place, const ss_smem *s,
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
                                                      uint64_t *total, const ss_smem *s, const int has_values,
                                                      const int H, const int by_key)
{
    uint64_t at[SS_FEW_SPLITS], mine[2], place[2], buckets = 0;
    unsigned int cut[SS_FEW_SPLITS];
    ss_held h;
    if (held == NULL) {
        const ss_cuts cuts = {s->split_key, s->shift, s->fine_base, s->split_pos, B, 1};
        hold_splits(&cuts, &h, H);
        held = &h;
    }
    held_thresholds(held, pos_lo, at, H, SS_TILE);
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

/* scatter_body for few buckets: tile by tile, each thread finds its blocked
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
                                                 const int64_t *send_off, const ss_smem *s, const int has_values,
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

/* Block b rewrites its chunk of the share sub-bucket by sub-bucket: tile by
 * tile, each tile split stably in shared memory (rank_in_warp,
 * place_sub_buckets, stage_tile), then written where the block's keys of each
 * sub-bucket go (write_tile: send_off + the block's row prefix + what its
 * earlier tiles wrote). */
static __device__ __forceinline__ void scatter_body(const unsigned int *keys, const unsigned int *values,
                                                    unsigned int *part_k, unsigned int *part_v, int64_t n,
                                                    int64_t start, int64_t chunk, const ss_cuts *cuts,
                                                    const uint64_t *row_prefix, const int64_t *send_off,
                                                    const int has_values)
{
    extern __shared__ uint64_t s_mem[];
    ss_smem s;
    const int BF = cuts->B * cuts->F;
    ss_smem_carve(s_mem, cuts->B, BF, 1, has_values, &s);
    load_cuts(cuts, &s);
    ss_held h;
    hold_splits(cuts, &h, SS_HELD_SPLITS);
    for (int x = threadIdx.x; x < BF; x += blockDim.x)
        s.run[x] = (uint64_t)send_off[x] + row_prefix[(size_t)x * gridDim.x + blockIdx.x];
    const int64_t lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
    unsigned int key[SS_ITEMS], val[SS_ITEMS];
    if (lo < hi)
        load_share_tile(keys, values, lo, (int)min((int64_t)SS_TILE, hi - lo), key, val, has_values);
    for (int64_t tile_lo = lo; tile_lo < hi; tile_lo += SS_TILE) {
        const int tile_n = (int)min((int64_t)SS_TILE, hi - tile_lo);
        for (int i = threadIdx.x; i < SS_WARPS * BF; i += blockDim.x)
            s.warp[i] = 0;
        __syncthreads(); /* counts zeroed, cuts loaded (and the last tile written) */
        int tag[SS_ITEMS];
        find_sub_buckets(key, start + tile_lo, tile_n, &h, &s, cuts->B, cuts->F, tag);
        rank_in_warp(tag, BF, s.warp + (threadIdx.x >> 5) * BF);
        __syncthreads();
        place_sub_buckets(&s, BF);
        __syncthreads();
        stage_tile(key, val, tag, BF, &s, has_values);
        __syncthreads();
        const int64_t next = tile_lo + SS_TILE; /* read while this tile goes out */
        if (next < hi)
            load_share_tile(keys, values, next, (int)min((int64_t)SS_TILE, hi - next), key, val, has_values);
        write_tile(&s, tile_n, part_k, part_v, has_values);
        __syncthreads(); /* s.run is read above, moved on below */
        for (int x = threadIdx.x; x < BF; x += blockDim.x)
            s.run[x] += s.start[x + 1] - s.start[x];
    }
}

/* register caps: 4 (keys) or 3 (pairs) blocks of 256 threads per SM, without spills (-Xptxas -v) */
__global__ void __launch_bounds__(SS_BLOCK, 4)
    scatter_keys_kernel(const unsigned int *keys, unsigned int *part_k, int64_t n, int64_t start, int64_t chunk,
                        ss_cuts cuts, const uint64_t *row_prefix, const int64_t *send_off)
{
    scatter_body(keys, NULL, part_k, NULL, n, start, chunk, &cuts, row_prefix, send_off, 0);
}

__global__ void __launch_bounds__(SS_BLOCK, 3)
    scatter_pairs_kernel(const unsigned int *keys, const unsigned int *values, unsigned int *part_k,
                         unsigned int *part_v, int64_t n, int64_t start, int64_t chunk, ss_cuts cuts,
                         const uint64_t *row_prefix, const int64_t *send_off)
{
    scatter_body(keys, values, part_k, part_v, n, start, chunk, &cuts, row_prefix, send_off, 1);
}

/* The scatter for few buckets (ss_few_held), kernels of their own: their
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
    ss_smem s;
    ss_smem_carve(s_mem, cuts->B, cuts->B, 1, has_values, &s);
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

/* ---- the fine split: up to 256 sub-buckets, a tile split as step 7 splits it ---------- */

/* The shared memory of the fine split beyond its static arrays: the staged
 * tile's keys (and values), then each staged key's sub-bucket. */
static size_t fine_shared_bytes(int has_values)
{
    return (sizeof(unsigned int) * (has_values ? 2 : 1) + 1) * (size_t)ONESWEEP_TILE;
}

/* The sub-bucket of each of this thread's items of the tile (step 7's
 * warp-striped order: item u is the tile's key first + 32 u), or, for a
 * missing item, ONESWEEP_RADIX - 1: step 7's padding digit, ranked last. */
static __device__ __forceinline__ void fine_subs(const unsigned int *key, int64_t pos_lo, unsigned int valid,
                                                 const ss_held *h, const unsigned int *s_shift,
                                                 const unsigned int *s_base, int F, unsigned int *sub, const int H)
{
    const unsigned int first = onesweep_first_key();
    uint64_t at[SS_FEW_SPLITS];
    held_thresholds(h, pos_lo, at, H, ONESWEEP_TILE);
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++) {
        const unsigned int x = first + u * 32;
        const int b = held_bucket(tile_item(key[u], x), at, H);
        sub[u] = x < valid ? b * F + plan_fine_of(key[u], s_shift[b], s_base[b]) : ONESWEEP_RADIX - 1;
    }
}

/* The tile sorted by sub-bucket into shared memory (step 7's count, place and
 * rank, on the sub-bucket as the digit: stable), each key's sub-bucket beside
 * it, its value read only now (fewer registers held through the rank);
 * returns this thread's sub-bucket's count (thread d: sub-bucket d) and sets
 * *start, its first place in the staged tile. */
static __device__ __forceinline__ unsigned int fine_stage(const unsigned int *key, const unsigned int *values,
                                                          unsigned int valid, unsigned int *sub, unsigned int *s_warp,
                                                          unsigned int *s_scan, unsigned int *s_key,
                                                          unsigned int *s_val, unsigned char *s_sub,
                                                          unsigned int *start, const int has_values)
{
    unsigned int rank[ONESWEEP_KEYS_PER_THREAD];
    const unsigned int count = onesweep_count_digits(sub, 0, s_warp, NULL, ONESWEEP_TILE);
    *start = onesweep_place_digits(count, s_warp, s_scan);
    onesweep_rank_tile(sub, rank, 0, s_warp + threadIdx.x / 32 * ONESWEEP_RADIX);
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++) {
        s_key[rank[u]] = key[u];
        s_sub[rank[u]] = (unsigned char)sub[u];
    }
    if (has_values) {
        unsigned int val[ONESWEEP_KEYS_PER_THREAD];
        onesweep_load_tile(values, 0, valid, val, 0);
#pragma unroll
        for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)
            s_val[rank[u]] = val[u];
    }
    return count;
}

/* The staged tile out, sub-bucket by sub-bucket: staged key i of sub-bucket d
 * goes to s_off[d] + i (consecutive threads, consecutive addresses). */
static __device__ __forceinline__ void fine_write(const unsigned int *s_key, const unsigned int *s_val,
                                                  const unsigned char *s_sub, const int64_t *s_off, unsigned int valid,
                                                  unsigned int *part_k, unsigned int *part_v, const int has_values)
{
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++) {
        const unsigned int i = u * ONESWEEP_THREADS + threadIdx.x;
        if (i < valid) {
            const int64_t at = s_off[s_sub[i]] + i;
            part_k[at] = s_key[i];
            if (has_values)
                part_v[at] = s_val[i];
        }
    }
}

/* scatter_body for the fine split: block b's chunk, tile by tile (step 7's
 * tiles), each tile sorted by sub-bucket in shared memory (fine_stage) and
 * written from the block's cursor of each sub-bucket (the count's row prefix,
 * as scatter_body's: no look-back), which thread d keeps for sub-bucket d. */
static __device__ __forceinline__ void split_fine(const unsigned int *keys, const unsigned int *values,
                                                  unsigned int *part_k, unsigned int *part_v, int64_t n, int64_t start,
                                                  int64_t chunk, const ss_cuts *cuts, const uint64_t *row_prefix,
                                                  const int64_t *send_off, const int has_values, const int H)
{
    extern __shared__ unsigned int s_fine[]; /* keys [ONESWEEP_TILE], values [ONESWEEP_TILE], sub-buckets */
    __shared__ unsigned int s_warp[ONESWEEP_WARPS * ONESWEEP_RADIX], s_scan[ONESWEEP_RADIX / 32];
    __shared__ unsigned int s_shift[SS_FEW_SPLITS + 1], s_base[SS_FEW_SPLITS + 1];
    __shared__ int64_t s_off[ONESWEEP_RADIX];
    unsigned int *s_val = s_fine + ONESWEEP_TILE;
    unsigned char *s_sub = (unsigned char *)(s_fine + (has_values ? 2 : 1) * ONESWEEP_TILE);
    const int BF = cuts->B * cuts->F, d = threadIdx.x;
    if (d < cuts->B)
        s_shift[d] = cuts->shift[d], s_base[d] = cuts->fine_base[d];
    ss_held h;
    hold_splits(cuts, &h, H);
    int64_t cursor = d < BF ? send_off[d] + (int64_t)row_prefix[(size_t)d * gridDim.x + blockIdx.x] : 0;
    __syncthreads();
    const int64_t lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
    for (int64_t tile_lo = lo; tile_lo < hi; tile_lo += ONESWEEP_TILE) {
        const unsigned int valid = (unsigned int)min((int64_t)ONESWEEP_TILE, hi - tile_lo);
        unsigned int key[ONESWEEP_KEYS_PER_THREAD], sub[ONESWEEP_KEYS_PER_THREAD], first = 0;
        onesweep_load_tile(keys + tile_lo, 0, valid, key, 0xffffffffu);
        fine_subs(key, start + tile_lo, valid, &h, s_shift, s_base, cuts->F, sub, H);
        const unsigned int count = fine_stage(key, has_values ? values + tile_lo : NULL, valid, sub, s_warp, s_scan,
                                              s_fine, s_val, s_sub, &first, has_values);
        if (d < ONESWEEP_RADIX) /* a short tile's padding counts in sub-bucket 255: only the block's last, whose
                                   cursors are not used again */
            s_off[d] = cursor - first;
        __syncthreads();
        fine_write(s_fine, s_val, s_sub, s_off, valid, part_k, part_v, has_values);
        cursor += d < ONESWEEP_RADIX ? count : 0;
        __syncthreads(); /* the staged tile and s_off are written again next tile */
    }
}

/* registers: as step 7's pass, on its tile (ONESWEEP_MIN_BLOCKS for keys, _PAIRS for pairs) */
__global__ void __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS)
    split_fine_keys_kernel(const unsigned int *keys, unsigned int *part_k, int64_t n, int64_t start, int64_t chunk,
                           ss_cuts cuts, const uint64_t *row_prefix, const int64_t *send_off)
{
    split_fine(keys, NULL, part_k, NULL, n, start, chunk, &cuts, row_prefix, send_off, 0, SS_HELD_SPLITS);
}

__global__ void __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS_PAIRS)
    split_fine_pairs_kernel(const unsigned int *keys, const unsigned int *values, unsigned int *part_k,
                            unsigned int *part_v, int64_t n, int64_t start, int64_t chunk, ss_cuts cuts,
                            const uint64_t *row_prefix, const int64_t *send_off)
{
    split_fine(keys, values, part_k, part_v, n, start, chunk, &cuts, row_prefix, send_off, 1, SS_HELD_SPLITS);
}

__global__ void __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS)
    split_fine8_keys_kernel(const unsigned int *keys, unsigned int *part_k, int64_t n, int64_t start, int64_t chunk,
                            ss_cuts cuts, const uint64_t *row_prefix, const int64_t *send_off)
{
    split_fine(keys, NULL, part_k, NULL, n, start, chunk, &cuts, row_prefix, send_off, 0, SS_FEW_SPLITS);
}

__global__ void __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS_PAIRS)
    split_fine8_pairs_kernel(const unsigned int *keys, const unsigned int *values, unsigned int *part_k,
                             unsigned int *part_v, int64_t n, int64_t start, int64_t chunk, ss_cuts cuts,
                             const uint64_t *row_prefix, const int64_t *send_off)
{
    split_fine(keys, values, part_k, part_v, n, start, chunk, &cuts, row_prefix, send_off, 1, SS_FEW_SPLITS);
}

/* The scatter's block and its dynamic shared memory (size_grid, scatter_buckets). */
static int ss_scatter_block(int B, int F)
{
    return ss_fine_split(B, F) ? ONESWEEP_THREADS : SS_BLOCK;
}

static size_t ss_scatter_shared(int B, int F, int has_values)
{
    ss_smem s;
    return ss_fine_split(B, F) ? fine_shared_bytes(has_values) : ss_smem_carve(NULL, B, B * F, 1, has_values, &s);
}

/* The scatter kernel a split runs (size_grid sizes its grid by it): pairs or keys, few buckets or not. */
static const void *ss_scatter_kernel(int B, int F, int has_values)
{
    if (ss_fine_split(B, F)) {
        if (ss_held_splits(B) == SS_HELD_SPLITS)
            return has_values ? (const void *)split_fine_pairs_kernel : (const void *)split_fine_keys_kernel;
        return has_values ? (const void *)split_fine8_pairs_kernel : (const void *)split_fine8_keys_kernel;
    }
    const int H = ss_few_held(B, F);
    if (H == 0)
        return has_values ? (const void *)scatter_pairs_kernel : (const void *)scatter_keys_kernel;
    if (H == SS_HELD_SPLITS)
        return has_values ? (const void *)split_few_pairs_kernel : (const void *)split_few_keys_kernel;
    return has_values ? (const void *)split_eight_pairs_kernel : (const void *)split_eight_keys_kernel;
}

#endif
