/* sort_host.c - what every chapter-13 step's launcher shares: the checks of
 * its parameters, its workspace and its loop of passes (see sort_host.h). */
#include "sort_host.h"

#include "scan.h"

const char *sort_check(const sort_step *s, int64_t n, const sort_params *p)
{
    const lab_opt_spec spec = sort_options(s);
    const unsigned takes = spec.options;
    const char *why = lab_check_block(p->block, s->block_need);
    if (why != NULL)
        return why;
    if ((takes & LAB_OPT_BITS) && (p->radix_bits < 1 || p->radix_bits > SORT_MAX_RADIX_BITS))
        return "--bits (the digit width r) must be 1 to 8";
    if ((takes & LAB_OPT_COARSEN) && (p->coarsen < 1 || p->coarsen > SORT_MAX_COARSEN))
        return "--coarsen must be 1 to 16 keys per thread (a thread keeps them in registers)";
    if (n < 0)
        return "n must not be negative";
    if (s->check != NULL && (why = s->check(n, p)) != NULL)
        return why;
    if (n > spec.max_n)
        return s->max_n_why != NULL ? s->max_n_why : SORT_MAX_N_WHY;
    return NULL;
}

int64_t sort_max_n(const sort_step *s, const sort_params *p)
{
    return s->max_n_of != NULL ? s->max_n_of(p) : sort_options(s).max_n;
}

/* Carves the workspace from ws->at on (from 0: counts its bytes). */
static sort_ws carve(lab_ws *at, const sort_step *s, int64_t n, int with_values, const sort_params *p)
{
    sort_ws_need need = {0, 0, 0, 0};
    sort_ws ws = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    const size_t keys = sizeof(unsigned int) * (size_t)n;
    s->workspace(n, p, &need);
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

const char *sort_prepare(const sort_step *s, int64_t n, int with_values, void *temp_d, const sort_params *p,
                         sort_ws *ws)
{
    lab_ws at = {(uintptr_t)temp_d};
    const char *why = sort_check(s, n, p);
    if (why != NULL || n == 0)
        return why;
    if (s->fit != NULL && (why = s->fit(n, p, with_values)) != NULL)
        return why;
    *ws = carve(&at, s, n, with_values, p);
    return NULL;
}

const char *sort_run_passes(const sort_step *s, const unsigned int *keys_in, const unsigned int *values_in,
                            unsigned int *keys_out, unsigned int *values_out, int64_t n, void *temp_d,
                            const sort_params *p)
{
    sort_ws ws;
    const char *why = sort_prepare(s, n, values_in != NULL, temp_d, p, &ws);
    if (why != NULL || n == 0)
        return why;
    sort_pass now = {keys_in, values_in, NULL, NULL, n, 0, s->passes(n, p)};
    for (now.index = 0; now.index < now.count; now.index++) {
        /* ping-pong: a pass with an even number of passes after it writes the output, so the last one does */
        const int to_output = (now.count - 1 - now.index) % 2 == 0;
        now.keys_out = to_output ? keys_out : ws.keys_alt;
        now.values_out = to_output ? values_out : ws.values_alt;
        if ((why = s->pass(&now, &ws, p)) != NULL)
            return why;
        now.keys_in = now.keys_out, now.values_in = now.values_out;
    }
    return NULL;
}

int sort_radix_passes(int64_t n, const sort_params *p)
{
    (void)n;
    return p->radix_bits > 0 ? (32 + p->radix_bits - 1) / p->radix_bits : 0;
}

lab_opt_spec sort_options(const sort_step *s)
{
    lab_opt_spec spec = s->spec;
    spec.options |= SORT_OPTIONS;
    spec.dists = sort_dists;
    spec.types = sort_type_names;
    if (spec.max_n == 0)
        spec.max_n = SORT_MAX_N;
    if (spec.options & LAB_OPT_BITS)
        spec.max_bits = SORT_MAX_RADIX_BITS;
    if (spec.options & LAB_OPT_COARSEN)
        spec.max_coarsen = SORT_MAX_COARSEN;
    return spec;
}
