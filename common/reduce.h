/* reduce.h - chapter 10's interface: the element type and the operator with
 * its identity (defined once, for every step and the CPU reference), what
 * every step's launcher takes, and the device helpers the steps share. */
#ifndef LAB_REDUCE_H
#define LAB_REDUCE_H

#include <math.h>
#include <string.h>

#include "lab.h"

LAB_BEGIN_C

/* --op and --type. Steps 1-3 are the book's float sums; steps 4-7 take all six kinds. */
typedef enum { REDUCE_SUM, REDUCE_MAX, REDUCE_MIN } reduce_op;
typedef enum { REDUCE_INT, REDUCE_FLOAT } reduce_type;
typedef struct {
    reduce_op op;
    reduce_type type;
} reduce_kind;

/* One element of steps 4-7: 32 bits holding an int, or a float's bits, as the
 * kind says. Section 10.1: every type has "the same computation structure";
 * only reduce_combine and reduce_identity look inside. */
typedef int32_t reduce_t;

static inline __host__ __device__ float reduce_as_float(reduce_t bits)
{
#ifdef __CUDA_ARCH__
    return __int_as_float(bits);
#else
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
#endif
}

static inline __host__ __device__ reduce_t reduce_float_bits(float f)
{
#ifdef __CUDA_ARCH__
    return __float_as_int(f);
#else
    reduce_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
#endif
}

/* The operator (Fig 10.2), once for every step and the CPU reference: a op b
 * for the kind. Int sums wrap modulo 2^32 (as the GPU's add does; in unsigned
 * arithmetic so that C defines it too): still associative. Written with
 * selects (fmaxf, not a branch) so that the GPU runs it without branching. */
static inline __host__ __device__ reduce_t reduce_combine(reduce_kind k, reduce_t a, reduce_t b)
{
    if (k.type == REDUCE_FLOAT) {
        const float x = reduce_as_float(a), y = reduce_as_float(b);
        return reduce_float_bits(k.op == REDUCE_SUM ? x + y : k.op == REDUCE_MAX ? fmaxf(x, y) : fminf(x, y));
    }
    if (k.op == REDUCE_SUM)
        return (reduce_t)((uint32_t)a + (uint32_t)b);
    return k.op == REDUCE_MAX ? (a > b ? a : b) : (a < b ? a : b);
}

/* The operator's identity (section 10.1): 0 for a sum, -inf (the lowest int)
 * for max, +inf (the highest int) for min. combine(identity, x) == x. */
static inline __host__ __device__ reduce_t reduce_identity(reduce_kind k)
{
    if (k.type == REDUCE_FLOAT)
        return reduce_float_bits(k.op == REDUCE_SUM ? 0.0f : k.op == REDUCE_MAX ? -INFINITY : INFINITY);
    return k.op == REDUCE_SUM ? 0 : k.op == REDUCE_MAX ? INT32_MIN : INT32_MAX;
}

/* The largest block; shared arrays are this long (the book's BLOCK_DIM is a
 * compile-time constant equal to blockDim.x; here the block is a parameter). */
#define REDUCE_MAX_BLOCK 1024

/* ./run --analyze (steps 1-3): what the instrumented kernel records. Slot s
 * is the iteration whose stride is 2^s; active threads set their lane bit,
 * and each warp access ORs in the 128-byte segments it touches (relative to
 * base, the input array: N <= 2048 floats is at most 64 segments). */
#define REDUCE_SLOTS 12
#define REDUCE_ACCESSES 3
typedef struct {
    unsigned long long base;                                              /* set by the host: the input's address */
    unsigned int lanes[REDUCE_SLOTS][REDUCE_MAX_BLOCK / 32];             /* active lanes per warp */
    unsigned long long segments[REDUCE_SLOTS][REDUCE_ACCESSES][REDUCE_MAX_BLOCK / 32]; /* per access, per warp */
    unsigned long long out_requests; /* after the tree: thread 0's global read of the result and write of *output */
} reduce_counters;

/* What every step's launcher takes; block, grid and per_thread come back
 * filled in with what ran. */
typedef struct {
    reduce_kind kind;
    int block;   /* threads per block (steps 1-3: the largest; they run one block of N/2) */
    int grid;    /* blocks; 0: derived from N (steps 6-7 accept any grid: grid-stride loop) */
    int coarsen; /* COARSE_FACTOR (Fig 10.15): each thread combines 2*coarsen elements first (steps 5-7) */
    int variant; /* steps 6-7: which form, 1 or 2 (0: the first) */
    reduce_counters *counters; /* --analyze, steps 1-3: device counters; else NULL */
    int64_t per_thread; /* out: the most elements one thread combines in sequence before the tree */
} reduce_params;

/* Each step: *output_d = the reduction of input_d[0, n), all in device
 * memory, one element (float for steps 1-3, reduce_t for steps 4-7). Steps 1
 * and 2 reduce in place: input_d is overwritten, as in the book. Returns NULL
 * once launched, or why these parameters cannot run (nothing launched). */
const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p);

/* Steps 1-3 run the book's single-block kernels as printed: one block of N/2
 * threads, N a power of two from 2 to 2 x block (at most 2048). */
static inline const char *reduce_single_block_check(int64_t n, const reduce_params *p)
{
    if (p->kind.op != REDUCE_SUM || p->kind.type != REDUCE_FLOAT)
        return "steps 1-3 are the book's float sum kernels: use --op sum --type float (steps 4-7 take max, min and int)";
    if (p->block < 1 || p->block > REDUCE_MAX_BLOCK)
        return "block must be 1 to 1024 threads";
    if (n < 2 || n > 2 * (int64_t)p->block || (n & (n - 1)) != 0)
        return "steps 1-3 run one block of N/2 threads, as the book does: N must be a power of two from 2 to "
               "2 x --block (2048 at most); steps 4-7 take any N";
    return NULL;
}

/* Steps 4-7: the kind, and a block the tree can use: a power of two for the
 * halving shared-memory tree (steps 4-5), whole warps for the warp trees (6-7). */
static inline const char *reduce_multi_block_check(const reduce_params *p, int whole_warps)
{
    if ((unsigned)p->kind.op > REDUCE_MIN || (unsigned)p->kind.type > REDUCE_FLOAT)
        return "unknown operator or type";
    if (p->block < 1 || p->block > REDUCE_MAX_BLOCK)
        return "block must be 1 to 1024 threads";
    if (!whole_warps && (p->block & (p->block - 1)) != 0)
        return "block must be a power of two: the tree halves the active threads each step";
    if (whole_warps && p->block % 32 != 0)
        return "block must be a multiple of 32: each warp reduces 32 elements";
    if (p->coarsen < 1)
        return "--coarsen must be at least 1";
    return NULL;
}

/* Blocks for n elements, per_block each: p->grid = 0 derives ceil(n / per_block);
 * a given grid must cover n when cover is set (steps 4-5 map one segment per block). */
static inline const char *reduce_set_grid(int64_t n, int64_t per_block, reduce_params *p, int cover)
{
    const int64_t need = (n + per_block - 1) / per_block;
    if (p->grid < 0)
        return "--grid must not be negative";
    if (p->grid == 0 && need > 2147483647LL)
        return "N needs more than 2^31 - 1 blocks: raise --block or --coarsen";
    if (p->grid == 0)
        p->grid = (int)need;
    else if (cover && p->grid < need)
        return "--grid too small: each block takes one segment of 2 x coarsen x block elements (leave --grid 0)";
    return NULL;
}

LAB_END_C

#ifdef __CUDACC__
/* Combines value into *output atomically: atomicAdd/Max/Min where the GPU has
 * them; float max and min have none, so compare-and-swap until ours is in. */
static inline __device__ void reduce_atomic(reduce_kind k, reduce_t *output, reduce_t value)
{
    if (k.type == REDUCE_INT && k.op == REDUCE_SUM)
        atomicAdd(output, value);
    else if (k.type == REDUCE_INT && k.op == REDUCE_MAX)
        atomicMax(output, value);
    else if (k.type == REDUCE_INT)
        atomicMin(output, value);
    else if (k.op == REDUCE_SUM)
        atomicAdd((float *)output, reduce_as_float(value));
    else {
        reduce_t old = *output, assumed;
        do {
            assumed = old;
            old = atomicCAS(output, assumed, reduce_combine(k, assumed, value));
        } while (old != assumed);
    }
}

static __global__ void reduce_identity_kernel(reduce_t *output, reduce_kind k)
{
    *output = reduce_identity(k);
}

/* Steps 4-7: *output starts as the identity, then every block combines its
 * result into it (the book assumes *output == 0 before the launch). */
static inline void reduce_start_output(reduce_t *output, reduce_kind k)
{
    reduce_identity_kernel<<<1, 1>>>(output, k);
    CUDA_CHECK_LAUNCH();
}

/* --analyze (steps 1-3): an active thread of the iteration with this stride
 * records its lane and the global addresses it reads and writes (NULL: not
 * global memory). Costs one not-taken branch when counters is NULL. */
static inline __device__ void reduce_analyze(reduce_counters *counters, unsigned int stride, const void *read1,
                                             const void *read2, const void *write)
{
    if (counters == NULL)
        return;
    const unsigned int slot = __ffs(stride) - 1, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const void *access[REDUCE_ACCESSES] = {read1, read2, write};
    atomicOr(&counters->lanes[slot][warp], 1u << lane);
    for (int a = 0; a < REDUCE_ACCESSES; a++)
        if (access[a] != NULL)
            atomicOr(&counters->segments[slot][a][warp],
                     1ull << (((unsigned long long)access[a] - counters->base) / 128 % 64));
}

/* --analyze: thread 0 writes *output (one request), after reading the result
 * from global memory (one more) or from shared memory (global_read NULL). */
static inline __device__ void reduce_analyze_output(reduce_counters *counters, const void *global_read)
{
    if (counters != NULL)
        atomicAdd(&counters->out_requests, global_read != NULL ? 2ull : 1ull);
}
#endif

#endif
