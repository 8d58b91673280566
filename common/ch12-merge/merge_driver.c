/* merge_driver.c - ./run for ch12's merge steps (2 on): merges fresh sorted A
 * and B on the GPU, checks every element of C (and of the values, for a step
 * that takes them) against the CPU merge, and times it. Everything it knows
 * of the step comes from the step's descriptor, merge_step_info. --example
 * replays two small inputs: the book's (Fig 12.8) and a counterexample to the
 * printed tiled kernels (docs/errata.md). */
#include <stdio.h>
#include <string.h>

#include "merge_host.h"
#include "merge_ref.h"
#include "report.h"

typedef struct {
    merge_args a;
    merge_params p;
} work;

static void launch(void *ctx)
{
    const work *w = (const work *)ctx;
    merge_launch(&w->a, &w->p);
}

/* The result line's parameters: the options the step takes, as in the CSVs. */
static void params_text(char *buf, size_t len, const merge_run *r, int64_t m, int64_t n)
{
    const merge_step *s = &merge_step_info;
    const unsigned takes = s->spec.options;
    int at = snprintf(buf, len, "m=%lld n=%lld dist=%s block=%d grid=%d", (long long)m, (long long)n, r->o.dist,
                      r->p.block, merge_grid(m + n, &r->p));
    if (takes & LAB_OPT_TILE)
        at += snprintf(buf + at, len - (size_t)at, " tile=%d", r->p.tile);
    at += snprintf(buf + at, len - (size_t)at, " coarsen=%d", r->p.coarsen);
    if (takes & LAB_OPT_TYPE)
        at += snprintf(buf + at, len - (size_t)at, " type=%s", r->o.type);
    if (s->takes_values)
        at += snprintf(buf + at, len - (size_t)at, r->with_values ? " pairs" : " keys");
    snprintf(buf + at, len - (size_t)at, "%s", r->p.printed ? " printed" : "");
}

/* Small worked inputs, run with the book's tiny launch configurations. */
static int run_example(const merge_run *r)
{
    static int A1[] = {1, 7, 8, 9, 10}, B1[] = {7, 10, 10, 12};
    static int A2[] = {0, 1, 4, 5, 5, 7, 8, 9}, B2[] = {1, 1, 3, 6, 6, 7, 9};
    const struct {
        const char *what;
        merge_inputs in;
        merge_params p;
    } ex[] = {
        {"Fig 12.8: one block of three threads, three outputs each", {5, 4, 0, MERGE_TAG_NONE, A1, B1, NULL, NULL},
         {3, 1, 3, 3, 0}},
        {"a counterexample to the printed tiled kernels: 2 blocks of 2 threads, tile_size 4",
         {8, 7, 0, MERGE_TAG_NONE, A2, B2, NULL, NULL}, {2, 2, 4, 4, 0}},
    };
    int all_ok = 1;
    for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++) {
        const merge_inputs *in = &ex[e].in;
        const int total = (int)(in->m + in->n);
        merge_params p = ex[e].p;
        int C[16], want[16];
        p.printed = r->p.printed;
        merge_ref(in, want, NULL);
        printf("%s%s:\n", ex[e].what, p.printed ? " (printed code)" : "");
        lab_print_ints("A", in->A, (int)in->m);
        lab_print_ints("B", in->B, (int)in->n);
        const char *why = merge_check(&merge_step_info, in->m, in->n, 0, 0, &p);
        if (why != NULL) {
            printf("  this step cannot run it: %s\n", why);
            continue;
        }
        merge_args a = merge_upload(in, merge_temp_bytes(&merge_step_info, in->m, in->n, &p));
        why = merge_launch(&a, &p);
        if (why != NULL) {
            printf("  this step cannot run it: %s\n", why);
            merge_free(&a);
            continue;
        }
        merge_download(&a, C, NULL);
        lab_print_ints("C (GPU)", C, total);
        lab_print_ints("C (CPU)", want, total);
        const lab_mismatch mm = merge_compare(in, C, NULL, want, NULL, r->o.quiet ? 0 : 5, NULL, 0);
        printf("  %s\n", mm.count == 0 ? "PASS" : "FAIL");
        all_ok &= mm.count == 0;
        merge_free(&a);
    }
    if (!all_ok)
        lab_print_todo_hint();
    return all_ok ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

/* One size: generate, merge, check, time, report. Returns 1 on PASS. */
static int run_size(const merge_run *r, int64_t total)
{
    merge_inputs in;
    int64_t m = 0, n = 0;
    merge_split(&r->o, total, &m, &n);
    merge_inputs_make(&in, r->o.dist, r->o.seed, m, n, r->is_float, r->with_values, MERGE_TAG_NONE);
    const size_t bytes = sizeof(int) * (size_t)total;
    int *C = lab_xmalloc(bytes), *want = lab_xmalloc(bytes);
    int *C_values = r->with_values ? lab_xmalloc(bytes) : NULL, *want_values = r->with_values ? lab_xmalloc(bytes) : NULL;
    merge_ref(&in, want, want_values);
    work w = {merge_upload(&in, merge_temp_bytes(&merge_step_info, m, n, &r->p)), r->p};
    const char *why = merge_launch(&w.a, &w.p);
    if (why != NULL) {
        fprintf(stderr, "./run: cannot run these parameters: %s\n", why);
        exit(LAB_EXIT_USAGE);
    }
    merge_download(&w.a, C, C_values);
    const lab_mismatch mm =
        merge_compare(&in, C, C_values, want, want_values, r->o.quiet || r->o.csv ? 0 : 10, NULL, 0);
    const lab_timing t = lab_time_device(launch, &w, r->o.reps);
    char params[192];
    params_text(params, sizeof params, r, m, n);
    /* A and B read once, C written once (keys, and values when there are some) */
    const lab_result res = {lab_step_name, params, total, (r->with_values ? 16.0 : 8.0) * (double)total, t,
                            mm.count == 0};
    lab_print_result(&r->o, &res);
    merge_free(&w.a);
    merge_inputs_free(&in);
    free(C), free(want), free(C_values), free(want_values);
    return mm.count == 0;
}

int main(int argc, char **argv)
{
    merge_run r;
    merge_parse_run(&r, &merge_step_info, argc, argv, lab_step_name);
    lab_require_gpu("./run");
    if (r.o.example)
        return run_example(&r);
    return merge_run_sizes(&r, run_size);
}
