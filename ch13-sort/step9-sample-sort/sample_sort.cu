/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step9` gives graded hints. */
/* sample_sort.cu - ch13 step 9: the sort leaves one GPU: the keys, spread
 * over G GPUs, are split at sampled splitters, exchanged over NCCL, and each
 * GPU sorts its bucket with step 7's radix sort.
 * Beyond the book: section 13.8 names sample sort for a sequence spread over
 * several GPUs or memories. Sample sort: Frazer and McKellar (1970),
 * oversampled as in Blelloch et al. (1991). The form here partitions first
 * and sorts after one exchange, with no merge, as radix-partitioning
 * multi-GPU sorts do (Ilic et al., "RMG Sort", 2023; Maltenberger et al.,
 * SIGMOD 2022, for what the links cost).
 *
 * The phases, each a function below (or in plan.c), each a TODO of the exercise:
 *   gather_sample     S keys of each UNSORTED share at jittered regular places, gathered to all (ncclAllGather)
 *   choose_splitters  G*K - 1 items at the quantiles of the sample (plan_choose_splitters, plan.c)
 *   count_buckets     each block's keys per bucket; a key's bucket by binary search (plan_bucket_of: the cut)
 *   exchange_counts   every rank's bucket totals to all (ncclAllGather); where everything goes (plan_layout)
 *   scatter_buckets   the share rewritten bucket by bucket, stable (a multi-way split, as Fig 13.6's)
 *   exchange_keys     K rounds of grouped ncclSend / ncclRecv, one sub-bucket of every rank each
 *   sort_buckets      each sub-bucket sorted (step 7, or CUB) as soon as its round is in
 * Items are (key, global position), so equal keys split evenly and the result
 * is the stable global sort. */
#include <cub/device/device_radix_sort.cuh>
#include <string.h>
#include <time.h>

#include "gen.h"
#include "report.h"
#include "sample_sort.h"
#include "scan.h"
#include "verify.cuh"
/* Step 7's single-pass radix sort, the default local sort: its onesweep.cuh
 * (solutions/ch13-sort/step7-onesweep), found on the include path
 * (INC_ch13-sort in the Makefile). Without it, this step sorts with CUB alone. */
#if __has_include("onesweep.cuh")
#include "onesweep.cuh"
#define SS_HAVE_ONESWEEP 1
#else
#define SS_HAVE_ONESWEEP 0
#endif

#define SS_BLOCK 256                  /* threads per block of the count and scatter kernels */
#define SS_ITEMS 16                   /* keys per thread per tile */
#define SS_TILE (SS_BLOCK * SS_ITEMS) /* keys per tile */
#define SS_WARPS (SS_BLOCK / 32)
#define SS_SEGMENT (32 * SS_ITEMS)    /* a warp's keys of a tile, consecutive */
#define SS_ONESWEEP_MAX_N 2147483647LL /* step 7 sorts at most 2^31 - 1 keys at once (ONESWEEP_MAX_N) */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* ======================= the sample ====================================== */

/* Key i of the sample is the key at position pos[i] of the share; the unused ones sort last. */
__global__ void take_sample_kernel(const unsigned int *keys, const int64_t *pos, int used, int S, unsigned int *sample)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < S)
        sample[i] = i < used ? keys[pos[i]] : 0xFFFFFFFFu;
}

/* ======================= count and scatter: tiles of the share ============ */

/* The splitters to shared memory: every key of a block is searched among them. */
static __device__ __forceinline__ void load_splitters(const unsigned int *split_key, const uint64_t *split_pos,
                                                      int nsplit, unsigned int *s_key, uint64_t *s_pos)
{
    for (int t = threadIdx.x; t < nsplit; t += blockDim.x)
        s_key[t] = split_key[t], s_pos[t] = split_pos[t];
}

/* A tile's keys (values), warp-striped: item j of lane l of warp w is key
 * w * SS_SEGMENT + j * 32 + l of the tile, so each load is one coalesced
 * line, and a warp's items in (j, lane) order are the tile's in input order. */
static __device__ __forceinline__ void load_share_tile(const unsigned int *keys, const unsigned int *values, int64_t tile_lo,
                                                 int tile_n, unsigned int *key, unsigned int *val, const int has_values)
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

/* Each item's bucket (the cut, plan_bucket_of, on the item (key, global
 * position)); B for the tile's missing items. */
static __device__ __forceinline__ void find_buckets(const unsigned int *key, int64_t pos_lo, int tile_n,
                                                    const unsigned int *s_key, const uint64_t *s_pos, int B,
                                                    int *bucket)
{
    const int base = (threadIdx.x >> 5) * SS_SEGMENT + (threadIdx.x & 31);
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) {
        const int x = base + j * 32;
        bucket[j] = x < tile_n ? plan_bucket_of(key[j], (uint64_t)(pos_lo + x), s_key, s_pos, B - 1) : B;
    }
}

/* The tile's items added to the block's count of their bucket (s_hist). */
static __device__ __forceinline__ void count_tile(const int *bucket, int B, unsigned int *s_hist)
{
    /* TODO(3): count_tile(), the counts: add each of the thread's SS_ITEMS items to s_hist[its
       bucket] in shared memory (bucket B: a missing item, not counted) */
}

/* count_buckets: block b counts its chunk's keys per bucket; the table is
 * bucket-major (row = bucket, column = block), as Fig 13.6's. */
__global__ void count_buckets_kernel(const unsigned int *keys, int64_t n, int64_t start, int64_t chunk,
                                     const unsigned int *split_key, const uint64_t *split_pos, int B,
                                     unsigned int *table)
{
    extern __shared__ uint64_t s_mem[];
    uint64_t *s_pos = s_mem;
    unsigned int *s_key = (unsigned int *)(s_pos + B), *s_hist = s_key + B;
    load_splitters(split_key, split_pos, B - 1, s_key, s_pos);
    for (int b = threadIdx.x; b < B; b += blockDim.x)
        s_hist[b] = 0;
    __syncthreads();
    const int64_t lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
    for (int64_t tile_lo = lo; tile_lo < hi; tile_lo += SS_TILE) {
        const int tile_n = (int)min((int64_t)SS_TILE, hi - tile_lo);
        unsigned int key[SS_ITEMS];
        int bucket[SS_ITEMS];
        load_share_tile(keys, NULL, tile_lo, tile_n, key, NULL, 0);
        find_buckets(key, start + tile_lo, tile_n, s_key, s_pos, B, bucket);
        count_tile(bucket, B, s_hist);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < B; b += blockDim.x)
        table[(size_t)b * gridDim.x + blockIdx.x] = s_hist[b];
}

/* Row b of the table, one warp per bucket: where each block's keys of bucket
 * b start inside the bucket, and the bucket's total, in 64 bits (a bucket of
 * a share above 2^32 keys). Each lane adds up a run of columns; a shuffle
 * scan over the lanes' sums gives each run's start. */
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

/* ---- scatter_buckets: a stable multi-way split, tile by tile ---------------- */

/* The scatter kernel's shared memory, in bytes from the start (8-byte items first). */
typedef struct {
    size_t run, split_pos, split_key, warp, start, scan, stage_k, stage_v, stage_b, total;
} scatter_smem;

static __host__ __device__ scatter_smem scatter_smem_of(int B, int has_values)
{
    scatter_smem s;
    s.run = 0;                                       /* uint64 [B]: where the block's next key of bucket b goes */
    s.split_pos = s.run + 8 * (size_t)B;             /* uint64 [B - 1] */
    s.split_key = s.split_pos + 8 * (size_t)(B - 1); /* uint32 [B - 1] */
    s.warp = s.split_key + 4 * (size_t)(B - 1);      /* uint32 [SS_WARPS][B]: per-warp counts, then offsets */
    s.start = s.warp + 4 * (size_t)SS_WARPS * B;     /* uint32 [B + 1]: the tile's buckets, staged */
    s.scan = s.start + 4 * (size_t)(B + 1);          /* uint32 [33]: block_exclusive_scan's */
    s.stage_k = s.scan + 4 * 33;                     /* uint32 [SS_TILE] */
    s.stage_v = s.stage_k + 4 * (size_t)SS_TILE;     /* uint32 [SS_TILE], pairs only */
    s.stage_b = s.stage_v + (has_values ? 4 * (size_t)SS_TILE : 0); /* uint16 [SS_TILE]: each staged key's bucket */
    s.total = s.stage_b + 2 * (size_t)SS_TILE;
    return s;
}

/* Each item's rank among the warp's items of its bucket, in input order
 * (items j, then lanes), and the warp's count of each bucket moved on. The
 * rank joins the bucket in one register: tag = bucket << 16 | rank. */
static __device__ __forceinline__ void rank_in_warp(int *tag, int B, unsigned int *warp_counts)
{
    const unsigned int lane = threadIdx.x & 31;
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) {
        const int b = tag[j];
        /* TODO(4): rank_in_warp(), the stable split: item j of this lane gets rank = the warp's
           items of bucket b before it (warp_counts[b], from items 0 .. j-1) + the lanes below this
           one with the same bucket b at item j; then the warp's count of b grows by its lanes with
           b, and tag[j] = b << 16 | rank */
        tag[j] = b << 16;
    }
}

/* Per bucket, the warps' counts become each warp's offset inside the tile's
 * bucket; then the buckets' sizes become their places in the staged tile
 * (start[b]; start[B] = the tile's keys). */
static __device__ __forceinline__ void place_buckets(unsigned int *s_warp, unsigned int *s_start, unsigned int *s_scan,
                                                     int B)
{
    for (int b = threadIdx.x; b < B; b += blockDim.x) {
        unsigned int run = 0;
        for (int w = 0; w < SS_WARPS; w++) {
            const unsigned int c = s_warp[w * B + b];
            s_warp[w * B + b] = run;
            run += c;
        }
        s_start[b] = run;
    }
    __syncthreads();
    const int per = (B + blockDim.x - 1) / blockDim.x, lo = threadIdx.x * per; /* per <= 4: B <= 1024 */
    unsigned int mine[4], sum = 0, total;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        mine[i] = i < per && lo + i < B ? s_start[lo + i] : 0;
        sum += mine[i];
    }
    unsigned int at = block_exclusive_scan(sum, &total, s_scan);
#pragma unroll
    for (int i = 0; i < 4; i++)
        if (i < per && lo + i < B) {
            s_start[lo + i] = at;
            at += mine[i];
        }
    if (threadIdx.x == 0)
        s_start[B] = total;
}

/* Each item to its place in the staged tile: its bucket's start, its warp's
 * offset in the bucket, its rank in the warp. */
static __device__ __forceinline__ void stage_tile(const unsigned int *key, const unsigned int *val, const int *tag, int B,
                                                  const unsigned int *s_warp, const unsigned int *s_start,
                                                  unsigned int *stage_k, unsigned int *stage_v, unsigned short *stage_b,
                                                  const int has_values)
{
    const int warp = threadIdx.x >> 5;
#pragma unroll
    for (int j = 0; j < SS_ITEMS; j++) {
        const int b = tag[j] >> 16;
        if (b < B) {
            const unsigned int at = s_start[b] + s_warp[warp * B + b] + (tag[j] & 0xffff);
            stage_k[at] = key[j];
            if (has_values)
                stage_v[at] = val[j];
            stage_b[at] = (unsigned short)b;
        }
    }
}

/* The staged tile out, each bucket's keys to consecutive addresses of part. */
static __device__ __forceinline__ void write_tile(const unsigned int *stage_k, const unsigned int *stage_v,
                                                  const unsigned short *stage_b, const unsigned int *s_start,
                                                  const uint64_t *s_run, int tile_n, unsigned int *part_k,
                                                  unsigned int *part_v, const int has_values)
{
    for (int x = threadIdx.x; x < tile_n; x += blockDim.x) {
        const int b = stage_b[x];
        const uint64_t at = s_run[b] + (unsigned int)(x - s_start[b]);
        part_k[at] = stage_k[x];
        if (has_values)
            part_v[at] = stage_v[x];
    }
}

/* Block b rewrites its chunk of the share bucket by bucket: tile by tile,
 * each tile split stably in shared memory (rank_in_warp, place_buckets,
 * stage_tile), then written bucket by bucket where the block's keys of each
 * bucket go (write_tile: bucket_base + the block's row prefix + what its
 * earlier tiles wrote). */
static __device__ __forceinline__ void scatter_body(const unsigned int *keys, const unsigned int *values,
                                                    unsigned int *part_k, unsigned int *part_v, int64_t n,
                                                    int64_t start, int64_t chunk, const unsigned int *split_key,
                                                    const uint64_t *split_pos, int B, const uint64_t *row_prefix,
                                                    const int64_t *bucket_base, const int has_values)
{
    extern __shared__ uint64_t s_mem[];
    unsigned char *s = (unsigned char *)s_mem;
    const scatter_smem L = scatter_smem_of(B, has_values);
    uint64_t *s_run = (uint64_t *)(s + L.run), *s_pos = (uint64_t *)(s + L.split_pos);
    unsigned int *s_key = (unsigned int *)(s + L.split_key), *s_warp = (unsigned int *)(s + L.warp);
    unsigned int *s_start = (unsigned int *)(s + L.start), *s_scan = (unsigned int *)(s + L.scan);
    unsigned int *stage_k = (unsigned int *)(s + L.stage_k), *stage_v = (unsigned int *)(s + L.stage_v);
    unsigned short *stage_b = (unsigned short *)(s + L.stage_b);
    load_splitters(split_key, split_pos, B - 1, s_key, s_pos);
    for (int b = threadIdx.x; b < B; b += blockDim.x)
        s_run[b] = (uint64_t)bucket_base[b] + row_prefix[(size_t)b * gridDim.x + blockIdx.x];
    const int64_t lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
    for (int64_t tile_lo = lo; tile_lo < hi; tile_lo += SS_TILE) {
        const int tile_n = (int)min((int64_t)SS_TILE, hi - tile_lo);
        for (int i = threadIdx.x; i < SS_WARPS * B; i += blockDim.x)
            s_warp[i] = 0;
        __syncthreads(); /* counts zeroed (and the last tile written) */
        unsigned int key[SS_ITEMS], val[SS_ITEMS];
        int tag[SS_ITEMS];
        load_share_tile(keys, values, tile_lo, tile_n, key, val, has_values);
        find_buckets(key, start + tile_lo, tile_n, s_key, s_pos, B, tag);
        rank_in_warp(tag, B, s_warp + (threadIdx.x >> 5) * B);
        __syncthreads();
        place_buckets(s_warp, s_start, s_scan, B);
        __syncthreads();
        stage_tile(key, val, tag, B, s_warp, s_start, stage_k, stage_v, stage_b, has_values);
        __syncthreads();
        write_tile(stage_k, stage_v, stage_b, s_start, s_run, tile_n, part_k, part_v, has_values);
        __syncthreads(); /* s_run is read above, moved on below */
        for (int b = threadIdx.x; b < B; b += blockDim.x)
            s_run[b] += s_start[b + 1] - s_start[b];
    }
}

/* register caps: 4 (keys) or 3 (pairs) blocks of 256 threads per SM, without spills (-Xptxas -v) */
__global__ void __launch_bounds__(SS_BLOCK, 4)
    scatter_keys_kernel(const unsigned int *keys, unsigned int *part_k, int64_t n, int64_t start, int64_t chunk,
                        const unsigned int *split_key, const uint64_t *split_pos, int B, const uint64_t *row_prefix,
                        const int64_t *bucket_base)
{
    scatter_body(keys, NULL, part_k, NULL, n, start, chunk, split_key, split_pos, B, row_prefix, bucket_base, 0);
}

__global__ void __launch_bounds__(SS_BLOCK, 3)
    scatter_pairs_kernel(const unsigned int *keys, const unsigned int *values, unsigned int *part_k,
                         unsigned int *part_v, int64_t n, int64_t start, int64_t chunk, const unsigned int *split_key,
                         const uint64_t *split_pos, int B, const uint64_t *row_prefix, const int64_t *bucket_base)
{
    scatter_body(keys, values, part_k, part_v, n, start, chunk, split_key, split_pos, B, row_prefix, bucket_base, 1);
}

/* ======================= the local sort ================================= */

int ss_have_onesweep(void)
{
    return SS_HAVE_ONESWEEP;
}

/* Step 7's sort on the caller's two buffers (onesweep.h); its tables: onesweep_tables_bytes. */
static const char *onesweep_local(unsigned int *k, unsigned int *v, unsigned int *alt_k, unsigned int *alt_v, int64_t m,
                                  void *tables, cudaStream_t stream, int *in_alt)
{
#if SS_HAVE_ONESWEEP
    return onesweep_sort_buffers(k, alt_k, v, alt_v, m, tables, stream, in_alt);
#else
    (void)k, (void)v, (void)alt_k, (void)alt_v, (void)m, (void)tables, (void)stream, (void)in_alt;
    return "this build has no step 7 (onesweep.cuh was not on the include path): use --local cub";
#endif
}

static size_t onesweep_local_bytes(int64_t n)
{
#if SS_HAVE_ONESWEEP
    return onesweep_tables_bytes(n);
#else
    (void)n;
    return 0;
#endif
}

/* cub::DeviceRadixSort on the caller's two buffers (its temp holds only its tables). */
static cudaError_t cub_sort(void *temp, size_t *bytes, unsigned int *k, unsigned int *v, unsigned int *alt_k,
                            unsigned int *alt_v, int64_t n, int *in_alt, cudaStream_t stream)
{
    cub::DoubleBuffer<unsigned int> dk(k, alt_k), dv(v, alt_v);
    size_t b = *bytes;
    const cudaError_t err = v != NULL ? cub::DeviceRadixSort::SortPairs(temp, b, dk, dv, n, 0, 32, stream)
                                      : cub::DeviceRadixSort::SortKeys(temp, b, dk, n, 0, 32, stream);
    *bytes = b;
    if (in_alt != NULL)
        *in_alt = dk.selector;
    return err;
}

static size_t local_temp_bytes(ss_local local, int64_t n, int with_values)
{
    if (local == SS_LOCAL_ONESWEEP)
        return onesweep_local_bytes(n > 0 ? n : 1);
    size_t bytes = 0;
    unsigned int dummy;
    CUDA_CHECK(cub_sort(NULL, &bytes, &dummy, with_values ? &dummy : NULL, &dummy, with_values ? &dummy : NULL,
                        n > 0 ? n : 1, NULL, 0));
    return bytes;
}

/* Sorts k[0, m) (and v) stably on the rank's sort stream, alt (alt_v) as the
 * second buffer; the result ends in k (v): when the sort leaves it in alt,
 * it is copied back. */
static const char *local_sort(ss_rank *R, const ss_config *c, unsigned int *k, unsigned int *v, unsigned int *alt_k,
                              unsigned int *alt_v, int64_t m)
{
    int in_alt = 0;
    if (c->local == SS_LOCAL_ONESWEEP) {
        const char *why = onesweep_local(k, v, alt_k, alt_v, m, R->sort_temp, R->sort_stream, &in_alt);
        if (why != NULL)
            return why;
    } else {
        size_t bytes = R->sort_temp_bytes;
        CUDA_CHECK(cub_sort(R->sort_temp, &bytes, k, v, alt_k, alt_v, m, &in_alt, R->sort_stream));
    }
    if (in_alt) {
        CUDA_CHECK(cudaMemcpyAsync(k, alt_k, sizeof(unsigned int) * (size_t)m, cudaMemcpyDeviceToDevice, R->sort_stream));
        if (v != NULL)
            CUDA_CHECK(cudaMemcpyAsync(v, alt_v, sizeof(unsigned int) * (size_t)m, cudaMemcpyDeviceToDevice, R->sort_stream));
    }
    return NULL;
}

/* ======================= the phases ===================================== */

/* gather_sample: each rank takes S keys of its unsorted share at the plan's
 * positions into its slot of the sample (rank r's at r * S); every slot then
 * goes to every rank, and rank 0's copy of the whole sample to the host. */
static void gather_sample(ss_rank *R, int nlocal, const ss_config *c, unsigned int *host_sample)
{
    /* TODO(5): gather_sample(), the sample: each owned rank launches take_sample_kernel on its
       comm_stream into its slot sample_d + rank * S; then, in one NCCL group, each owned rank
       gathers every slot into its whole sample_d (ncclAllGather, in place) */
    CUDA_CHECK(cudaSetDevice(R[0].device));
    CUDA_CHECK(cudaMemcpyAsync(host_sample, R[0].sample_d, sizeof(unsigned int) * (size_t)c->G * c->S,
                               cudaMemcpyDeviceToHost, R[0].comm_stream));
    CUDA_CHECK(cudaStreamSynchronize(R[0].comm_stream));
}

/* The plan picks them on the host (every process the same); each rank gets a copy. */
static void choose_splitters(ss_rank *R, int nlocal, ss_plan *plan, const unsigned int *host_sample)
{
    plan_choose_splitters(plan, host_sample);
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaMemcpyAsync(R[i].split_key_d, plan->split_key, sizeof(unsigned int) * (size_t)(plan->B - 1),
                                   cudaMemcpyHostToDevice, R[i].comm_stream));
        CUDA_CHECK(cudaMemcpyAsync(R[i].split_pos_d, plan->split_pos, sizeof(uint64_t) * (size_t)(plan->B - 1),
                                   cudaMemcpyHostToDevice, R[i].comm_stream));
    }
}

/* Keys per bucket per block, then per bucket: each block's offset and the
 * total (this rank's row of the counts matrix, where the gather expects it). */
static void count_buckets(ss_rank *R, int nlocal, const ss_plan *plan)
{
    const int B = plan->B;
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        CUDA_CHECK(cudaSetDevice(r->device));
        if (r->cols > 0) {
            const size_t shared = (sizeof(uint64_t) + 2 * sizeof(unsigned int)) * (size_t)B;
            count_buckets_kernel<<<r->cols, SS_BLOCK, shared, r->comm_stream>>>(
                r->keys, r->n, r->start, r->chunk, r->split_key_d, r->split_pos_d, B, r->table_d);
            CUDA_CHECK_LAUNCH();
            scan_table_kernel<<<B, 32, 0, r->comm_stream>>>(r->table_d, r->cols, r->row_prefix_d,
                                                           r->counts_d + (size_t)r->rank * B);
            CUDA_CHECK_LAUNCH();
        } else {
            CUDA_CHECK(cudaMemsetAsync(r->counts_d + (size_t)r->rank * B, 0, sizeof(uint64_t) * (size_t)B, r->comm_stream));
        }
    }
}

/* NULL when rank r's sub-buckets all fit the local sort, else why not. */
static const char *check_chunks(const ss_config *c, const ss_layout *L, int r)
{
    static __thread char why[200];
    const int64_t room = ss_chunk_room(c, r);
    const int64_t most = c->local == SS_LOCAL_ONESWEEP && room > SS_ONESWEEP_MAX_N ? SS_ONESWEEP_MAX_N : room;
    for (int j = 0; j < c->K; j++) {
        const int64_t m = L->sub_start[j + 1] - L->sub_start[j];
        if (m > most) {
            snprintf(why, sizeof why,
                     "rank %d's chunk %d holds %lld keys, more than its local sort takes (%lld): the splitters missed", r,
                     j, (long long)m, (long long)most);
            return why;
        }
    }
    return NULL;
}

/* Every rank's bucket totals to all; then the plan's layout of every rank
 * (so every process stops, or goes on, together), and each owned rank's
 * bucket offsets to its device for the scatter. */
static const char *exchange_counts(ss_rank *R, int nlocal, const ss_config *c, ss_plan *plan, uint64_t *host_counts)
{
    const int B = plan->B;
    NCCL_CHECK(ncclGroupStart());
    for (int i = 0; i < nlocal; i++)
        NCCL_CHECK(ncclAllGather(R[i].counts_d + (size_t)R[i].rank * B, R[i].counts_d, (size_t)B, ncclUint64,
                                 R[i].comm, R[i].comm_stream));
    NCCL_CHECK(ncclGroupEnd());
    CUDA_CHECK(cudaSetDevice(R[0].device));
    CUDA_CHECK(cudaMemcpyAsync(host_counts, R[0].counts_d, sizeof(uint64_t) * (size_t)c->G * B, cudaMemcpyDeviceToHost,
                               R[0].comm_stream));
    CUDA_CHECK(cudaStreamSynchronize(R[0].comm_stream));
    plan_set_counts(plan, host_counts);
    for (int r = 0; r < c->G; r++) {
        const int64_t cap = ss_capacity(c, r);
        const char *why = plan_layout(plan, r, cap, cap, R[0].layout);
        if (why == NULL)
            why = check_chunks(c, R[0].layout, r);
        if (why != NULL)
            return why;
    }
    for (int i = 0; i < nlocal; i++) {
        plan_layout(plan, R[i].rank, R[i].cap, R[i].cap, R[i].layout);
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaMemcpyAsync(R[i].bucket_base_d, R[i].layout->send_off, sizeof(int64_t) * (size_t)B,
                                   cudaMemcpyHostToDevice, R[i].comm_stream));
    }
    return NULL;
}

static void scatter_buckets(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan)
{
    const int B = plan->B;
    const size_t shared = scatter_smem_of(B, c->with_values).total;
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        CUDA_CHECK(cudaSetDevice(r->device));
        CUDA_CHECK(cudaEventRecord(r->ev_scatter_begin, r->comm_stream));
        if (r->cols > 0 && c->with_values) {
            scatter_pairs_kernel<<<r->cols, SS_BLOCK, shared, r->comm_stream>>>(
                r->keys, r->values, r->part_k, r->part_v, r->n, r->start, r->chunk, r->split_key_d, r->split_pos_d, B,
                r->row_prefix_d, r->bucket_base_d);
            CUDA_CHECK_LAUNCH();
        } else if (r->cols > 0) {
            scatter_keys_kernel<<<r->cols, SS_BLOCK, shared, r->comm_stream>>>(r->keys, r->part_k, r->n, r->start,
                                                                              r->chunk, r->split_key_d, r->split_pos_d,
                                                                              B, r->row_prefix_d, r->bucket_base_d);
            CUDA_CHECK_LAUNCH();
        }
        CUDA_CHECK(cudaEventRecord(r->ev_scatter_end, r->comm_stream));
    }
}

/* Round j: every owned rank sends its bucket (p, j) to each other rank p and
 * receives each rank's piece of its sub-bucket j at that piece's place in
 * keys (values); its own piece is a device copy. */
static void exchange_round(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, int j)
{
    const int G = plan->G, K = plan->K, B = plan->B;
    /* TODO(6): exchange_round(), the exchange of round j: in one NCCL group, each owned rank r
       ncclSends its bucket (p, j) to every other rank p (counts[r * B + p * K + j] keys of part_k
       from send_off[p * K + j]) and ncclRecvs rank p's piece (counts[p * B + r * K + j] keys) into
       keys + recv_off[j * G + p]; values the same way; then its own piece, a device copy on
       comm_stream */
}

/* K rounds; event ev_round[j]: round j's keys are in, and its region of part is free. */
static void exchange_keys(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan)
{
    for (int j = 0; j < plan->K; j++) {
        exchange_round(R, nlocal, c, plan, j);
        for (int i = 0; i < nlocal; i++) {
            CUDA_CHECK(cudaSetDevice(R[i].device));
            CUDA_CHECK(cudaEventRecord(R[i].ev_round[j], R[i].comm_stream));
        }
    }
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaEventRecord(R[i].ev_rounds_end, R[i].comm_stream));
    }
}

/* Each sub-bucket sorted in place on the sort stream, part's free front as
 * the second buffer, as soon as the round it waits for is in; side by side,
 * the sorted sub-buckets are the rank's run of the output. */
static const char *sort_buckets(ss_rank *R, int nlocal, const ss_config *c)
{
    for (int i = 0; i < nlocal; i++) {
        ss_rank *r = &R[i];
        const ss_layout *L = r->layout;
        CUDA_CHECK(cudaSetDevice(r->device));
        for (int j = 0; j < c->K; j++) {
            const int64_t at = L->sub_start[j], m = L->sub_start[j + 1] - at;
            /* TODO(7): sort_buckets(), the sort: make the sort stream wait for round wait_round[j]
               (ev_round: its keys are in, and part's [0, m) is sent), record ev_sort_begin[j], then
               local_sort the m keys at keys + at (values + at) with part_k (part_v) as the second
               buffer */
            CUDA_CHECK(cudaEventRecord(r->ev_sort_begin[j], r->sort_stream));
            CUDA_CHECK(cudaEventRecord(r->ev_sort_done[j], r->sort_stream));
        }
        CUDA_CHECK(cudaEventRecord(r->ev_sort_end, r->sort_stream));
        r->run_n = L->sub_start[c->K];
    }
    return NULL;
}

static float elapsed(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

/* Every owned rank's streams drained: nothing of a run is left in flight. */
static void drain(ss_rank *R, int nlocal)
{
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaStreamSynchronize(R[i].comm_stream));
        CUDA_CHECK(cudaStreamSynchronize(R[i].sort_stream));
    }
}

/* The phases' device times, the largest over the owned ranks. */
static void phase_times(ss_rank *R, int nlocal, const ss_config *c, ss_times *t)
{
    for (int i = 0; i < nlocal; i++) {
        double sorting = 0;
        for (int j = 0; j < c->K; j++)
            sorting += elapsed(R[i].ev_sort_begin[j], R[i].ev_sort_done[j]);
        const double scatter = elapsed(R[i].ev_scatter_begin, R[i].ev_scatter_end);
        const double exchange = elapsed(R[i].ev_scatter_end, R[i].ev_rounds_end);
        const double waited = elapsed(R[i].ev_scatter_end, R[i].ev_sort_end) - sorting;
        t->scatter = scatter > t->scatter ? scatter : t->scatter;
        t->exchange = exchange > t->exchange ? exchange : t->exchange;
        t->sort = sorting > t->sort ? sorting : t->sort;
        t->waited = waited > t->waited ? waited : t->waited;
    }
}

/* One GPU, one chunk: nothing to split or send, the share is the bucket. */
static const char *sort_one_bucket(ss_rank *R, const ss_config *c, ss_plan *plan)
{
    uint64_t count = (uint64_t)R->n;
    plan_set_counts(plan, &count);
    const char *why = plan_layout(plan, 0, R->cap, R->cap, R->layout);
    if (why == NULL)
        why = check_chunks(c, R->layout, 0);
    CUDA_CHECK(cudaSetDevice(R->device));
    cudaEvent_t marks[] = {R->ev_begin, R->ev_scatter_begin, R->ev_scatter_end, R->ev_round[0], R->ev_rounds_end};
    for (size_t e = 0; e < sizeof marks / sizeof marks[0]; e++)
        CUDA_CHECK(cudaEventRecord(marks[e], R->comm_stream));
    return why != NULL ? why : sort_buckets(R, 1, c);
}

const char *ss_sort(ss_rank *R, int nlocal, const ss_config *c, ss_plan *plan, ss_times *t)
{
    unsigned int *host_sample = (unsigned int *)lab_xmalloc(sizeof(unsigned int) * (size_t)c->G * c->S);
    uint64_t *host_counts = (uint64_t *)lab_xmalloc(sizeof(uint64_t) * (size_t)c->G * plan->B);
    const char *why = NULL;
    memset(t, 0, sizeof *t);
    const double t0 = now_ms();
    double t1 = t0, t2 = t0;
    if (plan->B == 1) {
        why = sort_one_bucket(R, c, plan);
    } else {
        for (int i = 0; i < nlocal; i++) {
            CUDA_CHECK(cudaSetDevice(R[i].device));
            CUDA_CHECK(cudaEventRecord(R[i].ev_begin, R[i].comm_stream));
        }
        gather_sample(R, nlocal, c, host_sample);
        choose_splitters(R, nlocal, plan, host_sample);
        t1 = now_ms();
        count_buckets(R, nlocal, plan);
        why = exchange_counts(R, nlocal, c, plan, host_counts);
        t2 = now_ms();
        if (why == NULL) {
            scatter_buckets(R, nlocal, c, plan);
            exchange_keys(R, nlocal, c, plan);
            why = sort_buckets(R, nlocal, c);
        }
    }
    drain(R, nlocal); /* the comm streams too: a failed plan leaves nothing in flight */
    const double t3 = now_ms();
    free(host_sample), free(host_counts);
    if (why != NULL)
        return why;
    t->splitters = t1 - t0, t->count = t2 - t1, t->total = t3 - t0;
    phase_times(R, nlocal, c, t);
    return NULL;
}

/* ======================= setup ========================================== */

static void *take(ss_rank *R, size_t bytes)
{
    void *p = NULL;
    if (bytes == 0)
        return NULL;
    CUDA_CHECK(cudaMalloc(&p, bytes));
    R->bytes_allocated += bytes;
    return p;
}

int64_t ss_capacity(const ss_config *c, int r)
{
    const int64_t n = plan_share_start(c->N, c->G, r + 1) - plan_share_start(c->N, c->G, r);
    if (c->G == 1) /* one GPU keeps its whole share: its bucket is its share, no room to spare */
        return n;
    const int64_t room = (int64_t)((1.0 + c->slack) * ((double)c->N / c->G)) + 1;
    return room > n ? room : n;
}

int64_t ss_chunk_room(const ss_config *c, int r)
{
    const int64_t cap = ss_capacity(c, r);
    if (c->K == 1)
        return cap;
    const double largest = (c->first_weight > 1.0 ? c->first_weight : 1.0) / (c->first_weight + (c->K - 1));
    const int64_t room = (int64_t)(1.25 * largest * (double)cap) + SS_TILE;
    return room < cap ? room : cap;
}

const char *ss_config_check(const ss_config *c)
{
    ss_plan p;
    const char *why = plan_init(&p, c->N, c->G, c->K, c->S, c->first_weight);
    if (why != NULL)
        return why;
    plan_free(&p);
    if (!(c->slack >= 0.0 && c->slack <= 1.0))
        return "the buffers' slack must be 0 to 1 (of N / G)";
    if (c->local == SS_LOCAL_ONESWEEP && !ss_have_onesweep())
        return "--local onesweep needs step 7's onesweep.cuh (solutions/ch13-sort/step7-onesweep) on the include path: "
               "use --local cub";
    for (int r = 0; r < c->G && c->local == SS_LOCAL_ONESWEEP; r++)
        if (ss_chunk_room(c, r) > SS_ONESWEEP_MAX_N)
            return "a chunk may hold more than step 7 sorts at once (2^31 - 1 keys): more --chunks, or --local cub";
    if (c->local != SS_LOCAL_ONESWEEP && c->local != SS_LOCAL_CUB)
        return "the local sort must be onesweep or cub";
    return NULL;
}

/* The count and scatter kernels run as many blocks as fit at once, each a chunk of whole tiles. */
static const char *size_grid(ss_rank *R, const ss_config *c)
{
    const int B = c->G * c->K;
    const scatter_smem sm = scatter_smem_of(B, c->with_values);
    const void *scatter = c->with_values ? (const void *)scatter_pairs_kernel : (const void *)scatter_keys_kernel;
    int per_sm = 0, sms = 0;
    CUDA_CHECK(cudaFuncSetAttribute(scatter, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm.total));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scatter, SS_BLOCK, sm.total));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, R->device));
    if (per_sm < 1)
        return "the scatter kernel does not fit an SM (too many buckets)";
    const int64_t tiles = (R->n + SS_TILE - 1) / SS_TILE, most = (int64_t)per_sm * sms;
    R->chunk = ((tiles + most - 1) / most) * SS_TILE;
    if (R->chunk == 0)
        R->chunk = SS_TILE;
    R->cols = (int)((R->n + R->chunk - 1) / R->chunk);
    return NULL;
}

static void create_events(ss_rank *R, int K)
{
    R->chunks = K;
    R->ev_round = (cudaEvent_t *)lab_xmalloc(sizeof(cudaEvent_t) * (size_t)K);
    R->ev_sort_begin = (cudaEvent_t *)lab_xmalloc(sizeof(cudaEvent_t) * (size_t)K);
    R->ev_sort_done = (cudaEvent_t *)lab_xmalloc(sizeof(cudaEvent_t) * (size_t)K);
    for (int j = 0; j < K; j++) {
        CUDA_CHECK(cudaEventCreateWithFlags(&R->ev_round[j], cudaEventDisableTiming));
        CUDA_CHECK(cudaEventCreate(&R->ev_sort_begin[j]));
        CUDA_CHECK(cudaEventCreate(&R->ev_sort_done[j]));
    }
    cudaEvent_t *ev[] = {&R->ev_begin, &R->ev_scatter_begin, &R->ev_scatter_end, &R->ev_rounds_end, &R->ev_sort_end};
    for (size_t e = 0; e < sizeof ev / sizeof ev[0]; e++)
        CUDA_CHECK(cudaEventCreate(ev[e]));
}

const char *ss_setup(ss_rank *R, const ss_config *c)
{
    const int B = c->G * c->K;
    size_t total_mem;
    CUDA_CHECK(cudaSetDevice(R->device));
    CUDA_CHECK(cudaMemGetInfo(&R->free_before, &total_mem));
    R->bytes_allocated = 0;
    R->start = plan_share_start(c->N, c->G, R->rank);
    R->n = plan_share_start(c->N, c->G, R->rank + 1) - R->start;
    R->cap = ss_capacity(c, R->rank);
    R->room = ss_chunk_room(c, R->rank);
    const char *why = size_grid(R, c);
    if (why != NULL)
        return why;
    int least, greatest;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&R->comm_stream, cudaStreamNonBlocking, greatest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&R->sort_stream, cudaStreamNonBlocking, least));
    const size_t kb = sizeof(unsigned int) * (size_t)R->cap, rows = (size_t)B * (R->cols > 0 ? R->cols : 1);
    R->keys = (unsigned int *)take(R, kb);
    R->part_k = (unsigned int *)take(R, kb);
    R->values = c->with_values ? (unsigned int *)take(R, kb) : NULL;
    R->part_v = c->with_values ? (unsigned int *)take(R, kb) : NULL;
    int64_t *pos = (int64_t *)lab_xmalloc(sizeof(int64_t) * (size_t)c->S); /* the sample's places: fixed by the share's size */
    R->sample_used = plan_sample_positions(R->n, c->S, pos);
    R->sample_pos_d = (int64_t *)take(R, sizeof(int64_t) * (size_t)c->S);
    CUDA_CHECK(cudaMemcpy(R->sample_pos_d, pos, sizeof(int64_t) * (size_t)c->S, cudaMemcpyHostToDevice));
    free(pos);
    R->sample_d = (unsigned int *)take(R, sizeof(unsigned int) * (size_t)c->G * c->S);
    R->split_key_d = (unsigned int *)take(R, sizeof(unsigned int) * (size_t)B);
    R->split_pos_d = (uint64_t *)take(R, sizeof(uint64_t) * (size_t)B);
    R->table_d = (unsigned int *)take(R, sizeof(unsigned int) * rows);
    R->row_prefix_d = (uint64_t *)take(R, sizeof(uint64_t) * rows);
    R->counts_d = (uint64_t *)take(R, sizeof(uint64_t) * (size_t)c->G * B);
    R->bucket_base_d = (int64_t *)take(R, sizeof(int64_t) * (size_t)B);
    R->check_d = (uint64_t *)take(R, ss_check_bytes(c->G));
    R->sort_temp_bytes = local_temp_bytes(c->local, R->room, c->with_values);
    R->sort_temp = take(R, R->sort_temp_bytes);
    R->layout = (ss_layout *)lab_xmalloc(sizeof(ss_layout));
    create_events(R, c->K);
    return NULL;
}

void ss_teardown(ss_rank *R)
{
    CUDA_CHECK(cudaSetDevice(R->device));
    CUDA_CHECK(cudaDeviceSynchronize());
    void *bufs[] = {R->keys, R->part_k, R->values, R->part_v, R->sample_pos_d, R->sample_d, R->split_key_d,
                    R->split_pos_d, R->table_d, R->row_prefix_d, R->counts_d, R->bucket_base_d, R->check_d, R->sort_temp};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i] != NULL)
            CUDA_CHECK(cudaFree(bufs[i]));
    for (int j = 0; j < R->chunks; j++) {
        CUDA_CHECK(cudaEventDestroy(R->ev_round[j]));
        CUDA_CHECK(cudaEventDestroy(R->ev_sort_begin[j]));
        CUDA_CHECK(cudaEventDestroy(R->ev_sort_done[j]));
    }
    cudaEvent_t ev[] = {R->ev_begin, R->ev_scatter_begin, R->ev_scatter_end, R->ev_rounds_end, R->ev_sort_end};
    for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++)
        CUDA_CHECK(cudaEventDestroy(ev[i]));
    free(R->layout), free(R->ev_round), free(R->ev_sort_begin), free(R->ev_sort_done);
    CUDA_CHECK(cudaStreamDestroy(R->comm_stream));
    CUDA_CHECK(cudaStreamDestroy(R->sort_stream));
}

__global__ void gen_share_kernel(unsigned int *keys, unsigned int *values, int64_t n, int64_t start, int64_t N,
                                 int dist, uint64_t seed)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        keys[i] = gen_key(dist, seed, (uint64_t)(start + i), (uint64_t)N);
        if (values != NULL)
            values[i] = gen_value((uint64_t)(start + i));
    }
}

void ss_generate(ss_rank *R, const ss_config *c, int dist, uint64_t seed)
{
    /* everything the sort writes is poisoned first (the lab's poison, LAB_POISON_BYTE, which the
     * reports name): stale keys cannot pass for results. On comm_stream, so not lab_poison_device. */
    const size_t room = sizeof(unsigned int) * (size_t)R->cap, tail = sizeof(unsigned int) * (size_t)(R->cap - R->n);
    CUDA_CHECK(cudaSetDevice(R->device));
    CUDA_CHECK(cudaMemsetAsync(R->part_k, LAB_POISON_BYTE, room, R->comm_stream));
    CUDA_CHECK(cudaMemsetAsync(R->keys + R->n, LAB_POISON_BYTE, tail, R->comm_stream));
    CUDA_CHECK(cudaMemsetAsync(R->sample_d, LAB_POISON_BYTE, sizeof(unsigned int) * (size_t)c->G * c->S, R->comm_stream));
    if (c->with_values) {
        CUDA_CHECK(cudaMemsetAsync(R->part_v, LAB_POISON_BYTE, room, R->comm_stream));
        CUDA_CHECK(cudaMemsetAsync(R->values + R->n, LAB_POISON_BYTE, tail, R->comm_stream));
    }
    if (R->n > 0) {
        gen_share_kernel<<<2048, 256, 0, R->comm_stream>>>(R->keys, c->with_values ? R->values : NULL, R->n, R->start,
                                                          c->N, dist, seed);
        CUDA_CHECK_LAUNCH();
    }
    CUDA_CHECK(cudaStreamSynchronize(R->comm_stream));
}

/* ======================= the step's descriptor ========================== */

static const char *const ss_dists[] = {"uniform", "sorted", "reverse", "equal", "few", "zipf", "all", NULL};
static const char *const ss_locals[] = {"onesweep", "cub", NULL};

const ss_step sample_sort_step_info = {
    .defaults = {.G = 1, .K = 0, .S = 8192, .first_weight = 0.5, .slack = 0.10, .local = SS_LOCAL_ONESWEEP},
    .default_n = 1 << 24,
    .reference_max_n = 1 << 28,
    .spec = {.options = LAB_OPT_DIST | LAB_OPT_KEYS_ONLY | LAB_OPT_GPUS | LAB_OPT_LOCAL,
             .dists = ss_dists,
             .locals = ss_locals,
             .max_n = 1LL << 40,
             .about = "Step 9 sorts N u32 keys (or key-value pairs, value = the key's input position) spread\n"
                      "over G GPUs by sample sort over NCCL: ./run --gpus G drives G GPUs from one process;\n"
                      "mpirun -np G ./run one GPU per rank (built with MPI). Each GPU makes its share of the\n"
                      "input in place; the output is checked on the GPUs (each run sorted and stable, inside\n"
                      "its splitters, in order across GPUs, count and hashes kept) and, up to 2^28 keys,\n"
                      "element by element against the CPU. --dist all runs every distribution in turn.\n"
                      "  --chunks K       sub-buckets per GPU, exchanged and sorted in a pipeline\n"
                      "                   (default 4, or 1 on one GPU: then nothing is split or sent)\n"
                      "--local onesweep is step 7's sort (the default when its onesweep.cuh was on the\n"
                      "include path at build time), --local cub is cub::DeviceRadixSort.\n"},
};
