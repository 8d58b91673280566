/* reduce_host.h - chapter 10's host side of a launch, pure host (no GPU):
 * the launch checks a step's descriptor points at (they derive the grid and
 * refuse what a kernel cannot run, naming the allowed range), the kinds the
 * steps take and the --help paragraphs they share, and ./run's table of the
 * chapter's options. The book's analysis that steps 1-3 point at comes with
 * it (reduce_book.h). */
#ifndef LAB_REDUCE_HOST_H
#define LAB_REDUCE_HOST_H

#include "reduce.h"
#include "reduce_book.h"
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

/* ./run's chapter-10 options, beyond the core's (lab_run): each entry of the
 * table reduce_options makes points at a field here. */
typedef struct {
    reduce_params p;       /* --block, --grid, --coarsen; the kind from op and type */
    const char *op, *type; /* --op, --type */
    const char *dist;      /* --dist: the input's distribution */
    const char *variant;   /* --variant ("": every form of the step in turn) */
    int analyze, example;  /* --analyze, --example */
} reduce_cli;

/* How many entries reduce_options writes. */
enum { REDUCE_NOPTS = 9 };

/* Fills *c with step s's defaults (--help shows them) and opts[] with chapter
 * 10's options, each pointing into *c, for lab_parse_step; an option s does
 * not take (s->takes) is refused by name. Returns the number of entries,
 * REDUCE_NOPTS. */
int reduce_options(const reduce_step *s, reduce_cli *c, lab_opt opts[REDUCE_NOPTS]);

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

LAB_END_C

#endif
