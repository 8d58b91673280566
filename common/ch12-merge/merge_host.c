/* merge_host.c - what every chapter-12 step's launcher and driver shares: the
 * checks of its parameters, its workspace, the table of its options and its
 * device buffers (see merge_host.h). */
#include "merge_host.h"
#include "report.h"

#include <string.h>

const char *merge_check(const merge_step *s, int64_t m, int64_t n, int is_float, int with_values, const merge_params *p)
{
    const unsigned takes = s->takes;
    const char *why = lab_check_block(p->block, s->block_need);
    if (why != NULL)
        return why;
    if (m < 0 || n < 0)
        return "m and n must not be negative";
    if (m + n > s->lab.max_n)
        return s->lab.max_n_why;
    if (is_float && !(takes & MERGE_TAKES_TYPE))
        return "this step merges int keys, as the book does (--type float is not one of its types)";
    if (with_values && !s->takes_values)
        return "this step merges keys only, as the book does: it takes no values";
    if ((takes & MERGE_TAKES_COARSEN) && p->coarsen < 1)
        return "--coarsen (outputs per thread) must be 1 or more";
    if ((takes & MERGE_TAKES_GRID) && p->grid < 0)
        return "--grid must be 0 (derived from the size) or more blocks";
    return s->check != NULL ? s->check(m, n, p) : NULL;
}

int merge_grid(int64_t total, const merge_params *p)
{
    const int64_t per_block = (int64_t)p->block * p->coarsen;
    const int64_t grid = (total + per_block - 1) / per_block;
    return p->grid > 0 ? p->grid : grid > 0 ? (int)grid : 1;
}

/* Carves the workspace from at->at on (from 0: counts its bytes). */
static merge_ws carve(lab_ws *at, const merge_step *s, int64_t total, const merge_params *p)
{
    merge_ws ws = {.tile_co_ranks = NULL, .ntiles = 0};
    if (s->tile_co_ranks && p->tile > 0) {
        ws.ntiles = ceil_div(total, p->tile);
        ws.tile_co_ranks = (int *)lab_ws_take(at, sizeof(int) * ((size_t)ws.ntiles + 1));
    }
    return ws;
}

size_t merge_temp_bytes(const merge_step *s, int64_t m, int64_t n, const merge_params *p)
{
    lab_ws at = {.at = 0};
    carve(&at, s, m + n, p);
    return (size_t)at.at;
}

const char *merge_prepare(const merge_step *s, const merge_args *a, const merge_params *p, const void *kernel,
                          size_t shared, int *grid, merge_ws *ws)
{
    lab_ws at = {.at = (uintptr_t)a->temp};
    const char *why = merge_check(s, a->m, a->n, a->is_float, a->C_values != NULL, p);
    if (why == NULL)
        why = lab_fit_kernel(kernel, p->block, shared);
    if (why != NULL)
        return why;
    *grid = a->m + a->n > 0 ? merge_grid(a->m + a->n, p) : 0;
    *ws = carve(&at, s, a->m + a->n, p);
    return NULL;
}

/* ---- ./run's options ----------------------------------------------------------- */

/* The least --tile the step's own check takes, for --help's range: 1, or 2 where Part 1 passes the
 * block's two co-ranks through A_S (steps 3-4's tiled_check). */
static int tile_lo(const merge_step *s)
{
    merge_params p = s->defaults;
    for (p.tile = 1; p.tile < 4; p.tile++)
        if (s->check == NULL || s->check(1 << 20, 1 << 20, &p) == NULL)
            return p.tile;
    return 1;
}

int merge_options(const merge_step *s, merge_cli *c, lab_opt opts[MERGE_NOPTS])
{
    const unsigned takes = s->takes;
    memset(c, 0, sizeof *c);
    c->m = -1;
    c->dist = merge_dists[0];
    c->type = merge_types[0];
    c->p = s->defaults;
    const lab_opt table[MERGE_NOPTS] = {
        lab_opt_if(takes & MERGE_TAKES_M, (lab_opt){.name = "--m",
                                                    .kind = LAB_ARG_SIZE,
                                                    .at = &c->m,
                                                    .lo = 0,
                                                    .hi = MERGE_MAX_TOTAL,
                                                    .metavar = "M",
                                                    .help = "elements of A (default: half of -n)"}),
        lab_opt_if(takes & MERGE_TAKES_DIST, (lab_opt){.name = "--dist",
                                                       .kind = LAB_ARG_NAME,
                                                       .at = &c->dist,
                                                       .names = merge_dists,
                                                       .metavar = "D",
                                                       .help = "input distribution"}),
        lab_opt_if(takes & MERGE_TAKES_TYPE, (lab_opt){.name = "--type",
                                                       .kind = LAB_ARG_NAME,
                                                       .at = &c->type,
                                                       .names = merge_types,
                                                       .metavar = "T",
                                                       .help = "key type"}),
        lab_opt_if(takes & MERGE_TAKES_BLOCK, (lab_opt){.name = "--block",
                                                        .kind = LAB_ARG_INT,
                                                        .at = &c->p.block,
                                                        .lo = (s->block_need & LAB_BLOCK_WARPS) ? 32 : 1,
                                                        .hi = 1024,
                                                        .metavar = "B",
                                                        .help = "threads per block"}),
        lab_opt_if(takes & MERGE_TAKES_GRID, (lab_opt){.name = "--grid",
                                                       .kind = LAB_ARG_INT,
                                                       .at = &c->p.grid,
                                                       .lo = 0,
                                                       .metavar = "G",
                                                       .help = "blocks, 0 = derived from the size and --coarsen"}),
        lab_opt_if(takes & MERGE_TAKES_TILE, (lab_opt){.name = "--tile",
                                                       .kind = LAB_ARG_INT,
                                                       .at = &c->p.tile,
                                                       .lo = tile_lo(s),
                                                       .hi = 1 << 24,
                                                       .metavar = "T",
                                                       .help = "outputs of one shared-memory tile"}),
        lab_opt_if(takes & MERGE_TAKES_COARSEN, (lab_opt){.name = "--coarsen",
                                                          .kind = LAB_ARG_INT,
                                                          .at = &c->p.coarsen,
                                                          .lo = 1,
                                                          .hi = 1 << 20,
                                                          .metavar = "C",
                                                          .help = "outputs per thread"}),
        lab_opt_if(s->takes_values, (lab_opt){.name = "--keys-only",
                                              .kind = LAB_ARG_FLAG,
                                              .at = &c->keys_only,
                                              .help = "merge keys alone, without their values"}),
        lab_opt_if(s->printed != 0,
                   (lab_opt){.name = "--printed",
                             .kind = LAB_ARG_FLAG,
                             .at = &c->printed,
                             .help = "run the code exactly as printed (known bugs; see docs/errata.md)"}),
        lab_opt_if(takes & MERGE_TAKES_EXAMPLE, (lab_opt){.name = "--example",
                                                          .kind = LAB_ARG_FLAG,
                                                          .at = &c->example,
                                                          .help = "replay the book's worked example with a trace"}),
    };
    memcpy(opts, table, sizeof table);
    return MERGE_NOPTS;
}

void merge_split(const merge_cli *c, int64_t total, int64_t *m, int64_t *n)
{
    *m = c->m >= 0 ? c->m : total / 2;
    *n = total - *m;
}

/* Defined in each step's generated step.c; weak for the bench tools, which link this file without one. */
extern const char *const lab_step_name __attribute__((weak));

/* "ch12-merge/step3-tiled: " before a refusal, as the core's parser writes it. */
static const char *step_name(void)
{
    return &lab_step_name != NULL ? lab_step_name : "./run";
}

void merge_check_run(const merge_step *s, merge_cli *c, const lab_run *run)
{
    c->p.printed = c->printed ? (int)s->printed : 0;
    c->is_float = strcmp(c->type, "float") == 0;
    c->with_values = s->takes_values && !c->keys_only;
    for (int z = 0; z < run->nsizes; z++) {
        const int64_t total = run->sizes[z];
        if (c->m > total) {
            fprintf(stderr,
                    "%s: --m %lld is more than -n %lld: -n counts A and B together, --m is A's part of it "
                    "(./run --help)\n",
                    step_name(), (long long)c->m, (long long)total);
            exit(LAB_EXIT_USAGE);
        }
        int64_t m = 0, n = 0;
        merge_split(c, total, &m, &n);
        const char *why = merge_check(s, m, n, c->is_float, c->with_values, &c->p);
        if (why != NULL) {
            fprintf(stderr, "%s: %s (m=%lld n=%lld; ./run --help)\n", step_name(), why, (long long)m, (long long)n);
            exit(LAB_EXIT_USAGE);
        }
    }
}

/* ---- the device buffers of one merge ---------------------------------------- */

merge_args merge_upload(const merge_inputs *in, size_t temp_bytes)
{
    const size_t a = sizeof(int) * (size_t)in->m, b = sizeof(int) * (size_t)in->n, c = a + b;
    const int values = in->A_values != NULL;
    merge_args d;
    memset(&d, 0, sizeof d);
    d.m = in->m, d.n = in->n, d.is_float = in->is_float;
    d.A = (const int *)lab_dev_upload(in->A, a, "A_d");
    d.B = (const int *)lab_dev_upload(in->B, b, "B_d");
    d.C = (int *)lab_dev_poisoned(c, "C_d");
    if (values) {
        d.A_values = (const int *)lab_dev_upload(in->A_values, a, "A_values_d");
        d.B_values = (const int *)lab_dev_upload(in->B_values, b, "B_values_d");
        d.C_values = (int *)lab_dev_poisoned(c, "C_values_d");
    }
    d.temp = lab_dev_poisoned(temp_bytes, "temp_d (workspace)");
    return d;
}

void merge_download(const merge_args *a, int *C, int *C_values)
{
    const size_t c = sizeof(int) * (size_t)(a->m + a->n);
    lab_dev_download(C, a->C, c);
    if (a->C_values != NULL && C_values != NULL)
        lab_dev_download(C_values, a->C_values, c);
}

void merge_free(merge_args *a)
{
    lab_dev_free((void *)a->A), lab_dev_free((void *)a->B), lab_dev_free(a->C);
    lab_dev_free((void *)a->A_values), lab_dev_free((void *)a->B_values), lab_dev_free(a->C_values);
    lab_dev_free(a->temp);
    memset(a, 0, sizeof *a);
}
