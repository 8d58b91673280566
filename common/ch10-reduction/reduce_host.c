/* reduce_host.c - chapter 10's host side of a launch: the kinds a step takes,
 * the launch checks, and ./run's table of the chapter's options. Pure host. */
#include "reduce_host.h"

#include <string.h>

#include "launch.h"

static const char *const sum_only[] = {"sum", NULL};
static const char *const float_only[] = {"float", NULL};

const char *const *reduce_ops_taken(const reduce_step *s)
{
    return s->one_block ? sum_only : reduce_all_ops;
}

const char *const *reduce_types_taken(const reduce_step *s)
{
    return s->one_block ? float_only : reduce_all_types;
}

/* ---- the launch checks ----------------------------------------------------- */

const char *reduce_one_block_check(int64_t n, reduce_params *p)
{
    if (p->kind.op != REDUCE_SUM || p->kind.type != REDUCE_FLOAT)
        return "steps 1-3 are the book's float sums: --op sum --type float (steps 4-8 take max, min and int)";
    const char *why = lab_check_block(p->block, LAB_BLOCK_ANY);
    if (why != NULL)
        return why;
    if (n < 2 || n > 2 * (int64_t)p->block || (n & (n - 1)) != 0)
        return "steps 1-3 run one block of N/2 threads, as the book does: N must be a power of two from 2 to "
               "2 x --block (2048 at most); steps 4-8 take any N";
    p->block = (int)(n / 2); /* section 10.3: one block of N/2 threads */
    p->grid = 1;
    p->coarsen = 1;
    p->per_thread = 1;
    return NULL;
}

/* Steps 4-8: the kind, the block the tree needs, and the grid: p->grid = 0
 * derives ceil(n / per_block); a given grid must cover n when `cover` is set
 * (one segment per block), else any grid does (a grid-stride loop). */
static const char *many_blocks_check(int64_t n, reduce_params *p, unsigned block_need, int64_t per_block, int cover)
{
    if ((unsigned)p->kind.op > REDUCE_MIN || (unsigned)p->kind.type > REDUCE_FLOAT)
        return "unknown operator or type: --op sum, max or min, --type int or float";
    const char *why = lab_check_block(p->block, block_need);
    if (why != NULL)
        return why;
    if (p->coarsen < 1)
        return "--coarsen must be at least 1";
    if (n < 0)
        return "N must not be negative";
    if (p->grid < 0)
        return "--grid must not be negative";
    const int64_t need = (n + per_block - 1) / per_block;
    if (p->grid == 0 && need > 2147483647LL)
        return "N needs more than 2^31 - 1 blocks: raise --block or --coarsen";
    if (p->grid == 0)
        p->grid = (int)need;
    else if (cover && p->grid < need)
        return "--grid too small: each block takes one segment of 2 x coarsen x block elements (leave --grid 0)";
    return NULL;
}

const char *reduce_segment_check(int64_t n, reduce_params *p)
{
    p->coarsen = 1; /* Fig 10.13: two elements per thread */
    p->per_thread = 2;
    return many_blocks_check(n, p, LAB_BLOCK_POW2, 2 * (int64_t)p->block, 1); /* N / (2 x blockDim.x) blocks */
}

const char *reduce_coarsened_check(int64_t n, reduce_params *p)
{
    p->per_thread = 2 * (int64_t)p->coarsen;
    return many_blocks_check(n, p, LAB_BLOCK_POW2, 2 * (int64_t)p->coarsen * p->block, 1); /* COARSE_FACTOR x fewer */
}

const char *reduce_grid_stride_check(int64_t n, reduce_params *p)
{
    if (p->variant < 0 || p->variant > 2)
        return "--variant: the step has two forms, 1 and 2 (0: the first)";
    /* as many blocks as step 5 would use: about 2 x coarsen elements per thread */
    const char *why = many_blocks_check(n, p, LAB_BLOCK_WARPS, 2 * (int64_t)p->coarsen * p->block, 0);
    const int64_t threads = (int64_t)p->grid * p->block;
    p->per_thread = threads > 0 ? (n + threads - 1) / threads : 0;
    return why;
}

/* ---- ./run's options ------------------------------------------------------- */

/* The least --block the step's own check takes, for --help's range: 32 where its kernels work warp
 * by warp (the grid-stride steps 6-8), else 1. */
static int block_lo(const reduce_step *s)
{
    reduce_params p = {.block = 1, .coarsen = s->coarsen};
    return !s->one_block && s->check != NULL && s->check(1 << 20, &p) != NULL ? 32 : 1;
}

int reduce_options(const reduce_step *s, reduce_cli *c, lab_opt opts[REDUCE_NOPTS])
{
    const unsigned t = s->takes;
    memset(c, 0, sizeof *c);
    c->p.block = s->block;
    c->p.coarsen = s->coarsen;
    c->op = "sum";
    c->type = "float";
    c->dist = "digits";
    c->variant = "";
    const lab_opt table[REDUCE_NOPTS] = {
        lab_opt_if(t & REDUCE_TAKES_DIST, (lab_opt){.name = "--dist",
                                                    .kind = LAB_ARG_NAME,
                                                    .at = &c->dist,
                                                    .names = reduce_dists,
                                                    .metavar = "D",
                                                    .help = "input distribution"}),
        lab_opt_if(t & REDUCE_TAKES_TYPE, (lab_opt){.name = "--type",
                                                    .kind = LAB_ARG_NAME,
                                                    .at = &c->type,
                                                    .names = reduce_types_taken(s),
                                                    .metavar = "T",
                                                    .help = "element type"}),
        lab_opt_if(t & REDUCE_TAKES_OP, (lab_opt){.name = "--op",
                                                  .kind = LAB_ARG_NAME,
                                                  .at = &c->op,
                                                  .names = reduce_ops_taken(s),
                                                  .metavar = "OP",
                                                  .help = "operator"}),
        lab_opt_if(t & REDUCE_TAKES_BLOCK, (lab_opt){.name = "--block",
                                                     .kind = LAB_ARG_INT,
                                                     .at = &c->p.block,
                                                     .lo = block_lo(s),
                                                     .hi = REDUCE_MAX_BLOCK,
                                                     .metavar = "B",
                                                     .help = "threads per block"}),
        lab_opt_if(t & REDUCE_TAKES_GRID, (lab_opt){.name = "--grid",
                                                    .kind = LAB_ARG_INT,
                                                    .at = &c->p.grid,
                                                    .lo = 0,
                                                    .metavar = "G",
                                                    .help = "blocks, 0 = derived from the size"}),
        lab_opt_if(t & REDUCE_TAKES_COARSEN, (lab_opt){.name = "--coarsen",
                                                       .kind = LAB_ARG_INT,
                                                       .at = &c->p.coarsen,
                                                       .lo = 1,
                                                       .hi = 1 << 20,
                                                       .metavar = "C",
                                                       .help = "elements per thread"}),
        lab_opt_if(t & REDUCE_TAKES_VARIANT, (lab_opt){.name = "--variant",
                                                       .kind = LAB_ARG_NAME,
                                                       .at = &c->variant,
                                                       .names = s->lab.variants,
                                                       .metavar = "V",
                                                       .help = "the step's form"}),
        lab_opt_if(t & REDUCE_TAKES_EXAMPLE, (lab_opt){.name = "--example",
                                                       .kind = LAB_ARG_FLAG,
                                                       .at = &c->example,
                                                       .help = "replay the book's worked example with a trace"}),
        lab_opt_if(t & REDUCE_TAKES_ANALYZE, (lab_opt){.name = "--analyze",
                                                       .kind = LAB_ARG_FLAG,
                                                       .at = &c->analyze,
                                                       .help = "instrumented counts beside the book's analysis"}),
    };
    memcpy(opts, table, sizeof table);
    return REDUCE_NOPTS;
}
