/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step6` gives graded hints. */
/* sort.cu - ch13 step 6: fixed patterns of compare-and-swap instead of
 * data-dependent addresses (sorting networks).
 * Section 13.8 (no figure). --variant odd-even: odd-even transposition sort,
 * O(n^2) work, in one block (n <= 4096). --variant bitonic (default): Batcher's
 * bitonic sort, O(n log^2 n) work, for n padded to a power of two: the tiles
 * in shared memory (bitonic_sort_tile, bitonic_merge_tile), the long strides
 * in global memory (bitonic_merge_global). */
#include <string.h>

#include "sort_host.h"

/* Odd-even transposition sorts in one block's shared memory (n phases). */
#define ODD_EVEN_MAX 4096
/* Bitonic sort pads to a power of two P; P at most 2^28. */
#define BITONIC_MAX (1LL << 28)

/* ---- odd-even transposition sort ----------------------------------------- */

/* Section 13.8: if the key at k + 1 is smaller than the key at k, swap the
 * two keys and their values; 1 when it swapped. Swapping only when strictly
 * greater keeps equal keys in order: the sort is stable. */
static __device__ __forceinline__ int compare_and_swap(unsigned int *s_keys, unsigned int *s_values, int k)
{
    /* TODO(1): compare_and_swap(), section 13.8: if the key at k + 1 (s_keys[k + 1]) is strictly
       smaller than the key at k, swap the two keys and their values (s_values) and return 1; else
       return 0 */
    return 0;
}

/* Phase p compares the pairs (k, k+1) with k even (p even) or k odd (p odd).
 * A phase's pairs are disjoint, so its threads work at once; phases alternate
 * until an even and an odd phase both swap nothing. */
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
        for (int k = 2 * threadIdx.x + (phase & 1); k + 1 < n; k += 2 * blockDim.x)
            swapped |= compare_and_swap(s_keys, s_values, k);
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
static __device__ __forceinline__ int after(unsigned int key_a, unsigned int idx_a, unsigned int key_b,
                                            unsigned int idx_b)
{
    return key_a > key_b || (key_a == key_b && idx_a > idx_b);
}

/* One compare-and-swap of Batcher's network: x and y = x + stride; while
 * building sorted runs of `size`, runs whose first index has bit `size` clear
 * go up, the others down (together they make the next size's bitonic input). */
static __device__ __forceinline__ void bitonic_step(unsigned int *K, unsigned int *I, unsigned int x, unsigned int y,
                                                    unsigned int global_x, unsigned int size)
{
    /* TODO(2): bitonic_step(), section 13.8: the run is ascending when (global_x & size) == 0, else
       descending; swap K[x], K[y] (and I[x], I[y]) when the pair is in the wrong order for that
       direction, comparing (key, index) pairs with after() */
}

/* The lower index of compare pair q at distance stride: q with a 0 bit inserted at stride. */
static __device__ __forceinline__ unsigned int pair_low(unsigned int q, unsigned int stride)
{
    return 2 * q - (q & (stride - 1));
}

/* The steps of size `size` from stride `stride` down to 1, inside this
 * block's tile of keys (and indices) in shared memory, base its first index. */
static __device__ __forceinline__ void bitonic_tile_steps(unsigned int *s_k, unsigned int *s_i, unsigned int base,
                                                          unsigned int tile, unsigned int size, unsigned int stride)
{
    for (; stride > 0; stride >>= 1) {
        __syncthreads(); /* the tile's load, or the last stride's swaps, are done before this stride reads */
        for (unsigned int q = threadIdx.x; q < tile / 2; q += blockDim.x) {
            const unsigned int x = pair_low(q, stride);
            bitonic_step(s_k, s_i, x, x + stride, base + x, size);
        }
    }
}

/* The tile's keys and indices back to K and I. */
static __device__ __forceinline__ void store_tile(unsigned int *K, unsigned int *I, const unsigned int *s_k,
                                                  const unsigned int *s_i, unsigned int base, unsigned int tile)
{
    __syncthreads();
    for (unsigned int x = threadIdx.x; x < tile; x += blockDim.x) {
        K[base + x] = s_k[x];
        I[base + x] = s_i[x];
    }
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
        bitonic_tile_steps(s_k, s_i, base, tile, size, size / 2);
    store_tile(K, I, s_k, s_i, base, tile);
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
    bitonic_tile_steps(s_k, s_i, base, tile, size, tile / 2);
    store_tile(K, I, s_k, s_i, base, tile);
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

/* The tile a bitonic sort of n keys uses: --tile, or less for a small n. */
static unsigned int bitonic_tile(int64_t n, const sort_params *p)
{
    const int64_t P = pow2_at_least(n);
    return (unsigned int)(P < p->tile ? P : p->tile);
}

static const char *odd_even_launch(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                                   unsigned int *values_out, int64_t n, const sort_params *p)
{
    const size_t shared = 2 * sizeof(unsigned int) * (size_t)n;
    odd_even_sort<<<1, p->block, shared>>>(keys_in, values_in, keys_out, values_out, (int)n);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* Sizes up to the tile in one launch, then for each larger size its strides
 * across tiles one launch each and the rest in one, then the gather. */
static const char *bitonic_launch(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                                  unsigned int *values_out, int64_t n, const sort_ws *ws, const sort_params *p)
{
    const unsigned int P = (unsigned int)pow2_at_least(n), tile = bitonic_tile(n, p);
    const size_t shared = 2 * sizeof(unsigned int) * (size_t)tile;
    unsigned int *K = (unsigned int *)ws->words, *I = K + P;
    bitonic_sort_tile<<<P / tile, p->block, shared>>>(keys_in, K, I, (unsigned int)n, tile);
    CUDA_CHECK_LAUNCH();
    for (unsigned int size = 2 * tile; size <= P && size != 0; size <<= 1) {
        for (unsigned int stride = size / 2; stride >= tile; stride >>= 1) {
            bitonic_merge_global<<<(unsigned int)sort_ceil_div(P / 2, 256), 256>>>(K, I, P / 2, size, stride);
            CUDA_CHECK_LAUNCH();
        }
        bitonic_merge_tile<<<P / tile, p->block, shared>>>(K, I, size, tile);
        CUDA_CHECK_LAUNCH();
    }
    bitonic_gather<<<(unsigned int)sort_ceil_div(n, 256), 256>>>(K, I, values_in, keys_out, values_out,
                                                                 (unsigned int)n);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* The variant --variant names (sort_run has checked n and laid out the workspace). */
static const char *networks_launch(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                                   unsigned int *values_out, int64_t n, const sort_ws *ws, const sort_params *p)
{
    if (is_odd_even(p))
        return odd_even_launch(keys_in, values_in, keys_out, values_out, n, p);
    return bitonic_launch(keys_in, values_in, keys_out, values_out, n, ws, p);
}

/* ---- what ./run and the tests ask of this step ---------------------------- */

static const char *const variants[] = {"bitonic", "odd-even", NULL};

static const char *check(int64_t n, const sort_params *p)
{
    if (p->variant != NULL && p->variant[0] != '\0' && !lab_name_in(p->variant, variants))
        return "--variant must be bitonic or odd-even";
    if (is_odd_even(p) && n > ODD_EVEN_MAX)
        return "odd-even transposition sort does O(n^2) work in one block: n must be at most 4096 (use --variant "
               "bitonic or a radix step)";
    if (!is_odd_even(p) && (p->tile < 2 || p->tile > (1 << 16) || (p->tile & (p->tile - 1)) != 0))
        return "--tile must be a power of two, 2 to 65536";
    return NULL;
}

static int64_t max_n_of(const sort_params *p)
{
    return is_odd_even(p) ? ODD_EVEN_MAX : BITONIC_MAX;
}

/* The tile sort and the tile merges hold a tile of keys and indices in shared memory. */
static const char *fit(int64_t n, const sort_params *p, int with_values)
{
    (void)with_values;
    if (is_odd_even(p))
        return NULL;
    const size_t shared = 2 * sizeof(unsigned int) * (size_t)bitonic_tile(n, p);
    const char *why = lab_fit_kernel((const void *)bitonic_sort_tile, p->block, shared);
    return why != NULL ? why : lab_fit_kernel((const void *)bitonic_merge_tile, p->block, shared);
}

/* bitonic: keys and indices, padded to a power of two; odd-even: nothing */
static void workspace(int64_t n, const sort_params *p, sort_ws_need *need)
{
    need->words = is_odd_even(p) ? 0 : 2 * pow2_at_least(n);
}

static void describe(const sort_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "variant=%s block=%d tile=%d", p->variant, p->block, p->tile);
}

/* Step 6's facts: bitonic sort (the default) or odd-even transposition, in one launcher (sort.h). */
const sort_step sort_step_info = {
    .lab = {.about = "Step 6: --variant bitonic sorts n up to 2^28 keys padded to a power of two, tiles of\n"
                     "--tile keys (a power of two, 2 to 65536) in shared memory (default n 65536);\n"
                     "--variant odd-even sorts n up to 4096 keys in one block (default n 4096).\n"
                     "--example sorts Fig 13.1's keys.\n",
            .default_n = 1 << 16,
            .max_n = BITONIC_MAX,
            .max_n_why = "bitonic sort pads n to a power of two: n must be at most 2^28",
            .variants = variants},
    .takes = SORT_TAKES_EVERY | SORT_TAKES_TILE | SORT_TAKES_VARIANT,
    .defaults = {.block = 256, .tile = 2048, .variant = "bitonic"},
    .needs = {.block = LAB_BLOCK_ANY, .workspace = workspace, .check = check, .max_n_of = max_n_of, .fit = fit},
    .describe = describe,
    .sorts = {.launch = networks_launch},
};
