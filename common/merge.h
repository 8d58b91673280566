/* merge.h - chapter 12's interface: what every merge step's launcher takes,
 * the CPU reference and the input generators. */
#ifndef LAB_MERGE_H
#define LAB_MERGE_H

#include "lab.h"
#include "rng.h"

/* Keys compare through MERGE_KEY. In ./run it is the identity; the tests build
 * with LAB_TAGGED_KEYS, where the low 8 bits of each value tag where it came
 * from (A or B, and its position), so a tie broken the wrong way (B before A,
 * or out of input order) changes the output and fails the test. */
#ifdef LAB_TAGGED_KEYS
#define MERGE_KEY(x) ((x) >> 8)
#else
#define MERGE_KEY(x) (x)
#endif

/* Merge sizes are int, as in the book: m + n must stay below 2^31. */
#define MERGE_MAX_TOTAL 2147483647LL

LAB_BEGIN_C

typedef struct {
    int block;   /* threads per block */
    int grid;    /* blocks; 0: derived from the size, block and coarsen */
    int tile;    /* tile_size: A and B elements held in shared memory (steps 3-5) */
    int coarsen; /* output elements per thread (section 12.8) */
    int printed; /* MERGE_PRINTED_* bits: run code as printed, bugs included (docs/errata.md) */
} merge_params;

/* The printed bugs a step can bring back, one bit each, so a test can show
 * each failing on its own input (docs/errata.md). --printed sets them all. */
enum {
    MERGE_PRINTED_CEIL = 1,     /* Figs 12.11-12.12: ceil() of an integer division */
    MERGE_PRINTED_CONSUMED = 2, /* Fig 12.13: A_consumed from full-tile lengths */
    MERGE_PRINTED_LOADER = 4,   /* Fig 12.16: reload from A_consumed, not what was loaded */
    MERGE_PRINTED_NOTE_SLIP = 8, /* the translator's fixed loader as printed: B_loaded bounded by A_length */
    MERGE_PRINTED_ALL = 15
};

/* Each merge step (2-5): C_d[0, m+n) = the stable merge of sorted A_d[0, m)
 * and B_d[0, n), all in device memory. Returns NULL once the kernel is
 * launched, or why these parameters cannot run (nothing launched). */
const char *merge_launch(const int *A_d, int m, const int *B_d, int n, int *C_d, const merge_params *p);

/* Step 1: i_d[t] = co_rank(k_d[t], A, m, B, n) for t < count. */
const char *co_rank_launch(const int *A_d, int m, const int *B_d, int n, const int *k_d, int *i_d, int count,
                           int block);

/* Fills sorted A[0, m) and B[0, n) for a distribution: uniform, equal,
 * a-below, a-above, interleaved, dups. With tagged != 0 every value carries
 * an origin tag in its low 8 bits (see MERGE_KEY). Keys start at 1 (never
 * zero) and stay below 2^23 when tagged, 2^30 otherwise. Returns 0, or -1 for
 * an unknown distribution. */
int merge_make_inputs(const char *dist, lab_rng *rng, int *A, int m, int *B, int n, int tagged);

/* The distributions merge_make_inputs knows, for --help and the tests. */
extern const char *const merge_dists[];

/* ceil(a / b) for non-negative integers. The printed figures write
 * ceil((m+n)/gridDim.x), which truncates in the integer division before
 * ceil() sees it (docs/errata.md). */
static inline __host__ __device__ int ceil_div(int64_t a, int64_t b)
{
    return (int)((a + b - 1) / b);
}

/* Derived grid for a launcher when p->grid == 0: ceil(total / (block * coarsen)). */
int merge_default_grid(int64_t total, const merge_params *p);

/* What every merge launcher checks: NULL when block, grid and coarsen can
 * run; then *grid is the grid to launch (p->grid, or derived). */
const char *merge_check_params(const merge_params *p, int64_t total, int *grid);

/* For a kernel with `shared` bytes of dynamic shared memory: NULL when it
 * fits the device (raising the kernel's limit past 48 KB), else why not. */
const char *merge_fit_shared(const void *kernel, size_t shared);

LAB_END_C

#endif
