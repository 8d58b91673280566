/* merge_test.h - what chapter 12's merge suite (merge.c and its parts
 * merge_races.c, merge_printed.c and merge_cpu.c, built with every merge
 * step, 2 on) shares among its parts. */
#ifndef MERGE_TEST_H
#define MERGE_TEST_H

#include "lab_test.h"
#include "merge_host.h"
#include "merge_ref.h"

/* "block=... grid=... tile=... coarsen=... printed=..." for messages. */
static const char *params_str(const merge_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "block=%d grid=%d tile=%d coarsen=%d printed=%d", p->block, p->grid, p->tile, p->coarsen,
             p->printed);
    return buf;
}

/* Runs the step on in and returns the number of wrong elements of C (keys or
 * values), the first described in first; -1 if the kernel faulted (which only
 * the printed variants may do). A write past a buffer fails in the download. */
int64_t merge_errors(const merge_inputs *in, const merge_params *p, char *first, size_t first_len);

/* block, grid, tile, coarsen: powers of two and not, tiles that are and are not multiples of the block */
static const merge_params param_sets[] = {
    {.block = 128, .grid = 0, .tile = 1024, .coarsen = 16}, {.block = 32, .grid = 0, .tile = 64, .coarsen = 2},
    {.block = 96, .grid = 7, .tile = 96, .coarsen = 3},     {.block = 64, .grid = 0, .tile = 100, .coarsen = 5},
    {.block = 256, .grid = 0, .tile = 2048, .coarsen = 8},  {.block = 33, .grid = 0, .tile = 50, .coarsen = 1},
};
#define NPARAMS (sizeof param_sets / sizeof param_sets[0])

/* Parameter set q of the sweeps: param_sets[q], and last (q == NPARAMS) the step's defaults. */
static const merge_params *param_set(size_t q)
{
    return q < NPARAMS ? &param_sets[q] : &merge_step_info.defaults;
}

/* A parameter set the step refuses (a block its kernels cannot use, or, in step 6, any shape but
 * its compile-time one) is left out of its sweeps. */
static int step_takes(const merge_params *p)
{
    return merge_check(&merge_step_info, 1000, 1000, 0, 0, p) == NULL;
}

#endif
