/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step9` gives graded hints. */
/* partition.cuh - ch13 step 9's partition kernels: the sample, the count of
 * each block's keys per bucket (a table with a column a block, as Fig 13.6's),
 * the table's scan, and the stable scatter of the share bucket by bucket (a
 * multi-way split, as Fig 13.6's split by one digit). An item's bucket is the
 * cut: plan_bucket_of's binary search over the splitters. Included by
 * sample_sort.cu. */
#ifndef SS_PARTITION_CUH
#define SS_PARTITION_CUH

#include "rank.h"
#include "scan.h"

#define SS_BLOCK   256                   /* threads per block of the count and scatter kernels */
#define SS_ITEMS   16                    /* keys per thread per tile */
#define SS_TILE    (SS_BLOCK * SS_ITEMS) /* keys per tile */
#define SS_WARPS   (SS_BLOCK / 32)
#define SS_SEGMENT (32 * SS_ITEMS) /* a warp's keys of a tile, consecutive */

/* The splitters as a kernel gets them. */
typedef struct {
    const unsigned int *split_key;
    const uint64_t *split_pos;
    int B; /* buckets: B - 1 splitters */
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
 * the count kernel takes the splitters and `hist`, the scatter kernel the rest. */
typedef struct {
    uint64_t *split_pos;             /* [B - 1] */
    uint64_t *run;                   /* [B]: scatter: where the block's next key of bucket b goes */
    unsigned int *split_key;         /* [B - 1] */
    unsigned int *hist;              /* [B]: count: the block's keys per bucket */
    unsigned int *warp;              /* [SS_WARPS][B]: scatter: per-warp counts, then offsets */
    unsigned int *start;             /* [B + 1]: scatter: the tile's buckets, staged */
    unsigned int *scan;              /* [33]: block_exclusive_scan's */
    unsigned int *stage_k, *stage_v; /* [SS_TILE] each (values: pairs only) */
    unsigned short *stage_b;         /* [SS_TILE]: each staged key's bucket */
} ss_smem;

/* The next part of the shared memory: `bytes` at *used from base, and *used moved on. */
static __host__ __device__ void *ss_take(char *base, size_t *used, size_t bytes)
{
    void *p = base + *used;
    *used += bytes;
    return p;
}

/* Lays ss_smem out from base (NULL: only counts); returns its bytes. */
static __host__ __device__ size_t ss_smem_carve(void *base, int B, int scatter, int has_values, ss_smem *s)
{
    char *at = (char *)base;
    size_t used = 0;
    const size_t u64 = sizeof(uint64_t), u32 = sizeof(unsigned int), all = scatter ? 1 : 0;
    s->split_pos = (uint64_t *)ss_take(at, &used, u64 * (size_t)(B - 1));
    s->run = (uint64_t *)ss_take(at, &used, all * u64 * (size_t)B);
    s->split_key = (unsigned int *)ss_take(at, &used, u32 * (size_t)(B - 1));
    s->hist = (unsigned int *)ss_take(at, &used, scatter ? 0 : u32 * (size_t)B);
    s->warp = (unsigned int *)ss_take(at, &used, all * u32 * SS_WARPS * (size_t)B);
    s->start = (unsigned int *)ss_take(at, &used, all * u32 * (size_t)(B + 1));
    s->scan = (unsigned int *)ss_take(at, &used, all * u32 * 33);
    s->stage_k = (unsigned int *)ss_take(at, &used, all * u32 * SS_TILE);
    s->stage_v = (unsigned int *)ss_take(at, &used, has_values ? all * u32 * SS_TILE : 0);
    s->stage_b = (unsigned short *)ss_take(at, &used, all * sizeof(unsigned short) * SS_TILE);
    return used;
}

/* The splitters to shared memory: every key of a block is searched among them. */
static __device__ __forceinline__ void load_splitters(const ss_cuts *c, const ss_smem *s)
{
    for (int t = threadIdx.x; t + 1 < c->B; t += blockDim.x)
        s->split_key[t] = c->split_key[t], s->split_pos[t] = c->split_pos[t];
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

/* Each item's bucket: the cut on the item (key, global position pos_lo + x);
 * B for the tile's missing items. */
static __device__ __forceinline__ void find_buckets(const unsigned int *key, int64_t pos_lo, int tile_n,
                                                    const ss_smem *s, int B, int *bucket)
{
    const int base = (threadIdx.x >> 5) * SS_SEGMENT + (threadIdx.x & 31);
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) {
        const int x = base + j * 32;
        bucket[j] = x < tile_n ? plan_bucket_of(key[j], (uint64_t)(pos_lo + x), s->split_key, s->split_pos, B - 1) : B;
    }
}

/* ---- count ------------------------------------------------------------------------------ */

/* The tile's items added to the block's count of their bucket (s_hist). */
static __device__ __forceinline__ void count_tile(const int *bucket, int B, unsigned int *s_hist)
{
    /* TODO(1): count_tile(), the counts: add each of the thread's SS_ITEMS items to s_hist[its
       bucket], in shared memory; bucket B is a missing item (past the share's end): not counted */
}

/* count_buckets: block b counts its chunk's keys per bucket, tile by tile;
 * the table is bucket-major (row = bucket, column = block), as Fig 13.6's. */
__global__ void count_kernel(const unsigned int *keys, int64_t n, int64_t start, int64_t chunk, ss_cuts cuts,
                             unsigned int *table)
{
    extern __shared__ uint64_t s_mem[];
    ss_smem s;
    ss_smem_carve(s_mem, cuts.B, 0, 0, &s);
    for (int b = threadIdx.x; b < cuts.B; b += blockDim.x)
        s.hist[b] = 0;
    load_splitters(&cuts, &s);
    __syncthreads();
    const int64_t lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
    for (int64_t tile_lo = lo; tile_lo < hi; tile_lo += SS_TILE) {
        const int tile_n = (int)min((int64_t)SS_TILE, hi - tile_lo);
        unsigned int key[SS_ITEMS];
        int bucket[SS_ITEMS];
        load_share_tile(keys, NULL, tile_lo, tile_n, key, NULL, 0);
        find_buckets(key, start + tile_lo, tile_n, &s, cuts.B, bucket);
        count_tile(bucket, cuts.B, s.hist);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < cuts.B; b += blockDim.x)
        table[(size_t)b * gridDim.x + blockIdx.x] = s.hist[b];
}

/* Row b of the table, one warp per bucket: where each block's keys of it
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

/* Each item's rank among the warp's items of its bucket, in input order
 * (items j, then lanes), and the warp's count of each bucket moved on. The
 * rank joins the bucket in one register: tag = bucket << 16 | rank. */
static __device__ __forceinline__ void rank_in_warp(int *tag, int B, unsigned int *warp_counts)
{
    const unsigned int lane = threadIdx.x & 31;
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) {
        const int b = tag[j];
        /* TODO(2): rank_in_warp(), the stable split: item j of this lane gets rank = the warp's
           items of bucket b before it (warp_counts[b], from items 0 .. j-1) + the lanes below this
           one with the same b at item j; then the warp's count of b grows by its lanes with b, and
           tag[j] = b << 16 | rank; b == B is a missing item: no count */
        tag[j] = b << 16;
    }
}

/* Per bucket, the warps' counts become each warp's offset inside the tile's
 * bucket; then the buckets' sizes become their places in the staged tile
 * (start[b]; start[B] = the tile's keys). */
static __device__ __forceinline__ void place_buckets(const ss_smem *s, int B)
{
    for (int b = threadIdx.x; b < B; b += blockDim.x) {
        unsigned int run = 0;
        for (int w = 0; w < SS_WARPS; w++) {
            const unsigned int c = s->warp[w * B + b];
            s->warp[w * B + b] = run;
            run += c;
        }
        s->start[b] = run;
    }
    __syncthreads();
    const int per = (B + blockDim.x - 1) / blockDim.x, lo = threadIdx.x * per; /* per <= 4: B <= 1024 */
    unsigned int mine[4], sum = 0, total;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        mine[i] = i < per && lo + i < B ? s->start[lo + i] : 0;
        sum += mine[i];
    }
    unsigned int at = block_exclusive_scan(sum, &total, s->scan);
#pragma unroll
    for (int i = 0; i < 4; i++)
        if (i < per && lo + i < B) {
            s->start[lo + i] = at;
            at += mine[i];
        }
    if (threadIdx.x == 0)
        s->start[B] = total;
}

/* Each item to its place in the staged tile: its bucket's start, its warp's
 * offset in it, its rank in the warp. */
static __device__ __forceinline__ void stage_tile(const unsigned int *key, const unsigned int *val, const int *tag,
                                                  int B, const ss_smem *s, const int has_values)
{
    const int warp = threadIdx.x >> 5;
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) {
        const int b = tag[j] >> 16;
        if (b < B) {
            const unsigned int at = s->start[b] + s->warp[warp * B + b] + (tag[j] & 0xffff);
            s->stage_k[at] = key[j];
            if (has_values)
                s->stage_v[at] = val[j];
            s->stage_b[at] = (unsigned short)b;
        }
    }
}

/* The staged tile out, each bucket's keys to consecutive addresses of part. */
static __device__ __forceinline__ void write_tile(const ss_smem *s, int tile_n, unsigned int *part_k,
                                                  unsigned int *part_v, const int has_values)
{
    for (int i = threadIdx.x; i < tile_n; i += blockDim.x) {
        const int b = s->stage_b[i];
        const uint64_t at = s->run[b] + (unsigned int)(i - s->start[b]);
        part_k[at] = s->stage_k[i];
        if (has_values)
            part_v[at] = s->stage_v[i];
    }
}

/* Block c rewrites its chunk of the share bucket by bucket: tile by tile,
 * each tile split stably in shared memory (rank_in_warp, place_buckets,
 * stage_tile), then written where the block's keys of each bucket go
 * (write_tile: send_off + the block's row prefix + what its earlier tiles
 * wrote). The next tile is read while this one goes out. */
static __device__ __forceinline__ void scatter_body(const unsigned int *keys, const unsigned int *values,
                                                    unsigned int *part_k, unsigned int *part_v, int64_t n,
                                                    int64_t start, int64_t chunk, const ss_cuts *cuts,
                                                    const uint64_t *row_prefix, const int64_t *send_off,
                                                    const int has_values)
{
    extern __shared__ uint64_t s_mem[];
    ss_smem s;
    const int B = cuts->B;
    ss_smem_carve(s_mem, B, 1, has_values, &s);
    load_splitters(cuts, &s);
    for (int b = threadIdx.x; b < B; b += blockDim.x)
        s.run[b] = (uint64_t)send_off[b] + row_prefix[(size_t)b * gridDim.x + blockIdx.x];
    const int64_t lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
    unsigned int key[SS_ITEMS], val[SS_ITEMS];
    if (lo < hi)
        load_share_tile(keys, values, lo, (int)min((int64_t)SS_TILE, hi - lo), key, val, has_values);
    for (int64_t tile_lo = lo; tile_lo < hi; tile_lo += SS_TILE) {
        const int tile_n = (int)min((int64_t)SS_TILE, hi - tile_lo);
        for (int i = threadIdx.x; i < SS_WARPS * B; i += blockDim.x)
            s.warp[i] = 0;
        __syncthreads(); /* counts zeroed, splitters loaded (and the last tile written) */
        int tag[SS_ITEMS];
        find_buckets(key, start + tile_lo, tile_n, &s, B, tag);
        rank_in_warp(tag, B, s.warp + (threadIdx.x >> 5) * B);
        __syncthreads();
        place_buckets(&s, B);
        __syncthreads();
        stage_tile(key, val, tag, B, &s, has_values);
        __syncthreads();
        const int64_t next = tile_lo + SS_TILE; /* read while this tile goes out */
        if (next < hi)
            load_share_tile(keys, values, next, (int)min((int64_t)SS_TILE, hi - next), key, val, has_values);
        write_tile(&s, tile_n, part_k, part_v, has_values);
        __syncthreads(); /* s.run is read above, moved on below */
        for (int b = threadIdx.x; b < B; b += blockDim.x)
            s.run[b] += s.start[b + 1] - s.start[b];
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

/* The count kernel's and the scatter kernel's dynamic shared memory for B buckets. */
static size_t ss_count_shared(int B)
{
    ss_smem s;
    return ss_smem_carve(NULL, B, 0, 0, &s);
}

static size_t ss_scatter_shared(int B, int has_values)
{
    ss_smem s;
    return ss_smem_carve(NULL, B, 1, has_values, &s);
}

#endif
