/* reduce.h - chapter 10's interface: the element, the operator and its
 * identity (once, for every step and the CPU reference), what a launcher
 * takes, and the step descriptor through which the driver and the tests ask a
 * step what it is (its defaults, options, launch check and, for the book's
 * single-block kernels, the book's analysis). */
#ifndef LAB_REDUCE_H
#define LAB_REDUCE_H

#include <math.h>
#include <string.h>

#include "lab.h"
#include "step.h"

LAB_BEGIN_C

/* --op and --type. Steps 1-3 are the book's float sums; steps 4-8 take all six kinds. */
typedef enum { REDUCE_SUM, REDUCE_MAX, REDUCE_MIN } reduce_op;
typedef enum { REDUCE_INT, REDUCE_FLOAT } reduce_type;
typedef struct {
    reduce_op op;
    reduce_type type;
} reduce_kind;

/* One element of steps 4-8: 32 bits holding an int, or a float's bits, as the
 * kind says. Section 10.1: every type has "the same computation structure";
 * only reduce_combine and reduce_identity look inside. */
typedef int32_t reduce_t;

/* A float's bits and back, the same on the host and the GPU (where the copy
 * compiles to nothing: the bits stay in their register). */
static inline __host__ __device__ float reduce_as_float(reduce_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline __host__ __device__ reduce_t reduce_float_bits(float f)
{
    reduce_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
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

/* -n's limit for the steps that take any N: 2^34 elements, 64 GiB of input
 * (indices are 64-bit; the limit is the GPU's memory). */
#define REDUCE_MAX_N ((int64_t)1 << 34)

/* ./run --analyze and --example (steps 1-3): what the instrumented kernel
 * records (reduce_analyze, reduce_device.cuh). Slot s is the time step
 * whose stride is 2^s; an active thread sets its lane bit, each warp access to
 * global memory ORs in the 128-byte segments it touches (relative to base, the
 * input: N <= 2048 floats is at most 64 segments), and the first
 * REDUCE_EXAMPLE_THREADS threads note which elements they read and wrote. */
#define REDUCE_SLOTS           12
#define REDUCE_ACCESSES        3 /* the two elements an active thread combines, and the one it writes */
#define REDUCE_EXAMPLE_THREADS 32
#define REDUCE_EXAMPLE_MAX_N   (2 * REDUCE_EXAMPLE_THREADS)
typedef struct {
    unsigned long long base;                                 /* set by the host: the input's address */
    unsigned int lanes[REDUCE_SLOTS][REDUCE_MAX_BLOCK / 32]; /* active lanes per warp */
    unsigned long long segments[REDUCE_SLOTS][REDUCE_ACCESSES][REDUCE_MAX_BLOCK / 32]; /* per access, per warp */
    unsigned long long out_requests; /* after the tree: thread 0's global read of the result and write of *output */
    /* per slot, thread and access: 1 + i for input[i], -(1 + i) for the i-th element of shared memory, 0 none */
    int element[REDUCE_SLOTS][REDUCE_EXAMPLE_THREADS][REDUCE_ACCESSES];
} reduce_counters;

/* What every step's launcher takes; block, grid, coarsen and per_thread come
 * back filled in with what ran (the step's check sets them). */
typedef struct {
    reduce_kind kind;
    int block;   /* threads per block (steps 1-3: the largest; they run one block of N/2) */
    int grid;    /* blocks; 0: derived from N (steps 6-8 accept any grid: grid-stride loop) */
    int coarsen; /* COARSE_FACTOR (Fig 10.15): each thread combines 2*coarsen elements first (steps 5-8) */
    int variant; /* steps 6-8: which form, 1 or 2 (0: the first) */
    reduce_counters *counters; /* --analyze, --example (steps 1-3): device counters; else NULL */
    int64_t per_thread;        /* out: the most elements one thread combines in sequence before the tree */
} reduce_params;

/* Each step: *output_d = the reduction of input_d[0, n), all in device
 * memory, one element (float for steps 1-3, reduce_t for steps 4-8). Steps 1
 * and 2 reduce in place: input_d is overwritten, as in the book. Returns NULL
 * once launched, or why these parameters cannot run (nothing launched). */
const char *reduce_launch(void *input_d, int64_t n, void *output_d, reduce_params *p);

/* ---- the step descriptor ------------------------------------------------- */

/* A count --analyze measures (reduce_metric_value, reduce_book.c). */
typedef enum {
    REDUCE_SECTION,         /* not a count: the row is a heading */
    REDUCE_WARP_STEPS,      /* warps with an active thread, summed over time steps */
    REDUCE_LANES_CONSUMED,  /* the same x 32: the execution resources consumed */
    REDUCE_RESULTS,         /* results committed by active threads */
    REDUCE_EFFICIENCY,      /* committed / consumed */
    REDUCE_DIVERGENT_STEPS, /* time steps in which a warp has active and idle threads */
    REDUCE_TREE_REQUESTS,   /* global requests of the tree (the loads, for Fig 10.11) */
    REDUCE_OUT_REQUESTS,    /* after the tree: thread 0's read of the result, write of *output */
    REDUCE_ALL_REQUESTS     /* the two above together */
} reduce_metric;

/* One line of the book's analysis of a figure, as --analyze prints it: the
 * measured count beside the book's formula at this N and the number the book
 * prints. For a REDUCE_SECTION row, label is the heading. */
typedef struct reduce_book reduce_book;
typedef struct {
    const reduce_book *book; /* the figure it is about */
    reduce_metric metric;
    const char *label;              /* what is counted */
    const char *formula;            /* the book's formula (NULL when it gives none) */
    double (*formula_at)(double n); /* its value at N (formulas count N/64 whole warps: N >= 64) */
    const char *at_256, *at_2048;   /* the number the book prints at N = 256, N = 2048 (NULL: none) */
    const char *remark;             /* printed at any other N, or where the book gives words (NULL: none) */
} reduce_book_row;

/* What --analyze makes of the counters (reduce_analyze_counts): per time step
 * of the tree in the order the kernel runs them, and in all. */
typedef struct {
    int steps;
    int stride[REDUCE_SLOTS], warps[REDUCE_SLOTS], divergent[REDUCE_SLOTS], threads[REDUCE_SLOTS],
        requests[REDUCE_SLOTS];
    long long warp_steps;      /* warps with at least one active thread, summed over time steps */
    long long divergent_steps; /* time steps in which some warp has active and inactive threads */
    long long results;         /* results committed by active threads */
    long long requests_tree;   /* global requests of the tree: distinct 128-byte segments per warp access */
    long long requests_out;    /* after the tree: thread 0's read of the result, write of *output */
} reduce_analysis;

/* The book's figure a single-block step implements; its rows are those of
 * reduce_book_rows (reduce_book.c) that name it. */
struct reduce_book {
    const char *figure;     /* "Fig 10.6, the simple kernel" */
    const char *picture;    /* the figure --example draws from the kernel's records: "Fig 10.7" */
    const char *first_step; /* what the first time step is, when the book says (NULL: nothing) */
    int strides_double;     /* 1: the strides run 1, 2, 4, ... (Fig 10.6); 0: blockDim.x, ..., 1 */
    void (*note)(int64_t n, const reduce_analysis *a); /* what more the book says at this N (NULL: nothing) */
};

/* The options of chapter 10 a step may take, beyond the core's (-n, --seed,
 * --reps, --csv, -q): reduce_step.takes, or'ed. ./run's table of options
 * (reduce_options) is built from them; an option the chapter knows and the step does not take is
 * refused by name. */
enum {
    REDUCE_TAKES_DIST = 1u << 0,    /* --dist D: the input's distribution */
    REDUCE_TAKES_OP = 1u << 1,      /* --op OP (one_block steps: sum only) */
    REDUCE_TAKES_TYPE = 1u << 2,    /* --type T (one_block steps: float only) */
    REDUCE_TAKES_BLOCK = 1u << 3,   /* --block B */
    REDUCE_TAKES_GRID = 1u << 4,    /* --grid G */
    REDUCE_TAKES_COARSEN = 1u << 5, /* --coarsen C: COARSE_FACTOR (Fig 10.15) */
    REDUCE_TAKES_VARIANT = 1u << 6, /* --variant V: one of lab.variants */
    REDUCE_TAKES_ANALYZE = 1u << 7, /* --analyze: the book's counts (needs .book) */
    REDUCE_TAKES_EXAMPLE = 1u << 8, /* --example: the book's picture (needs .book) */
    /* the book's single-block kernels (steps 1-3) */
    REDUCE_TAKES_ONE_BLOCK = REDUCE_TAKES_DIST | REDUCE_TAKES_OP | REDUCE_TAKES_TYPE | REDUCE_TAKES_BLOCK |
                             REDUCE_TAKES_ANALYZE | REDUCE_TAKES_EXAMPLE,
    /* one segment per block (steps 4-5 add --coarsen from step 5) */
    REDUCE_TAKES_SEGMENTS =
        REDUCE_TAKES_DIST | REDUCE_TAKES_OP | REDUCE_TAKES_TYPE | REDUCE_TAKES_BLOCK | REDUCE_TAKES_GRID,
    /* the grid-stride steps 6-8 */
    REDUCE_TAKES_GRID_STRIDE = REDUCE_TAKES_SEGMENTS | REDUCE_TAKES_COARSEN | REDUCE_TAKES_VARIANT
};

/* What a step is, for the driver and the generic tests: each step's kernel
 * file defines its reduce_step_info, with designated initializers, at its end. */
typedef struct {
    lab_step lab;   /* --help's paragraph, -n's default (one_block: 2 x --block when -n is not given) and
                       limit, the --variant names */
    unsigned takes; /* REDUCE_TAKES_*: the chapter's options this step takes */
    int block;      /* --block's default */
    int coarsen;    /* --coarsen's default (1 where the step takes no --coarsen) */
    int one_block;  /* 1: one block of N/2 threads summing floats, as the book's first kernels (steps 1-3) */
    /* The launch check, pure host (common/ch10-reduction/reduce_host.c): NULL
     * when these parameters can run, with p's grid, block and per_thread set;
     * else why not, with the allowed range. ./run asks it before it looks for a GPU. */
    const char *(*check)(int64_t n, reduce_params *p);
    const reduce_book *book; /* steps 1-3: the book's analysis (--analyze, --example); else NULL */
} reduce_step;

extern const reduce_step reduce_step_info;

LAB_END_C

#endif
