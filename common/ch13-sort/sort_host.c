/* sort_host.c - what every chapter-13 step's sort shares: ./run's options,
 * the checks of its parameters, its workspace and sort_run (see sort_host.h). */
#include "sort_host.h"

#include <string.h>

#include "scan.h"

/* ---- ./run's options ------------------------------------------------------- */

/* --block's range for --help, as the step's own checks take it: whole warps where its kernels work
 * warp by warp; its default alone where its block is compile-time (its check refuses another). */
static int block_fixed(const sort_step *s)
{
    sort_params p = s->defaults;
    p.block = s->defaults.block == 1024 ? 512 : 1024;
    return s->needs.check != NULL && s->needs.check(1 << 20, &p) != NULL;
}

int sort_options(const sort_step *s, sort_cli *c, lab_opt opts[SORT_NOPTS])
{
    const unsigned takes = s->takes;
    const int fixed = block_fixed(s);
    *c = (sort_cli){.p = s->defaults, .dist = "uniform", .type = "uint"};
    const lab_opt table[SORT_NOPTS] = {
        lab_opt_if(takes & SORT_TAKES_DIST, (lab_opt){.name = "--dist",
                                                      .kind = LAB_ARG_NAME,
                                                      .at = &c->dist,
                                                      .names = sort_dists,
                                                      .metavar = "D",
                                                      .help = "input distribution"}),
        lab_opt_if(takes & SORT_TAKES_TYPE, (lab_opt){.name = "--type",
                                                      .kind = LAB_ARG_NAME,
                                                      .at = &c->type,
                                                      .names = sort_type_names,
                                                      .metavar = "T",
                                                      .help = "element type"}),
        lab_opt_if(takes & SORT_TAKES_BLOCK,
                   (lab_opt){.name = "--block",
                             .kind = LAB_ARG_INT,
                             .at = &c->p.block,
                             .lo = fixed                                ? s->defaults.block
                                   : (s->needs.block & LAB_BLOCK_WARPS) ? 32
                                                                        : 1,
                             .hi = fixed ? s->defaults.block : 1024,
                             .metavar = "B",
                             .help = fixed ? "threads per block (compile-time in this step)" : "threads per block"}),
        lab_opt_if(takes & SORT_TAKES_TILE, (lab_opt){.name = "--tile",
                                                      .kind = LAB_ARG_INT,
                                                      .at = &c->p.tile,
                                                      .lo = 2,
                                                      .hi = 1 << 16,
                                                      .metavar = "T",
                                                      .help = "elements per shared-memory tile"}),
        lab_opt_if(takes & SORT_TAKES_COARSEN, (lab_opt){.name = "--coarsen",
                                                         .kind = LAB_ARG_INT,
                                                         .at = &c->p.coarsen,
                                                         .lo = 1,
                                                         .hi = SORT_MAX_COARSEN,
                                                         .metavar = "C",
                                                         .help = "elements per thread"}),
        lab_opt_if(takes & SORT_TAKES_BITS, (lab_opt){.name = "--bits",
                                                      .kind = LAB_ARG_INT,
                                                      .at = &c->p.radix_bits,
                                                      .lo = 1,
                                                      .hi = SORT_MAX_RADIX_BITS,
                                                      .metavar = "R",
                                                      .help = "radix digit width in bits"}),
        lab_opt_if(takes & SORT_TAKES_VARIANT, (lab_opt){.name = "--variant",
                                                         .kind = LAB_ARG_NAME,
                                                         .at = &c->p.variant,
                                                         .names = s->lab.variants,
                                                         .metavar = "V",
                                                         .help = "the step's form"}),
        lab_opt_if(takes & SORT_TAKES_KEYS_ONLY, (lab_opt){.name = "--keys-only",
                                                           .kind = LAB_ARG_FLAG,
                                                           .at = &c->keys_only,
                                                           .help = "sort keys without values"}),
        lab_opt_if(takes & SORT_TAKES_PRINTED, (lab_opt){.name = "--printed",
                                                         .kind = LAB_ARG_FLAG,
                                                         .at = &c->p.printed,
                                                         .help = "run the code exactly as printed (known bugs; see "
                                                                 "docs/errata.md)"}),
        lab_opt_if(takes & SORT_TAKES_EXAMPLE, (lab_opt){.name = "--example",
                                                         .kind = LAB_ARG_FLAG,
                                                         .at = &c->example,
                                                         .help = "replay the book's worked example with a trace"}),
    };
    memcpy(opts, table, sizeof table);
    return SORT_NOPTS;
}

const char *sort_check(const sort_step *s, int64_t n, const sort_params *p)
{
    const char *why = lab_check_block(p->block, s->needs.block);
    if (why != NULL)
        return why;
    if ((s->takes & SORT_TAKES_BITS) && (p->radix_bits < 1 || p->radix_bits > SORT_MAX_RADIX_BITS))
        return "--bits (the digit width r) must be 1 to 8";
    if ((s->takes & SORT_TAKES_COARSEN) && (p->coarsen < 1 || p->coarsen > SORT_MAX_COARSEN))
        return "--coarsen must be 1 to 16 keys per thread (a thread keeps them in registers)";
    if (n < 0)
        return "n must not be negative";
    if (s->needs.check != NULL && (why = s->needs.check(n, p)) != NULL)
        return why;
    if (n > s->lab.max_n)
        return s->lab.max_n_why;
    return NULL;
}

int64_t sort_max_n(const sort_step *s, const sort_params *p)
{
    return s->needs.max_n_of != NULL ? s->needs.max_n_of(p) : s->lab.max_n;
}

/* Carves the workspace from `at` on (from 0: counts its bytes). */
static sort_ws carve(lab_ws *at, const sort_step *s, int64_t n, int with_values, const sort_params *p)
{
    sort_ws_need need = {.ping_pong = 0};
    sort_ws ws = {.keys_alt = NULL};
    const size_t keys = sizeof(unsigned int) * (size_t)n;
    s->needs.workspace(n, p, &need);
    if (need.ping_pong) {
        ws.keys_alt = (unsigned int *)lab_ws_take(at, keys);
        ws.values_alt = with_values ? (unsigned int *)lab_ws_take(at, keys) : NULL;
    }
    if (need.local_copy) {
        ws.keys_local = (unsigned int *)lab_ws_take(at, keys);
        ws.values_local = with_values ? (unsigned int *)lab_ws_take(at, keys) : NULL;
    }
    if (need.table > 0) {
        ws.table = (unsigned int *)lab_ws_take(at, sizeof(unsigned int) * (size_t)(need.table + 1));
        ws.scan_temp = lab_ws_take(at, scan_temp_bytes(need.table));
    }
    if (need.words > 0)
        ws.words = lab_ws_take(at, sizeof(unsigned int) * (size_t)need.words);
    return ws;
}

size_t sort_temp_bytes(const sort_step *s, int64_t n, int with_values, const sort_params *p)
{
    lab_ws at = {0};
    if (sort_check(s, n, p) != NULL)
        return 0;
    carve(&at, s, n, with_values, p);
    return (size_t)at.at;
}

/* The passes, each reading the previous one's output; they alternate between
 * the workspace's second buffer and keys_out (values_out) so that the last
 * one writes keys_out. */
static const char *run_passes(const sort_step *s, const unsigned int *keys_in, const unsigned int *values_in,
                              unsigned int *keys_out, unsigned int *values_out, int64_t n, const sort_ws *ws,
                              const sort_params *p)
{
    sort_pass now = {.keys_in = keys_in, .values_in = values_in, .n = n, .count = s->sorts.passes(n, p)};
    for (now.index = 0; now.index < now.count; now.index++) {
        /* ping-pong: a pass with an even number of passes after it writes the output, so the last one does */
        const int to_output = (now.count - 1 - now.index) % 2 == 0;
        now.keys_out = to_output ? keys_out : ws->keys_alt;
        now.values_out = to_output ? values_out : ws->values_alt;
        const char *why = s->sorts.pass(&now, ws, p);
        if (why != NULL)
            return why;
        now.keys_in = now.keys_out, now.values_in = now.values_out;
    }
    return NULL;
}

const char *sort_run(const sort_step *s, const unsigned int *keys_in, const unsigned int *values_in,
                     unsigned int *keys_out, unsigned int *values_out, int64_t n, void *temp_d, const sort_params *p)
{
    lab_ws at = {(uintptr_t)temp_d};
    const int with_values = values_in != NULL;
    const char *why = sort_check(s, n, p);
    if (why != NULL || n == 0)
        return why;
    if (s->needs.fit != NULL && (why = s->needs.fit(n, p, with_values)) != NULL)
        return why;
    const sort_ws ws = carve(&at, s, n, with_values, p);
    if (s->sorts.launch != NULL)
        return s->sorts.launch(keys_in, values_in, keys_out, values_out, n, &ws, p);
    return run_passes(s, keys_in, values_in, keys_out, values_out, n, &ws, p);
}

int sort_radix_passes(int64_t n, const sort_params *p)
{
    (void)n;
    return p->radix_bits > 0 ? (int)sort_ceil_div(32, p->radix_bits) : 0;
}
