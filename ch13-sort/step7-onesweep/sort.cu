/* sort.cu - ch13 step 7 (beyond the book): step 4's three launches per digit
 * become one per digit, each block finding its places by decoupled look-back
 * (Adinets and Merrill, "Onesweep", 2022). The kernels and the entry points
 * are in onesweep.cuh (read it first), a block's phases in onesweep_tile.cuh
 * and onesweep_look_back.cuh; this file is the step's launcher and the facts
 * ./run and the tests ask of it. */
#include "onesweep.cuh"
#include "sort_host.h"

#define TEXT_(x) #x
#define TEXT(x)  TEXT_(x) /* a compile-time parameter's value, as text */

/* keys_in (kept) to keys_out through the workspace's second buffer; the
 * look-back's tables in its words (sort_run has checked n and fitted the kernels). */
static const char *onesweep_launch(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                                   unsigned int *values_out, int64_t n, const sort_ws *ws, const sort_params *p)
{
    (void)p;
    return onesweep_sort(keys_in, values_in, keys_out, values_out, ws->keys_alt, ws->values_alt, n, ws->words, 0);
}

/* ---- what ./run and the tests ask of this step ---------------------------- */

/* The tile lives in registers (ONESWEEP_KEYS_PER_THREAD keys per thread): its shape is compile-time. */
static const char *check(int64_t n, const sort_params *p)
{
    (void)n;
    if (p->block != ONESWEEP_THREADS)
        return "--block is fixed at " TEXT(ONESWEEP_THREADS) " in this step (ONESWEEP_THREADS in onesweep_tile.cuh: "
                                                             "the tile's shape is compile-time)";
    return NULL;
}

/* The pass kernel's shared memory (30 KiB of keys, 60 KiB with values) opted in. */
static const char *fit(int64_t n, const sort_params *p, int with_values)
{
    (void)n;
    (void)p;
    return onesweep_fit(with_values);
}

/* the other key (value) buffer, and the tables: histograms, plan, tile counters, status words */
static void workspace(int64_t n, const sort_params *p, sort_ws_need *need)
{
    (void)p;
    need->ping_pong = 1;
    need->words = sort_ceil_div((int64_t)onesweep_tables_bytes(n), sizeof(unsigned int));
}

static void describe(const sort_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "block=%d coarsen=%d tile=%d window=%d", p->block, ONESWEEP_KEYS_PER_THREAD, ONESWEEP_TILE,
             ONESWEEP_LOOKBACK_WINDOW);
}

/* Step 7's facts: one histogram pass, then one launch per 8-bit digit; a compile-time tile (sort.h). */
/* clang-format off */
const sort_step sort_step_info = { /* the help text laid out as it prints */
    .lab = {.about = "Step 7 sorts in four passes of an 8-bit digit, one launch each, after one histogram\n"
                     "pass; a pass whose digit is the same for every key is skipped. Its tiles of "
                     TEXT(ONESWEEP_THREADS) "\nthreads x " TEXT(ONESWEEP_KEYS_PER_THREAD)
                     " keys are compile-time (ONESWEEP_THREADS, ONESWEEP_KEYS_PER_THREAD): --block\nmust be "
                     TEXT(ONESWEEP_THREADS) ". --example sorts Fig 13.1's keys.\n",
            .default_n = 1 << 24,
            .max_n = SORT_MAX_N,
            .max_n_why = SORT_MAX_N_WHY},
    .takes = SORT_TAKES_EVERY,
    .defaults = {.block = ONESWEEP_THREADS},
    .needs = {.block = LAB_BLOCK_WARPS, .workspace = workspace, .check = check, .fit = fit},
    .describe = describe,
    .sorts = {.launch = onesweep_launch},
};
/* clang-format on */
