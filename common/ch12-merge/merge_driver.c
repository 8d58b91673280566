/* merge_driver.c - ./run for ch12's merge steps (2 on): merges fresh sorted A
 * and B on the GPU, checks every element of C (and of the values, for a step
 * that takes them) against the CPU merge, and times it. Everything it knows
 * of the step comes from the step's descriptor, merge_step_info. --example
 * replays two small inputs: the book's (Fig 12.8) and a counterexample to the
 * printed tiled kernels (docs/errata.md). Throughout, `total` is m + n, the
 * size -n gives; n is B's length only. */
#include <stdio.h>
#include <string.h>

#include "merge_host.h"
#include "merge_ref.h"
#include "report.h"

/* The core's options into run, chapter 12's into c (their table: merge_options);
 * then every size checked against the step (merge_check_run), all before a GPU is looked for. */
static void parse_args(int argc, char **argv, lab_run *run, merge_cli *c)
{
    lab_opt opts[MERGE_NOPTS];
    const int nopts = merge_options(&merge_step_info, c, opts);
    lab_parse_step(argc, argv, &merge_step_info.lab, NULL, 0, opts, nopts, run);
    merge_check_run(&merge_step_info, c, run);
}

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
static void params_text(char *buf, size_t len, const merge_cli *c, int64_t m, int64_t n)
{
    const merge_step *s = &merge_step_info;
    int at = snprintf(buf, len, "m=%lld n=%lld dist=%s block=%d grid=%d", (long long)m, (long long)n, c->dist,
                      c->p.block, merge_grid(m + n, &c->p));
    if (s->takes & MERGE_TAKES_TILE)
        at += snprintf(buf + at, len - (size_t)at, " tile=%d", c->p.tile);
    at += snprintf(buf + at, len - (size_t)at, " coarsen=%d", c->p.coarsen);
    if (s->takes & MERGE_TAKES_TYPE)
        at += snprintf(buf + at, len - (size_t)at, " type=%s", c->type);
    if (s->takes_values)
        at += snprintf(buf + at, len - (size_t)at, c->with_values ? " pairs" : " keys");
    snprintf(buf + at, len - (size_t)at, "%s", c->p.printed ? " printed" : "");
}

/* Small worked inputs, run with the book's tiny launch configurations. */
static int run_example(const lab_run *run, const merge_cli *c)
{
    static int A1[] = {1, 7, 8, 9, 10}, B1[] = {7, 10, 10, 12};
    static int A2[] = {0, 1, 4, 5, 5, 7, 8, 9}, B2[] = {1, 1, 3, 6, 6, 7, 9};
    const struct {
        const char *what;
        merge_inputs in;
        merge_params p;
    } ex[] = {
        {.what = "Fig 12.8: one block of three threads, three outputs each",
         .in = {.m = 5, .n = 4, .tagged = MERGE_TAG_NONE, .A = A1, .B = B1},
         .p = {.block = 3, .grid = 1, .tile = 3, .coarsen = 3}},
        {.what = "a counterexample to the printed tiled kernels: 2 blocks of 2 threads, tile_size 4",
         .in = {.m = 8, .n = 7, .tagged = MERGE_TAG_NONE, .A = A2, .B = B2},
         .p = {.block = 2, .grid = 2, .tile = 4, .coarsen = 4}},
    };
    int all_ok = 1;
    for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++) {
        const merge_inputs *in = &ex[e].in;
        const int total = (int)(in->m + in->n);
        merge_params p = ex[e].p;
        int C[16], want[16];
        p.printed = c->p.printed;
        merge_ref(in, want, NULL);
        printf("%s%s:\n", ex[e].what, p.printed ? " (printed code)" : "");
        lab_print_ints("A", in->A, (int)in->m);
        lab_print_ints("B", in->B, (int)in->n);
        merge_args a = merge_upload(in, merge_temp_bytes(&merge_step_info, in->m, in->n, &p));
        const char *why = merge_launch(&a, &p);
        if (why != NULL) {
            printf("  this step cannot run it: %s\n", why);
            merge_free(&a);
            continue;
        }
        merge_download(&a, C, NULL);
        lab_print_ints("C (GPU)", C, total);
        lab_print_ints("C (CPU)", want, total);
        const lab_mismatch mm = merge_compare(in, C, NULL, want, NULL, run->quiet ? 0 : 5, NULL, 0);
        printf("  %s\n", mm.count == 0 ? "PASS" : "FAIL");
        all_ok &= mm.count == 0;
        merge_free(&a);
    }
    if (!all_ok)
        lab_print_todo_hint();
    return all_ok ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

/* One size, m + n = total: generate, merge, check, time, report. Returns 1 on PASS. */
static int run_size(const lab_run *run, const merge_cli *c, int64_t total)
{
    merge_inputs in;
    int64_t m = 0, n = 0;
    merge_split(c, total, &m, &n);
    merge_inputs_make(&in, c->dist, run->seed, m, n, c->is_float, c->with_values, MERGE_TAG_NONE);
    const size_t bytes = sizeof(int) * (size_t)total;
    int *C = lab_xmalloc(bytes), *want = lab_xmalloc(bytes);
    int *C_values = c->with_values ? lab_xmalloc(bytes) : NULL,
        *want_values = c->with_values ? lab_xmalloc(bytes) : NULL;
    merge_ref(&in, want, want_values);
    work w = {.a = merge_upload(&in, merge_temp_bytes(&merge_step_info, m, n, &c->p)), .p = c->p};
    const char *why = merge_launch(&w.a, &w.p);
    if (why != NULL) {
        fprintf(stderr, "./run: cannot run these parameters: %s\n", why);
        exit(LAB_EXIT_USAGE);
    }
    merge_download(&w.a, C, C_values);
    const lab_mismatch mm =
        merge_compare(&in, C, C_values, want, want_values, run->quiet || run->csv ? 0 : 10, NULL, 0);
    const lab_timing t = lab_time_device(launch, &w, run->reps);
    char params[192];
    params_text(params, sizeof params, c, m, n);
    /* A and B read once, C written once (keys, and values when there are some) */
    const lab_result res = {.step = lab_step_name,
                            .params = params,
                            .n = total,
                            .bytes = (c->with_values ? 16.0 : 8.0) * (double)total,
                            .time = t,
                            .pass = mm.count == 0};
    lab_print_result(run, &res);
    merge_free(&w.a);
    merge_inputs_free(&in);
    free(C), free(want), free(C_values), free(want_values);
    return mm.count == 0;
}

int main(int argc, char **argv)
{
    lab_run run;
    merge_cli c;
    parse_args(argc, argv, &run, &c);
    lab_require_gpu("./run");
    if (c.example)
        return run_example(&run, &c);
    int all_pass = 1;
    for (int z = 0; z < run.nsizes; z++)
        all_pass &= run_size(&run, &c, run.sizes[z]);
    if (!all_pass && !run.csv)
        lab_print_todo_hint();
    return all_pass ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}
