/* reduce_ref.c - chapter 10's CPU reference, inputs, float bound and check. */
#include "reduce_ref.h"

#include <string.h>

#include "report.h"

const char *const reduce_dists[] = {"digits", "negative", "mixed", "uniform", NULL};
const char *const reduce_all_ops[] = {"sum", "max", "min", NULL};
const char *const reduce_all_types[] = {"int", "float", NULL};

int reduce_parse_kind(const char *op, const char *type, reduce_kind *k)
{
    int o = -1, t = -1;
    for (int i = 0; reduce_all_ops[i] != NULL; i++)
        if (strcmp(op, reduce_all_ops[i]) == 0)
            o = i;
    for (int i = 0; reduce_all_types[i] != NULL; i++)
        if (strcmp(type, reduce_all_types[i]) == 0)
            t = i;
    if (o < 0 || t < 0)
        return -1;
    k->op = (reduce_op)o;
    k->type = (reduce_type)t;
    return 0;
}

const char *reduce_op_name(reduce_op op)
{
    return (unsigned)op <= REDUCE_MIN ? reduce_all_ops[op] : "?";
}

const char *reduce_type_name(reduce_type type)
{
    return (unsigned)type <= REDUCE_FLOAT ? reduce_all_types[type] : "?";
}

/* A nonzero integer in [lo, hi] (lo <= -1 or hi >= 1). */
static int nonzero_in(lab_rng *rng, int lo, int hi)
{
    int v;
    do
        v = lo + (int)lab_rng_below(rng, (uint32_t)(hi - lo + 1));
    while (v == 0);
    return v;
}

int reduce_make_input(const char *dist, reduce_type type, lab_rng *rng, reduce_t *x, int64_t n)
{
    int lo, hi;
    if (strcmp(dist, "digits") == 0)
        lo = 1, hi = 9;
    else if (strcmp(dist, "negative") == 0)
        lo = -9, hi = -1;
    else if (strcmp(dist, "mixed") == 0)
        lo = -9, hi = 9;
    else if (strcmp(dist, "uniform") == 0)
        lo = -1000, hi = 1000;
    else
        return -1;
    const int real = strcmp(dist, "uniform") == 0 && type == REDUCE_FLOAT;
    for (int64_t i = 0; i < n; i++) {
        if (real) {
            float f = (float)(2.0 * lab_rng_unit(rng) - 1.0);
            x[i] = reduce_float_bits(f != 0.0f ? f : 0.5f);
        } else {
            const int v = nonzero_in(rng, lo, hi);
            x[i] = type == REDUCE_FLOAT ? reduce_float_bits((float)v) : v;
        }
    }
    return 0;
}

void reduce_ref(reduce_kind k, const reduce_t *x, int64_t n, reduce_ref_result *r)
{
    r->want = reduce_identity(k);
    r->sum = 0.0;
    r->sum_abs = 0.0;
    r->exact = 1;
    if (k.type == REDUCE_FLOAT && k.op == REDUCE_SUM) {
        int integers = 1;
        for (int64_t i = 0; i < n; i++) {
            const double v = reduce_as_float(x[i]);
            r->sum += v;
            r->sum_abs += fabs(v);
            integers &= v == floor(v);
        }
        r->exact = integers && r->sum_abs < 16777216.0; /* 2^24 */
        r->want = reduce_float_bits((float)r->sum);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        r->want = reduce_combine(k, r->want, x[i]);
}

double reduce_float_bound(double sum_abs, int64_t height)
{
    const double u = 1.0 / 16777216.0; /* 2^-24: float's unit roundoff */
    const double hu = (double)height * u;
    return hu < 1.0 ? hu / (1.0 - hu) * sum_abs : INFINITY;
}

int64_t reduce_tree_height(const reduce_params *p)
{
    return p->per_thread + 10 + p->grid;
}

void reduce_format(reduce_type type, reduce_t v, char *buf, size_t len)
{
    if (type == REDUCE_FLOAT)
        snprintf(buf, len, "%.9g", reduce_as_float(v));
    else
        snprintf(buf, len, "%d", v);
}

int reduce_check(reduce_kind k, reduce_t got, const reduce_ref_result *r, int64_t height, char *why, size_t len)
{
    char g[32], w[32];
    reduce_format(k.type, got, g, sizeof g);
    if (r->exact) {
        /* floats compare as values (+0 == -0); ints and float max/min are exact */
        const int same = k.type == REDUCE_FLOAT ? reduce_as_float(got) == reduce_as_float(r->want) : got == r->want;
        reduce_format(k.type, r->want, w, sizeof w);
        if (!same)
            snprintf(why, len, "result = %s%s, expected %s exactly", g, lab_marker_meaning((uint32_t)got), w);
        return same;
    }
    const double bound = reduce_float_bound(r->sum_abs, height);
    const double err = fabs((double)reduce_as_float(got) - r->sum);
    const int ok = err <= bound; /* false for NaN */
    if (!ok)
        snprintf(why, len,
                 "result = %s%s, expected %.17g within %.3g (float bound for a tree of height %lld), off by %.6g", g,
                 lab_marker_meaning((uint32_t)got), r->sum, bound, (long long)height, err);
    return ok;
}
