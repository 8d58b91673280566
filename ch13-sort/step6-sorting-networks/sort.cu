/* Exercise made from solutions/ch13-sort/step6-sorting-networks/sort.cu by `make exercises`: fill in each TODO. `make diff STEP=ch13-sort/step6-sorting-networks` compares. */
/* sort.cu - ch13 step 6: section 13.8's sorting networks, fixed patterns of
 * compare-and-swap. --variant odd-even: odd-even transposition sort, O(n^2)
 * work, in one block (n <= 4096). --variant bitonic (default): Batcher's
 * bitonic sort, O(n log^2 n) work, for n padded to a power of two. */
#include <string.h>

#include "sort.h"

/* ---- odd-even transposition sort ----------------------------------------- */

/* Section 13.8: phase p compares the pairs (k, k+1) with k even (p even) or k
 * odd (p odd) and swaps a pair out of order. A phase's pairs are disjoint, so
 * its threads work at once; phases alternate until an even and an odd phase
 * both swap nothing. Swapping only when strictly greater keeps equal keys in
 * order: the sort is stable. */
__global__ void odd_even_sort(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                              unsigned int *values_out, int n)
{
    extern __shared__ unsigned int s_keys[]; /* n keys, then n values */
    unsigned int *s_values = s_keys + n;
    const int has_values = values_in != NULL;
    for (int x = threadIdx.x; x < n; x += blockDim.x) {
        s_keys[x] = keys_in[x];
        s_values[x] = has_values ? values_in[x] : 0;
    }
    __syncthreads();
    int quiet = 0; /* phases in a row that swapped nothing */
    for (int phase = 0; quiet < 2; phase++) {
        int swapped = 0;
        for (int k = 2 * threadIdx.x + (phase & 1); k + 1 < n; k += 2 * blockDim.x) {
            /* TODO(1): section 13.8: if the key at k + 1 is smaller than the key at k, swap the two keys and their values, and note that this thread swapped */
        }
        quiet = __syncthreads_or(swapped) ? 0 : quiet + 1; /* a barrier that also tells whether anyone swapped */
    }
    for (int x = threadIdx.x; x < n; x += blockDim.x) {
        keys_out[x] = s_keys[x];
        if (has_values)
            values_out[x] = s_values[x];
    }
}

/* ---- bitonic sort --------------------------------------------------------- */

/* Bitonic sort is not stable; comparing (key, input index) makes every
 * element distinct, so the one sorted order is the stable one. The index also
 * says where each value is: values move once, at the end. */
static __device__ __forceinline__ int after(unsigned int key_a, unsigned int idx_a, unsigned int key_b, unsigned int idx_b)
{
    return key_a > key_b || (key_a == key_b && idx_a > idx_b);
}

/* One compare-and-swap of Batcher's network: x and y = x + stride; while
 * building sorted runs of `size`, runs whose first index has bit `size` clear
 * go up, the others down (together they make the next size's bitonic input). */
static __device__ __forceinline__ void bitonic_step(unsigned int *K, unsigned int *I, unsigned int x, unsigned int y,
                                                    unsigned int global_x, unsigned int size)
{
    /* TODO(2): section 13.8: ascending when (global_x & size) == 0; swap K[x], K[y] (and I[x], I[y]) when the pair is in the wrong order for that direction, comparing with after() */
    (void)K; (void)I; (void)x; (void)y; (void)global_x; (void)size;
}

/* The lower index of compare pair q at distance stride: q with a 0 bit inserted at stride. */
static __device__ __forceinline__ unsigned int pair_low(unsigned int q, unsigned int stride)
{
    return 2 * q - (q & (stride - 1));
}

/* Sizes 2 .. tile: each block sorts its tile in shared memory (up or down as
 * the network says); past n, (0xffffffff, index >= n) pads to a power of two. */
__global__ void bitonic_sort_tile(const unsigned int *keys_in, unsigned int *K, unsigned int *I, unsigned int n,
                                  unsigned int tile)
{
    extern __shared__ unsigned int s_k[]; /* tile keys, then tile indices */
    unsigned int *s_i = s_k + tile;
    const unsigned int base = blockIdx.x * tile;
    for (unsigned int x = threadIdx.x; x < tile; x += blockDim.x) {
        s_k[x] = base + x < n ? keys_in[base + x] : 0xffffffffu;
        s_i[x] = base + x;
    }
    for (unsigned int size = 2; size <= tile; size <<= 1)
        for (unsigned int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            for (unsigned int q = threadIdx.x; q < tile / 2; q += blockDim.x) {
                const unsigned int x = pair_low(q, stride);
                bitonic_step(s_k, s_i, x, x + stride, base + x, size);
            }
        }
    __syncthreads();
    for (unsigned int x = threadIdx.x; x < tile; x += blockDim.x) {
        K[base + x] = s_k[x];
        I[base + x] = s_i[x];
    }
}

/* A step of size `size` whose stride reaches across tiles: one thread per pair, in global memory. */
__global__ void bitonic_merge_global(unsigned int *K, unsigned int *I, unsigned int pairs, unsigned int size,
                                     unsigned int stride)
{
    const unsigned int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q < pairs) {
        const unsigned int x = pair_low(q, stride);
        bitonic_step(K, I, x, x + stride, x, size);
    }
}

/* The remaining steps of size `size` (strides tile/2 .. 1) stay inside a tile: one launch, in shared memory. */
__global__ void bitonic_merge_tile(unsigned int *K, unsigned int *I, unsigned int size, unsigned int tile)
{
    extern __shared__ unsigned int s_k[];
    unsigned int *s_i = s_k + tile;
    const unsigned int base = blockIdx.x * tile;
    for (unsigned int x = threadIdx.x; x < tile; x += blockDim.x) {
        s_k[x] = K[base + x];
        s_i[x] = I[base + x];
    }
    for (unsigned int stride = tile / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        for (unsigned int q = threadIdx.x; q < tile / 2; q += blockDim.x) {
            const unsigned int x = pair_low(q, stride);
            bitonic_step(s_k, s_i, x, x + stride, base + x, size);
        }
    }
    __syncthreads();
    for (unsigned int x = threadIdx.x; x < tile; x += blockDim.x) {
        K[base + x] = s_k[x];
        I[base + x] = s_i[x];
    }
}

/* The first n of the sorted (key, index) pairs are the output; values follow their index. */
__global__ void bitonic_gather(const unsigned int *K, const unsigned int *I, const unsigned int *values_in,
                               unsigned int *keys_out, unsigned int *values_out, unsigned int n)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        keys_out[i] = K[i];
        if (values_in != NULL)
            values_out[i] = values_in[I[i]];
    }
}

/* ---- launchers ------------------------------------------------------------ */

static int is_odd_even(const sort_params *p)
{
    return p->variant != NULL && strcmp(p->variant, "odd-even") == 0;
}

static int64_t pow2_at_least(int64_t n)
{
    int64_t P = 1;
    while (P < n)
        P *= 2;
    return P;
}

static const char *check(int64_t n, const sort_params *p)
{
    const char *why = sort_check_block(p->block, 0);
    if (why != NULL)
        return why;
    if (p->variant != NULL && p->variant[0] != '\0' && strcmp(p->variant, "bitonic") != 0 && !is_odd_even(p))
        return "--variant must be bitonic or odd-even";
    if (n < 0)
        return "n must not be negative";
    if (is_odd_even(p) && n > SORT_ODD_EVEN_MAX)
        return "odd-even transposition sort does O(n^2) work in one block: n must be at most 4096 (use --variant bitonic or a radix step)";
    if (!is_odd_even(p) && pow2_at_least(n) > SORT_BITONIC_MAX)
        return "bitonic sort pads n to a power of two: n must be at most 2^28";
    if (!is_odd_even(p) && (p->tile < 2 || p->tile > (1 << 16) || (p->tile & (p->tile - 1)) != 0))
        return "tile must be a power of two, 2 to 65536";
    return NULL;
}

size_t sort_temp_bytes(int64_t n, int with_values, const sort_params *p)
{
    (void)with_values;
    if (check(n, p) != NULL || is_odd_even(p))
        return 0;
    return 2 * sizeof(unsigned int) * (size_t)pow2_at_least(n); /* keys and indices, padded */
}

const char *sort_launch(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                        unsigned int *values_out, int64_t n, void *temp_d, const sort_params *p)
{
    const char *why = check(n, p);
    if (why != NULL || n == 0)
        return why;
    if (is_odd_even(p)) {
        const size_t shared = 2 * sizeof(unsigned int) * (size_t)n;
        odd_even_sort<<<1, p->block, shared>>>(keys_in, values_in, keys_out, values_out, (int)n);
        CUDA_CHECK_LAUNCH();
        return NULL;
    }
    const unsigned int P = (unsigned int)pow2_at_least(n), tile = P < (unsigned int)p->tile ? P : (unsigned int)p->tile;
    const size_t shared = 2 * sizeof(unsigned int) * (size_t)tile;
    if ((why = sort_fit_kernel((const void *)bitonic_sort_tile, p->block, shared)) != NULL ||
        (why = sort_fit_kernel((const void *)bitonic_merge_tile, p->block, shared)) != NULL)
        return why;
    unsigned int *K = (unsigned int *)temp_d, *I = K + P;
    bitonic_sort_tile<<<P / tile, p->block, shared>>>(keys_in, K, I, (unsigned int)n, tile);
    CUDA_CHECK_LAUNCH();
    for (unsigned int size = 2 * tile; size <= P && size != 0; size <<= 1) {
        for (unsigned int stride = size / 2; stride >= tile; stride >>= 1) {
            bitonic_merge_global<<<(P / 2 + 255) / 256, 256>>>(K, I, P / 2, size, stride);
            CUDA_CHECK_LAUNCH();
        }
        bitonic_merge_tile<<<P / tile, p->block, shared>>>(K, I, size, tile);
        CUDA_CHECK_LAUNCH();
    }
    bitonic_gather<<<(unsigned int)((n + 255) / 256), 256>>>(K, I, values_in, keys_out, values_out, (unsigned int)n);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* Added by `make exercises`: ./run and the tests print this while the TODOs are undone. */
extern "C" const char *const lab_step_todos =
    "\n  Exercise: TODOs left in ch13-sort/step6-sorting-networks (`make diff STEP=ch13-sort/step6-sorting-networks` shows the solution):\n"
    "    ch13-sort/step6-sorting-networks/sort.cu:32: TODO(1) section 13.8: if the key at k + 1 is smaller than the key at k, swap the two keys and their values, and note that this thread swapped\n"
    "    ch13-sort/step6-sorting-networks/sort.cu:59: TODO(2) section 13.8: ascending when (global_x & size) == 0; swap K[x], K[y] (and I[x], I[y]) when the pair is in the wrong order for that direction, comparing with after()\n";
