/* sample_gpu.cu - the GPU side of the sort across GPUs' inputs and checks (sample_gpu.h). */
#include "sample_gpu.h"

#include <cub/device/device_radix_sort.cuh>
#include <limits.h>
#include <math.h>

#include "gen.h"

size_t sample_check_bytes(int G)
{
    return sizeof(uint64_t) * (SG_SLOTS + 5 * (size_t)G);
}

/* The values are the keys' input positions (pairs, and N within 32 bits): ties are checked by them. */
static int values_are_positions(int64_t N, int with_values)
{
    return with_values && N <= (1LL << 32);
}

__global__ void generate_kernel(unsigned int *keys, unsigned int *values, int64_t n, int64_t start, int64_t N, int dist,
                                uint64_t seed)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        keys[i] = gen_key(dist, seed, (uint64_t)(start + i), (uint64_t)N);
        if (values != NULL)
            values[i] = gen_value((uint64_t)(start + i));
    }
}

void sample_generate(unsigned int *keys, unsigned int *values, int64_t n, int64_t start, int64_t N, int dist,
                     uint64_t seed, cudaStream_t stream)
{
    if (n == 0)
        return;
    generate_kernel<<<2048, 256, 0, stream>>>(keys, values, n, start, N, dist, seed);
    CUDA_CHECK_LAUNCH();
}

static __device__ __forceinline__ uint64_t warp_sum(uint64_t x)
{
    for (int d = 16; d > 0; d >>= 1)
        x += __shfl_down_sync(0xffffffffu, x, d);
    return x;
}

static __device__ __forceinline__ uint64_t warp_min(uint64_t x)
{
    for (int d = 16; d > 0; d >>= 1) {
        const uint64_t y = __shfl_down_sync(0xffffffffu, x, d);
        x = y < x ? y : x;
    }
    return x;
}

__global__ void hash_kernel(const unsigned int *k, const unsigned int *v, int64_t n, unsigned long long *out)
{
    uint64_t hk = 0, hp = 0, c = 0;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        hk += gen_mix64(k[i] ^ 0x6B6579730000ull);
        if (v != NULL)
            hp += gen_mix64(((uint64_t)k[i] << 32 | v[i]) ^ 0x7061697273ull);
        c++;
    }
    hk = warp_sum(hk), hp = warp_sum(hp), c = warp_sum(c);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(&out[0], (unsigned long long)hk);
        atomicAdd(&out[1], (unsigned long long)hp);
        atomicAdd(&out[2], (unsigned long long)c);
    }
}

void sample_hash(const unsigned int *keys, const unsigned int *values, int64_t n, uint64_t *out_d, cudaStream_t stream)
{
    if (n == 0)
        return;
    hash_kernel<<<1024, 256, 0, stream>>>(keys, values, n, (unsigned long long *)out_d);
    CUDA_CHECK_LAUNCH();
}

/* A failure count and its first index, reduced over the warp into out[at], out[at + 1]. */
static __device__ __forceinline__ void add_failures(uint64_t count, uint64_t first, unsigned long long *out, int at)
{
    count = warp_sum(count), first = warp_min(first);
    if ((threadIdx.x & 31) == 0 && count > 0) {
        atomicAdd(&out[at], (unsigned long long)count);
        atomicMin(&out[at + 1], (unsigned long long)first);
    }
}

/* Splitter t <= the item (key, pos); by key alone when the values are no positions. */
static __device__ __forceinline__ int splitter_le(const unsigned int *sk, const uint64_t *sp, int t, unsigned int key,
                                                  uint64_t pos, int by_item)
{
    return sk[t] < key || (sk[t] == key && (!by_item || sp[t] <= pos));
}

/* A rank's run: order, stability, and every item inside its buckets
 * [b_lo, b_hi): at or above splitter b_lo - 1, below splitter b_hi - 1 (by
 * key alone, at or below its key, when the values are no positions). */
__global__ void check_run_kernel(const unsigned int *k, const unsigned int *v, int64_t n, const unsigned int *sk,
                                 const uint64_t *sp, int nsplit, int b_lo, int b_hi, int by_item,
                                 unsigned long long *out)
{
    uint64_t inv = 0, uns = 0, outside = 0, first_inv = UINT64_MAX, first_uns = UINT64_MAX, first_out = UINT64_MAX;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        const unsigned int key = k[i];
        const uint64_t pos = by_item ? v[i] : 0;
        if (i + 1 < n && key > k[i + 1]) {
            inv++;
            first_inv = min(first_inv, (uint64_t)i + 1);
        } else if (i + 1 < n && by_item && key == k[i + 1] && v[i] > v[i + 1]) {
            uns++;
            first_uns = min(first_uns, (uint64_t)i + 1);
        }
        const int above = b_lo == 0 || splitter_le(sk, sp, b_lo - 1, key, pos, by_item);
        const int below =
            b_hi > nsplit || (by_item ? !splitter_le(sk, sp, b_hi - 1, key, pos, 1) : key <= sk[b_hi - 1]);
        if (!(above && below)) {
            outside++;
            first_out = min(first_out, (uint64_t)i);
        }
    }
    add_failures(inv, first_inv, out, SG_INVERSIONS);
    add_failures(uns, first_uns, out, SG_UNSTABLE);
    add_failures(outside, first_out, out, SG_OUTSIDE);
}

/* The run's first and last items, for the order across ranks. */
__global__ void edge_kernel(const unsigned int *k, const unsigned int *v, int64_t n, unsigned long long *edge)
{
    edge[0] = (unsigned long long)n;
    edge[1] = n > 0 ? k[0] : 0, edge[2] = n > 0 && v != NULL ? v[0] : 0;
    edge[3] = n > 0 ? k[n - 1] : 0, edge[4] = n > 0 && v != NULL ? v[n - 1] : 0;
}

void sample_check_run(const unsigned int *k, const unsigned int *v, int64_t n, int64_t N, const unsigned int *split_key,
                      const uint64_t *split_pos, int nsplit, int b_lo, int b_hi, const uint64_t *in, uint64_t *check_d,
                      cudaStream_t stream)
{
    const int by_item = values_are_positions(N, v != NULL);
    unsigned long long init[SG_SLOTS] = {0}, *d = (unsigned long long *)check_d;
    init[SG_FIRST_INVERSION] = init[SG_FIRST_UNSTABLE] = init[SG_FIRST_OUTSIDE] = ~0ull;
    init[SG_IN_KEYS] = in[0], init[SG_IN_PAIRS] = in[1], init[SG_IN_COUNT] = in[2];
    CUDA_CHECK(cudaMemcpyAsync(d, init, sizeof init, cudaMemcpyHostToDevice, stream)); /* staged before it returns */
    if (n > 0) {
        check_run_kernel<<<1024, 256, 0, stream>>>(k, v, n, split_key, split_pos, nsplit, b_lo, b_hi, by_item, d);
        CUDA_CHECK_LAUNCH();
        sample_hash(k, v, n, check_d + SG_OUT_KEYS, stream);
    }
    edge_kernel<<<1, 1, 0, stream>>>(k, v, n, d + SG_EDGE);
    CUDA_CHECK_LAUNCH();
}

/* a's last item against b's first: out of order when b's first comes before a's last */
static int edge_less(const uint64_t *a, const uint64_t *b, int by_value)
{
    return b[1] < a[3] || (by_value && b[1] == a[3] && b[2] < a[4]);
}

int sample_check_report(const uint64_t *h, int rank, int64_t N, int64_t sent, int with_values)
{
    static const struct {
        int count, first;
        const char *what;
    } kinds[] = {{SG_INVERSIONS, SG_FIRST_INVERSION, "keys out of order"},
                 {SG_UNSTABLE, SG_FIRST_UNSTABLE, "equal keys out of input order (not stable)"},
                 {SG_OUTSIDE, SG_FIRST_OUTSIDE, "keys outside its splitters"}};
    const int by_item = values_are_positions(N, with_values);
    int fails = 0;
    for (int k = 0; k < 3; k++)
        if (h[kinds[k].count])
            fails++, printf("  FAIL GPU %d: %llu %s, the first at index %llu%s\n", rank,
                            (unsigned long long)h[kinds[k].count], kinds[k].what, (unsigned long long)h[kinds[k].first],
                            lab_todo_note());
    if ((int64_t)h[SG_EDGE] != sent)
        fails++, printf("  FAIL GPU %d: holds %llu keys, the plan sent it %lld (keys lost or duplicated on it)\n", rank,
                        (unsigned long long)h[SG_EDGE], (long long)sent);
    const uint64_t *edges = h + SG_SLOTS, *mine = edges + 5 * (size_t)rank; /* after the last non-empty rank's last */
    for (int p = rank - 1; p >= 0 && mine[0] > 0; p--)
        if (edges[5 * p] > 0) {
            if (edge_less(edges + 5 * p, mine, by_item))
                fails++, printf("  FAIL GPU %d: its first key %llu comes before GPU %d's last key %llu (index %llu)\n",
                                rank, (unsigned long long)mine[1], p, (unsigned long long)edges[5 * p + 3],
                                (unsigned long long)(edges[5 * p] - 1));
            break;
        }
    if (rank == 0) { /* the sums are global: one rank says it */
        if (h[SG_OUT_COUNT] != h[SG_IN_COUNT] || h[SG_IN_COUNT] != (uint64_t)N)
            fails++, printf("  FAIL: %llu keys out of %llu in (N = %lld)\n", (unsigned long long)h[SG_OUT_COUNT],
                            (unsigned long long)h[SG_IN_COUNT], (long long)N);
        if (h[SG_OUT_KEYS] != h[SG_IN_KEYS])
            fails++, printf("  FAIL: the keys' hash changed: a key was lost, duplicated or altered\n");
        if (with_values && h[SG_OUT_PAIRS] != h[SG_IN_PAIRS])
            fails++, printf("  FAIL: the pairs' hash changed: a value left its key\n");
    }
    return fails;
}

/* cub::DeviceRadixSort on m keys (values: Av, Zv; NULL for keys alone)
 * between A and Z, on their low `bits` bits; *in_a: the result ended in A.
 * temp NULL: *bytes = the tables of any chunk up to m keys. */
cudaError_t sample_cub_sort(void *temp, size_t *bytes, unsigned int *A, unsigned int *Av, unsigned int *Z,
                            unsigned int *Zv, int64_t m, int pairs, int *in_a, cudaStream_t stream)
{
    cub::DoubleBuffer<unsigned int> dk(A, Z), dv(Av, Zv);
    size_t b = *bytes;
    cudaError_t err;
    if (!pairs) /* an int64_t count: CUB's faster form for keys (docs/ch13-sample-sort-measured.md) */
        err = cub::DeviceRadixSort::SortKeys(temp, b, dk, m, 0, 32, stream);
    else if (temp != NULL)
        err = m <= INT_MAX ? cub::DeviceRadixSort::SortPairs(temp, b, dk, dv, (int)m, 0, 32, stream)
                           : cub::DeviceRadixSort::SortPairs(temp, b, dk, dv, m, 0, 32, stream);
    else { /* asking: the tables of either form */
        size_t narrow = 0, wide = 0;
        err = cub::DeviceRadixSort::SortPairs(NULL, narrow, dk, dv, (int)(m < INT_MAX ? m : INT_MAX), 0, 32, stream);
        if (err == cudaSuccess)
            err = cub::DeviceRadixSort::SortPairs(NULL, wide, dk, dv, m, 0, 32, stream);
        b = narrow > wide ? narrow : wide;
    }
    *bytes = b;
    if (in_a != NULL)
        *in_a = dk.selector == 0;
    return err;
}

int sample_check_memory(int rank, int device, size_t own_bytes, size_t free_before, size_t temp_bytes, double share,
                        int shares_gpu, double *peak)
{
    size_t free_now, total;
    CUDA_CHECK(cudaSetDevice(device));
    CUDA_CHECK(cudaMemGetInfo(&free_now, &total));
    const double own = (double)own_bytes, mib = 1 << 20, limit = 2.25 * share + 256.0 * mib;
    const double used = shares_gpu ? own : (double)free_before - (double)free_now; /* ranks on one GPU: their own */
    *peak = fmax(*peak, share > 0 ? used / share : 0);
    if (own > limit && (double)temp_bytes >= share) { /* a local sort with a second buffer of its own */
        printf("  NOTE GPU %d: %.0f MiB of buffers, above 2.25 x its share + 256 MiB = %.0f MiB: the local sort's"
               " tables (%.0f MiB) hold a second buffer of their own\n",
               rank, own / mib, limit / mib, (double)temp_bytes / mib);
        return 0;
    }
    if (own > limit) {
        printf("  FAIL GPU %d: %.0f MiB of buffers, above 2.25 x its share + 256 MiB = %.0f MiB\n", rank, own / mib,
               limit / mib);
        return 1;
    }
    if (used > limit)
        printf("  NOTE GPU %d: its buffers take %.0f MiB, but %.0f MiB of the device went since they were made"
               " (NCCL's buffers, or another process on this GPU), above %.0f MiB\n",
               rank, own / mib, used / mib, limit / mib);
    return 0;
}
