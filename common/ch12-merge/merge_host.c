/* merge_host.c - what every chapter-12 step's launcher and driver shares: the
 * checks of its parameters, its workspace, its options and its device buffers
 * (see merge_host.h). */
#include "merge_host.h"
#include "report.h"

#include <string.h>

const char *merge_check(const merge_step *s, int64_t m, int64_t n, int is_float, int with_values,
                        const merge_params *p)
{
    const unsigned takes = s->spec.options;
    const char *why = lab_check_block(p->block, s->block_need);
    if (why != NULL)
        return why;
    if (m < 0 || n < 0)
        return "m and n must not be negative";
    if (m + n > s->spec.max_n)
        return s->max_n_why;
    if (is_float && !lab_name_in("float", s->spec.types))
        return "this step merges int keys, as the book does (--type float is not one of its types)";
    if (with_values && !s->takes_values)
        return "this step merges keys only, as the book does: it takes no values";
    if ((takes & LAB_OPT_COARSEN) && p->coarsen < 1)
        return "--coarsen (outputs per thread) must be 1 or more";
    if ((takes & LAB_OPT_GRID) && p->grid < 0)
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
    merge_ws ws = {NULL, 0};
    if (s->tile_co_ranks && p->tile > 0) {
        ws.ntiles = ceil_div(total, p->tile);
        ws.tile_co_ranks = (int *)lab_ws_take(at, sizeof(int) * ((size_t)ws.ntiles + 1));
    }
    return ws;
}

size_t merge_temp_bytes(const merge_step *s, int64_t m, int64_t n, const merge_params *p)
{
    lab_ws at = {0};
    if (merge_check(s, m, n, 0, 0, p) != NULL)
        return 0;
    carve(&at, s, m + n, p);
    return (size_t)at.at;
}

const char *merge_prepare(const merge_step *s, const merge_args *a, const merge_params *p, const void *kernel,
                          size_t shared, int *grid, merge_ws *ws)
{
    lab_ws at = {(uintptr_t)a->temp};
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

void merge_split(const lab_opts *o, int64_t total, int64_t *m, int64_t *n)
{
    *m = o->m >= 0 ? (o->m < total ? o->m : total) : total / 2;
    *n = total - *m;
}

void merge_parse_run(merge_run *r, const merge_step *s, int argc, char **argv, const char *step)
{
    lab_opts *o = &r->o;
    *o = lab_opts_defaults();
    o->size = o->sizes[0] = s->default_n;
    o->block = s->defaults.block;
    o->grid = s->defaults.grid;
    o->tile = s->defaults.tile;
    o->coarsen = s->defaults.coarsen;
    o->type = s->spec.types != NULL ? s->spec.types[0] : "int";
    lab_parse_opts(argc, argv, o, &s->spec, step);
    if (o->nsizes == 0)
        o->nsizes = 1, o->sizes[0] = o->size;
    const merge_params p = {o->block, o->grid, o->tile, o->coarsen, o->printed ? (int)s->printed : 0};
    r->p = p;
    r->is_float = strcmp(o->type, "float") == 0;
    r->with_values = s->takes_values && !o->keys_only;
    for (int z = 0; z < o->nsizes; z++) {
        int64_t m = 0, n = 0;
        merge_split(o, o->sizes[z], &m, &n);
        const char *why = merge_check(s, m, n, r->is_float, r->with_values, &r->p);
        if (why != NULL) {
            fprintf(stderr, "%s: %s (m=%lld n=%lld; ./run --help)\n", step, why, (long long)m, (long long)n);
            exit(LAB_EXIT_USAGE);
        }
    }
}

int merge_run_sizes(const merge_run *r, int (*run_size)(const merge_run *r, int64_t total))
{
    int all_pass = 1;
    for (int z = 0; z < r->o.nsizes; z++)
        all_pass &= run_size(r, r->o.sizes[z]);
    if (!all_pass && !r->o.csv)
        lab_print_todo_hint();
    return all_pass ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
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
