/* merge_driver.c - ./run for ch12 steps 2-5: merges fresh sorted A and B on
 * the GPU, checks every element of C against the CPU merge, and times it.
 * --example replays a small worked input: the book's (Fig 12.8) and the
 * translator's counterexample for the tiled kernels (see docs/errata.md). */
#include <stdio.h>
#include <string.h>

#include "devmem.h"
#include "merge_ref.h"
#include "options.h"
#include "report.h"

typedef struct {
    const int *A_d, *B_d;
    int *C_d;
    int m, n;
    merge_params p;
} work;

static void launch(void *ctx)
{
    const work *w = (const work *)ctx;
    merge_launch(w->A_d, w->m, w->B_d, w->n, w->C_d, &w->p);
}

static void params_text(char *buf, size_t len, const work *w, const char *dist)
{
    snprintf(buf, len, "m=%d n=%d dist=%s block=%d grid=%d tile=%d coarsen=%d%s", w->m, w->n, dist, w->p.block,
             w->p.grid > 0 ? w->p.grid : merge_default_grid((int64_t)w->m + w->n, &w->p), w->p.tile, w->p.coarsen,
             w->p.printed ? " printed" : "");
}

/* Merges A and B on the GPU into C (poisoned first); NULL, or why refused. */
static const char *merge_on_gpu(work *w, const int *A, const int *B, int *C)
{
    w->A_d = (const int *)lab_dev_upload(A, sizeof(int) * (size_t)w->m);
    w->B_d = (const int *)lab_dev_upload(B, sizeof(int) * (size_t)w->n);
    w->C_d = (int *)lab_dev_poisoned(sizeof(int) * ((size_t)w->m + w->n));
    const char *why = merge_launch(w->A_d, w->m, w->B_d, w->n, w->C_d, &w->p);
    if (why == NULL)
        lab_dev_download(C, w->C_d, sizeof(int) * ((size_t)w->m + w->n));
    return why;
}

static void free_work(work *w)
{
    lab_dev_free((void *)w->A_d), lab_dev_free((void *)w->B_d), lab_dev_free(w->C_d);
}

/* Small worked inputs, run with the book's tiny launch configurations. */
static int run_example(const lab_opts *o)
{
    static const int A1[] = {1, 7, 8, 9, 10}, B1[] = {7, 10, 10, 12};
    static const int A2[] = {0, 1, 4, 5, 5, 7, 8, 9}, B2[] = {1, 1, 3, 6, 6, 7, 9};
    const struct {
        const char *what;
        const int *A, *B;
        int m, n;
        merge_params p;
    } ex[] = {
        {"Fig 12.8: one block of three threads, three outputs each", A1, B1, 5, 4, {3, 1, 3, 3, 0}},
        {"translator's counterexample: 2 blocks of 2 threads, tile_size 4", A2, B2, 8, 7, {2, 2, 4, 4, 0}},
    };
    int all_ok = 1;
    for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++) {
        work w = {NULL, NULL, NULL, ex[e].m, ex[e].n, ex[e].p};
        w.p.printed = o->printed ? MERGE_PRINTED_ALL : 0;
        int C[16], want[16];
        merge_ref(ex[e].A, ex[e].m, ex[e].B, ex[e].n, want);
        printf("%s%s:\n", ex[e].what, o->printed ? " (printed code)" : "");
        lab_print_ints("A", ex[e].A, ex[e].m);
        lab_print_ints("B", ex[e].B, ex[e].n);
        const char *why = merge_on_gpu(&w, ex[e].A, ex[e].B, C);
        if (why != NULL) {
            printf("  this step cannot run it: %s\n", why);
            continue;
        }
        lab_print_ints("C (GPU)", C, ex[e].m + ex[e].n);
        lab_print_ints("C (CPU)", want, ex[e].m + ex[e].n);
        const lab_mismatch mm = lab_compare_i32(C, want, ex[e].m + ex[e].n, "C", o->quiet ? 0 : 5);
        printf("  %s\n", mm.count == 0 ? "PASS" : "FAIL");
        all_ok &= mm.count == 0;
        free_work(&w);
    }
    if (!all_ok)
        lab_print_todo_hint();
    return all_ok ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

/* One size: generate, merge, check, time, report. Returns 1 on PASS. */
static int run_size(const lab_opts *o, int64_t total, const merge_params *p)
{
    const int64_t m64 = o->m >= 0 ? (o->m < total ? o->m : total) : total / 2;
    if (total > MERGE_MAX_TOTAL) {
        fprintf(stderr, "./run: m + n = %lld is over the int limit 2^31 - 1 (indices are int, as in the book)\n",
                (long long)total);
        exit(LAB_EXIT_USAGE);
    }
    work w = {NULL, NULL, NULL, (int)m64, (int)(total - m64), *p};
    int *A = (int *)lab_xmalloc(sizeof(int) * (size_t)w.m), *B = (int *)lab_xmalloc(sizeof(int) * (size_t)w.n);
    int *C = (int *)lab_xmalloc(sizeof(int) * (size_t)total), *want = (int *)lab_xmalloc(sizeof(int) * (size_t)total);
    lab_rng rng = lab_rng_seeded(o->seed);
    if (merge_make_inputs(o->dist, &rng, A, w.m, B, w.n, 0) != 0) {
        fprintf(stderr, "./run: unknown --dist %s (try ./run --help)\n", o->dist);
        exit(LAB_EXIT_USAGE);
    }
    merge_ref(A, w.m, B, w.n, want);
    const char *why = merge_on_gpu(&w, A, B, C);
    if (why != NULL) {
        fprintf(stderr, "./run: cannot run these parameters: %s\n", why);
        exit(LAB_EXIT_USAGE);
    }
    const lab_mismatch mm = lab_compare_i32(C, want, total, "C", o->quiet || o->csv ? 0 : 10);
    const lab_timing t = lab_time_device(launch, &w, o->reps);
    char params[192];
    params_text(params, sizeof params, &w, o->dist);
    /* A and B read once, C written once */
    const lab_result r = {lab_step_name, params, total, 8.0 * (double)total, t, mm.count == 0};
    lab_print_result(o, &r);
    free_work(&w);
    free(A), free(B), free(C), free(want);
    return mm.count == 0;
}

int main(int argc, char **argv)
{
    lab_opts o = lab_opts_defaults();
    o.block = 128; /* fast for step 5 on an H100 (docs/ch12-merge.md): 13 outputs per thread */
    o.tile = 1664; /* per tile, an odd stride, so merging into C_S has no bank conflicts */
    o.coarsen = 16;
    lab_parse_opts(argc, argv, &o, lab_step_name,
                   "Merge options: --m M puts M elements in A (default: half of --size); --tile T\n"
                   "(steps 3-5: A and B elements per shared-memory tile); --coarsen C output elements\n"
                   "per thread (section 12.8; sets the grid unless --grid is given); --printed runs\n"
                   "the code as printed (docs/errata.md). --example runs the book's Fig 12.8 input\n"
                   "and the translator's counterexample (try it with --printed on step 3 or 4).\n"
                   "Distributions (--dist): uniform equal a-below a-above interleaved dups.\n");
    lab_require_gpu("./run");
    if (o.example)
        return run_example(&o);
    const merge_params p = {o.block, o.grid, o.tile, o.coarsen, o.printed ? MERGE_PRINTED_ALL : 0};
    int all_pass = 1;
    for (int s = 0; s < o.nsizes; s++)
        all_pass &= run_size(&o, o.sizes[s], &p);
    if (!all_pass && !o.csv)
        lab_print_todo_hint();
    return all_pass ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}
