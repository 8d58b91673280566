/* reduce_driver.c - ./run for chapter 10: reduces a fresh random input on the
 * GPU with the step's launcher, checks the result against the CPU reference,
 * times it. Everything it knows of the step comes from the step's descriptor,
 * reduce_step_info. For the book's single-block kernels (steps 1-3),
 * --analyze runs the instrumented kernel and prints its counts beside the
 * book's (sections 10.4-10.6), and --example draws the book's picture of the
 * tree (Figs 10.7, 10.8, 10.10) from what the kernel recorded as it ran. */
#include <stdio.h>
#include <string.h>

#include "devmem.h"
#include "reduce_host.h"
#include "reduce_ref.h"
#include "report.h"

#define EXAMPLE_N     16 /* --example's default: the book's pictures have 16 elements */
#define EXAMPLE_MAX_N 32 /* one row per time step must fit a terminal */

static const char *const chapter_help =
    "Distributions (--dist): digits (1..9, default) negative (-9..-1) mixed (+-1..9) uniform\n"
    "(floats in [-1,1), ints +-1..1000). Integer inputs must match exactly (float sums while\n"
    "sum |x| < 2^24); other float sums within a bound from N, the launch shape and the values.\n";

/* ---- one input, the reference and the check ------------------------------------ */

/* The input of n elements from the seed and distribution, and what the CPU makes of it. */
static reduce_t *make_input(const lab_run *run, const reduce_cli *a, reduce_kind kind, int64_t n,
                            reduce_ref_result *ref)
{
    reduce_t *x = (reduce_t *)lab_xmalloc(sizeof(reduce_t) * (size_t)(n > 0 ? n : 1));
    lab_rng rng = lab_rng_seeded(run->seed);
    reduce_make_input(a->dist, kind.type, &rng, x, n); /* the parser took only known distributions */
    reduce_ref(kind, x, n, ref);
    return x;
}

/* Downloads *output_d into got and checks it: 1 when right, else 0 with the reason in detail. */
static int check_output(reduce_kind kind, const void *output_d, const reduce_ref_result *ref, const reduce_params *p,
                        reduce_t *got, char *detail, size_t len)
{
    lab_dev_download(got, output_d, sizeof *got);
    return reduce_check(kind, *got, ref, reduce_tree_height(p), detail, len);
}

static void print_failure(const lab_run *run, const char *detail)
{
    if (!run->quiet)
        printf("  %s\n", detail);
    lab_print_todo_hint();
}

/* ---- a timed run --------------------------------------------------------------- */

typedef struct {
    void *input_d, *output_d;
    int64_t n;
    reduce_params p;
} work;

static void launch(void *ctx)
{
    work *w = (work *)ctx;
    reduce_params p = w->p;
    reduce_launch(w->input_d, w->n, w->output_d, &p);
}

/* The result line's parameters: the options the step takes, as the CSVs have them. */
static void params_text(const reduce_cli *a, const reduce_params *p, char *buf, size_t len)
{
    const reduce_step *s = &reduce_step_info;
    int at = snprintf(buf, len, "op=%s type=%s dist=%s block=%d grid=%d", reduce_op_name(p->kind.op),
                      reduce_type_name(p->kind.type), a->dist, p->block, p->grid);
    if (s->takes & REDUCE_TAKES_COARSEN)
        at += snprintf(buf + at, len - (size_t)at, " coarsen=%d", p->coarsen);
    if ((s->takes & REDUCE_TAKES_VARIANT) && p->variant >= 1)
        snprintf(buf + at, len - (size_t)at, " variant=%s", s->lab.variants[p->variant - 1]);
}

/* One run: checked once, then timed; the result line, PASS/FAIL. Returns an exit status. */
static int run_one(const lab_run *run, const reduce_cli *a, int64_t n, reduce_params p)
{
    reduce_ref_result ref;
    reduce_t *x = make_input(run, a, p.kind, n, &ref);
    work w = {.input_d = lab_dev_upload(x, sizeof(reduce_t) * (size_t)n, "input_d"),
              .output_d = lab_dev_poisoned(sizeof(reduce_t), "output_d"),
              .n = n,
              .p = p};
    const char *why = reduce_launch(w.input_d, n, w.output_d, &w.p);
    if (why != NULL) {
        fprintf(stderr, "./run: cannot run N = %lld: %s\n", (long long)n, why);
        lab_dev_free(w.input_d), lab_dev_free(w.output_d), free(x);
        return LAB_EXIT_USAGE;
    }
    char detail[256] = "", params[192];
    reduce_t got;
    const int pass = check_output(p.kind, w.output_d, &ref, &w.p, &got, detail, sizeof detail);
    /* the timed runs launch with what this run resolved (steps 1 and 2 work on their own leftovers: same work) */
    const lab_timing t = lab_time_device(launch, &w, run->reps);
    params_text(a, &w.p, params, sizeof params);
    const lab_result r = {
        .step = lab_step_name, .params = params, .n = n, .bytes = 4.0 * (double)n, .time = t, .pass = pass};
    lab_print_result(run, &r);
    if (!pass && !run->csv)
        print_failure(run, detail);
    lab_dev_free(w.input_d), lab_dev_free(w.output_d), free(x);
    return pass ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

/* ---- the instrumented run of --analyze and --example (steps 1-3) ------------------ */

typedef struct {
    reduce_t *x;           /* the input (freed by the caller) */
    reduce_ref_result ref; /* what the CPU makes of it */
    reduce_counters c;     /* what the kernel recorded */
    reduce_params p;       /* what ran */
    reduce_t got;          /* *output */
    int pass;
    char detail[256];
} instrumented;

/* Runs the step once on a fresh input with counters; 0, or LAB_EXIT_USAGE when it cannot run. */
static int instrumented_run(const lab_run *run, const reduce_cli *a, int64_t n, reduce_params p, instrumented *r)
{
    r->x = make_input(run, a, p.kind, n, &r->ref);
    void *input_d = lab_dev_upload(r->x, sizeof(reduce_t) * (size_t)n, "input_d");
    void *output_d = lab_dev_poisoned(sizeof(reduce_t), "output_d");
    memset(&r->c, 0, sizeof r->c);
    r->c.base = (unsigned long long)(uintptr_t)input_d;
    p.counters = (reduce_counters *)lab_dev_upload(&r->c, sizeof r->c, "counters_d");
    const char *why = reduce_launch(input_d, n, output_d, &p);
    if (why == NULL) {
        r->pass = check_output(p.kind, output_d, &r->ref, &p, &r->got, r->detail, sizeof r->detail);
        lab_dev_download(&r->c, p.counters, sizeof r->c);
    } else
        fprintf(stderr, "./run: cannot run N = %lld: %s\n", (long long)n, why);
    r->p = p;
    lab_dev_free(input_d), lab_dev_free(output_d), lab_dev_free(p.counters);
    return why == NULL ? 0 : LAB_EXIT_USAGE;
}

/* ---- --analyze: the book's counts ------------------------------------------------ */

/* The counts of each time step. */
static void print_time_steps(const reduce_book *book, const reduce_analysis *a)
{
    printf("  time step  stride  warps active  of them divergent  threads active  global requests\n");
    for (int k = 0; k < a->steps; k++)
        printf("  %9d  %6d  %12d  %17d  %14d  %15d%s%s\n", k + 1, a->stride[k], a->warps[k], a->divergent[k],
               a->threads[k], a->requests[k], k == 0 && book->first_step != NULL ? "  " : "",
               k == 0 && book->first_step != NULL ? book->first_step : "");
}

/* One row: what was measured, the book's formula with its value at this N (the
 * formulas count N/64 whole warps: N >= 64), and the number the book prints.
 * tests/bench/analysis.awk reads these columns. */
static void print_book_row(const reduce_book_row *row, const reduce_analysis *a, int64_t n)
{
    if (row->metric == REDUCE_SECTION) {
        printf("  %s\n", row->label);
        return;
    }
    const double measured = reduce_metric_value(a, row->metric);
    const int has_formula = row->formula != NULL && row->formula_at != NULL && n >= 64;
    const double value = has_formula ? row->formula_at((double)n) : 0.0;
    const char *printed = n == 256 && row->at_256 != NULL     ? row->at_256
                          : n == 2048 && row->at_2048 != NULL ? row->at_2048
                          : row->remark != NULL               ? row->remark
                                                              : "";
    char m[32], f[32] = "";
    snprintf(m, sizeof m, measured == (double)(long long)measured ? "%.0f" : "%.3f", measured);
    if (has_formula)
        snprintf(f, sizeof f, value == (double)(long long)value ? "= %.0f" : "= %.3f", value);
    printf("    %-46s %8s   %-44s %-8s %s\n", row->label, m, has_formula ? row->formula : "", f, printed);
}

static int run_analyze(const lab_run *run, const reduce_cli *a, int64_t n, reduce_params p)
{
    const reduce_book *book = reduce_step_info.book;
    instrumented r;
    const int rc = instrumented_run(run, a, n, p, &r);
    free(r.x);
    if (rc != 0)
        return rc;
    reduce_analysis counts;
    reduce_analyze_counts(&r.c, book->strides_double, r.p.block, &counts);
    const int warps = (r.p.block + 31) / 32;
    printf("%s %s (%s), N = %lld: one block of %d threads (%d warp%s), %d time steps\n", r.pass ? "PASS" : "FAIL",
           book->figure, lab_step_name, (long long)n, r.p.block, warps, warps > 1 ? "s" : "", counts.steps);
    if (!r.pass)
        print_failure(run, r.detail);
    print_time_steps(book, &counts);
    printf("    %-46s %8s   %-44s %-8s %s\n", "", "measured", "the book's formula, at this N", "",
           "the book prints (N = 256 / 2048)");
    if (n < 64)
        printf("    (the book's formulas count N/64 whole warps: they need N >= 64)\n");
    for (int i = 0; i < reduce_book_nrows; i++)
        if (reduce_book_rows[i].book == book)
            print_book_row(&reduce_book_rows[i], &counts, n);
    if (book->note != NULL)
        book->note(n, &counts);
    printf("\n");
    return r.pass ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

/* ---- --example: the book's picture of the tree ------------------------------------- */

/* A row of small numbers, one per element column. */
static void print_columns(const char *label, const int *v, int64_t n, int blank_below)
{
    printf("  %-22s", label);
    for (int64_t i = 0; i < n; i++)
        if (v[i] < blank_below)
            printf("   ");
        else
            printf(" %2d", v[i]);
    printf("\n");
}

/* integers: the inputs are whole numbers (--dist digits, negative or mixed), printed in the columns */
static void draw_picture(const reduce_book *book, const reduce_counters *c, const reduce_t *x, int64_t n, int integers)
{
    int owner[REDUCE_EXAMPLE_MAX_N], index[REDUCE_EXAMPLE_MAX_N], value[REDUCE_EXAMPLE_MAX_N];
    reduce_picture_step rows[REDUCE_SLOTS];
    const int steps = reduce_example_picture(c, book->strides_double, n, owner, rows);
    for (int64_t i = 0; i < n; i++)
        index[i] = (int)i, value[i] = (int)reduce_as_float(x[i]);
    printf("Each row is a time step as the kernel recorded it (--analyze's records of the active threads and\n"
           "of the elements each one read and wrote), not a copy of the figure:\n"
           "  #  an active thread adds into this element     +  the element it adds in\n"
           "  threads: one mark per thread, # active, . idle\n\n");
    print_columns("element", index, n, 0);
    if (integers)
        print_columns("input (this run)", value, n, -1000000);
    print_columns("owner (time step 1)", owner, n, 0);
    for (int k = 0; k < steps; k++) {
        char label[32];
        snprintf(label, sizeof label, "time step %d, stride %d", k + 1, rows[k].stride);
        printf("  %-22s", label);
        for (int64_t i = 0; i < n; i++)
            printf("  %c", rows[k].elements[i]);
        printf("   %-*s %2d active   %s%s%s\n", (int)(n / 2), rows[k].threads, rows[k].active, rows[k].from,
               strcmp(rows[k].from, rows[k].into) != 0 ? " -> " : "",
               strcmp(rows[k].from, rows[k].into) != 0 ? rows[k].into : "");
    }
}

static int run_example(const lab_run *run, const reduce_cli *a, int64_t n, reduce_params p)
{
    const reduce_book *book = reduce_step_info.book;
    instrumented r;
    const int rc = instrumented_run(run, a, n, p, &r);
    if (rc == 0) {
        printf("%s replayed: %s (%s), N = %lld, one block of %d threads\n", book->picture, book->figure, lab_step_name,
               (long long)n, r.p.block);
        draw_picture(book, &r.c, r.x, n, r.ref.exact);
        printf("\n%s: *output = %.9g%s, the sum of the %lld inputs is %.9g\n", r.pass ? "PASS" : "FAIL",
               reduce_as_float(r.got), lab_marker_meaning((uint32_t)r.got), (long long)n, r.ref.sum);
        if (!r.pass)
            print_failure(run, r.detail);
    }
    free(r.x);
    return rc != 0 ? rc : r.pass ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

/* ---- the options, and what the step can run, before any GPU is looked for -------- */

/* The variants to run: the one --variant names, or every one the step has (0: it has none). */
static int variants_to_run(const reduce_cli *a, int *variants)
{
    const char *const *names = reduce_step_info.lab.variants;
    int count = 0;
    if (!(reduce_step_info.takes & REDUCE_TAKES_VARIANT) || names == NULL) {
        variants[0] = 0;
        return 1;
    }
    for (int v = 0; names[v] != NULL; v++)
        if (a->variant[0] == '\0' || strcmp(a->variant, names[v]) == 0)
            variants[count++] = v + 1;
    return count;
}

/* Every size and variant through the step's own check (pure host): exit 2 with its reason. */
static void check_before_the_gpu(const lab_run *run, const reduce_cli *a, const int *variants, int nvariants)
{
    if (a->analyze && a->example) {
        fprintf(stderr, "./run: --analyze and --example: one at a time\n");
        exit(LAB_EXIT_USAGE);
    }
    for (int s = 0; s < run->nsizes; s++) {
        if (a->example && run->sizes[s] > EXAMPLE_MAX_N) {
            fprintf(stderr, "./run: --example draws one column per element: -n 2 to %d (a power of two), not %lld\n",
                    EXAMPLE_MAX_N, (long long)run->sizes[s]);
            exit(LAB_EXIT_USAGE);
        }
        for (int v = 0; v < nvariants; v++) {
            reduce_params p = a->p;
            p.variant = variants[v];
            const char *why = reduce_step_info.check(run->sizes[s], &p);
            if (why != NULL) {
                fprintf(stderr, "./run: cannot run N = %lld: %s\n", (long long)run->sizes[s], why);
                exit(LAB_EXIT_USAGE);
            }
        }
    }
}

/* The step's options (their table: reduce_options), from what its descriptor
 * takes, each pointing at the field of a that the run uses; then the sizes to
 * run when no -n was given (the book's N = 256 and 2048 for --analyze, 16 for
 * --example, 2 x --block for one block). */
static void parse_args(int argc, char **argv, lab_run *run, reduce_cli *a)
{
    const reduce_step *s = &reduce_step_info;
    lab_opt opts[REDUCE_NOPTS];
    const int nopts = reduce_options(s, a, opts);
    lab_step lab = s->lab;
    lab.sets_default_n = 1; /* the default -n follows --analyze, --example and --block (below) */
    lab_parse_step(argc, argv, &lab, chapter_help, 20, opts, nopts, run);
    reduce_parse_kind(a->op, a->type, &a->p.kind); /* the parser took only the step's names */
    if (!run->given_n && a->analyze)
        run->sizes[0] = 256, run->sizes[1] = 2048, run->nsizes = 2;
    else if (!run->given_n && a->example)
        run->sizes[0] = EXAMPLE_N, run->nsizes = 1;
    else if (!run->given_n && s->one_block)
        run->sizes[0] = 2 * (int64_t)a->p.block, run->nsizes = 1;
    lab_list_sizes(run);
}

int main(int argc, char **argv)
{
    lab_run run;
    reduce_cli a;
    parse_args(argc, argv, &run, &a);
    int variants[8];
    const int nvariants = variants_to_run(&a, variants);
    check_before_the_gpu(&run, &a, variants, nvariants);
    if (a.example && !lab_gpu_available(NULL, 0))
        fprintf(stderr, "./run --example draws %s from what the kernel records as it runs: nothing to draw.\n",
                reduce_step_info.book->picture);
    lab_require_gpu("./run");
    if (run.csv && !a.analyze && !a.example && !run.quiet)
        printf("status,step,params,n,seed,median_ms,spread,GB_per_s,Gelem_per_s\n");
    int status = LAB_EXIT_PASS;
    for (int s = 0; s < run.nsizes; s++)
        for (int v = 0; v < nvariants; v++) {
            reduce_params p = a.p;
            p.variant = variants[v];
            const int rc = a.analyze   ? run_analyze(&run, &a, run.sizes[s], p)
                           : a.example ? run_example(&run, &a, run.sizes[s], p)
                                       : run_one(&run, &a, run.sizes[s], p);
            if (rc > status)
                status = rc;
            if (rc == LAB_EXIT_USAGE)
                return status;
        }
    return status;
}
