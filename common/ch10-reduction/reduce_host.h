/* reduce_host.h - chapter 10's host side of a launch, pure host (no GPU):
 * the launch checks a step's descriptor points at (they derive the grid and
 * refuse what a kernel cannot run, naming the allowed range), the kinds the
 * steps take and the --help paragraphs they share, the book's analysis of its
 * single-block kernels, and what --analyze and --example make of the
 * kernel's records. */
#ifndef LAB_REDUCE_HOST_H
#define LAB_REDUCE_HOST_H

#include "reduce.h"
#include "reduce_ref.h"

LAB_BEGIN_C

/* The --help paragraphs the steps of each kind share, after the step's own
 * line (reduce_step.lab.about), and why -n stops where it does. */
#define REDUCE_ONE_BLOCK_HELP                                                                       \
    "One block of N/2 threads sums N floats, N a power of two from 2 to 2 x --block (default\n"     \
    "2 x --block = 2048; steps 4-8 take any N). --analyze: the kernel's counts beside the book's\n" \
    "(default N = 256 and 2048); --example: the book's picture of the tree, drawn from what the\n"  \
    "kernel records as it runs (default N = 16).\n"
#define REDUCE_ANY_N_HELP "Any N (up to 2^34), every kind (--op, --type).\n"
/* steps 6-8: the grid-stride steps, whose --coarsen only sets the grid (before REDUCE_ANY_N_HELP) */
#define REDUCE_GRID_STRIDE_HELP                                                     \
    "--block whole warps; --coarsen sets the grid as step 5's (about 2 x coarsen\n" \
    "elements per thread); without --variant, each form runs in turn.\n"
#define REDUCE_ONE_BLOCK_MAX_N_WHY "the book's kernel runs one block of N/2 threads, at most 1024"
#define REDUCE_MAX_N_WHY           "2^34 elements, 64 GiB of input"

/* The --op and --type names a step takes: the book's float sum (a one_block
 * step) or every kind (reduce_all_ops, reduce_all_types). */
const char *const *reduce_ops_taken(const reduce_step *s);
const char *const *reduce_types_taken(const reduce_step *s);

/* Sections 10.4-10.6: the book's analysis of its three single-block kernels
 * (the figure, the picture --example draws, the counts, formulas and printed
 * numbers), for the descriptors of steps 1-3. */
extern const reduce_book reduce_fig_10_6, reduce_fig_10_9, reduce_fig_10_11;
extern const reduce_book_row reduce_book_rows[];
extern const int reduce_book_nrows;

/* The launch checks (reduce_step.check). Each returns NULL with p->grid,
 * p->block, p->coarsen and p->per_thread set to what will run, or why these
 * parameters cannot run, with the allowed range. */

/* Steps 1-3 (Figs 10.6, 10.9, 10.11): one block of N/2 threads summing N
 * floats, N a power of two from 2 to 2 x p->block. */
const char *reduce_one_block_check(int64_t n, reduce_params *p);

/* Step 4 (Fig 10.13): block b reduces segment b of 2 x blockDim.x elements;
 * a power-of-two block; a given grid must cover N. */
const char *reduce_segment_check(int64_t n, reduce_params *p);

/* Step 5 (Fig 10.15): segments of 2 x coarsen x blockDim.x elements. */
const char *reduce_coarsened_check(int64_t n, reduce_params *p);

/* Steps 6-8 (the listing's grid-stride loop): whole warps, any grid (0: as
 * many blocks as step 5 would use), variant 0, 1 or 2. */
const char *reduce_grid_stride_check(int64_t n, reduce_params *p);

/* --analyze: summarizes c for a one-block run with `threads` threads, the
 * time steps in the order the kernel runs them. */
void reduce_analyze_counts(const reduce_counters *c, int strides_double, int threads, reduce_analysis *a);

/* The measured value of a count (0 for REDUCE_SECTION). */
double reduce_metric_value(const reduce_analysis *a, reduce_metric m);

/* --example: one time step of the book's picture, from the counters. */
typedef struct {
    int stride;
    int active;                               /* threads active */
    char elements[REDUCE_EXAMPLE_MAX_N + 1];  /* per element: '#' written, '+' combined into a '#', ' ' untouched */
    char threads[REDUCE_EXAMPLE_THREADS + 1]; /* per thread: '#' active, '.' idle */
    const char *from, *into;                  /* "input" or "input_s": where it read, where it wrote */
} reduce_picture_step;

/* The picture of a one-block run on n <= REDUCE_EXAMPLE_MAX_N elements:
 * owner[i] = the thread that writes element i in the first time step (-1:
 * none), and one row per time step. Returns the number of rows. */
int reduce_example_picture(const reduce_counters *c, int strides_double, int64_t n, int *owner,
                           reduce_picture_step *rows);

LAB_END_C

#endif
