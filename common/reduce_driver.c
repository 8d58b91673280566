/* reduce_driver.c - ./run for chapter 10: reduces a fresh random input on the
 * GPU with the step's launcher, checks the result against the CPU reference,
 * times it; --analyze (steps 1-3) runs the instrumented kernel and prints its
 * counts beside the book's formulas (sections 10.4-10.6). */
#include <stdio.h>
#include <string.h>

#include "devmem.h"
#include "options.h"
#include "reduce.h"
#include "reduce_ref.h"
#include "report.h"

/* The step's number, from its path (.../ch10-reduction/step4-segmented). */
static int step_number(void)
{
    const char *s = lab_step_name, *last = NULL;
    while ((s = strstr(s, "/step")) != NULL)
        last = s++;
    return last != NULL ? atoi(last + 5) : 0;
}

/* Steps 6 and 7 have two forms each (--variant); the others one. */
static const char *variant_name(int step, int v)
{
    static const char *const names[2][2] = {{"v1", "v2"}, {"syncwarp", "shfl"}};
    return step >= 6 && step <= 7 && v >= 1 && v <= 2 ? names[step - 6][v - 1] : "";
}

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

/* One run: the result line, PASS/FAIL; returns an exit status. */
static int run_one(const lab_opts *o, int step, reduce_kind kind, int64_t n, reduce_params p)
{
    reduce_t *x = (reduce_t *)lab_xmalloc(sizeof(reduce_t) * (size_t)n);
    lab_rng rng = lab_rng_seeded(o->seed);
    if (reduce_make_input(o->dist, kind.type, &rng, x, n) != 0) {
        fprintf(stderr, "./run: unknown --dist %s (see ./run --help)\n", o->dist);
        free(x);
        return LAB_EXIT_USAGE;
    }
    reduce_ref_result ref;
    reduce_ref(kind, x, n, &ref);
    work w = {lab_dev_upload(x, sizeof(reduce_t) * (size_t)n), lab_dev_poisoned(sizeof(reduce_t)), n, p};
    const char *why = reduce_launch(w.input_d, n, w.output_d, &w.p);
    if (why != NULL) {
        fprintf(stderr, "./run: cannot run N = %lld: %s\n", (long long)n, why);
        lab_dev_free(w.input_d), lab_dev_free(w.output_d), free(x);
        return LAB_EXIT_USAGE;
    }
    reduce_t got;
    lab_dev_download(&got, w.output_d, sizeof got);
    char detail[256] = "";
    const int pass = reduce_check(kind, got, &ref, reduce_tree_height(&w.p), detail, sizeof detail);
    /* the timed runs launch with what this run resolved (steps 1 and 2 work on their own leftovers: same work) */
    const lab_timing t = lab_time_device(launch, &w, o->reps);

    char params[192];
    int len = snprintf(params, sizeof params, "op=%s type=%s dist=%s block=%d grid=%d", reduce_op_name(kind.op),
                       reduce_type_name(kind.type), o->dist, w.p.block, w.p.grid);
    if (step >= 5)
        len += snprintf(params + len, sizeof params - (size_t)len, " coarsen=%d", w.p.coarsen);
    if (step >= 6)
        snprintf(params + len, sizeof params - (size_t)len, " variant=%s", variant_name(step, w.p.variant));
    const lab_result r = {lab_step_name, params, n, 4.0 * (double)n, t, pass};
    lab_print_result(o, &r);
    if (!pass && !o->csv) {
        if (!o->quiet)
            printf("  %s\n", detail);
        lab_print_todo_hint();
    }
    lab_dev_free(w.input_d), lab_dev_free(w.output_d), free(x);
    return pass ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

/* ---- --analyze: the book's counts, steps 1-3 ------------------------------ */

/* One summary line: what was measured, the book's formula with its value at
 * this N, and the number the book prints ("" when it prints none). */
static void row(const char *what, double measured, const char *formula, double formula_value, const char *printed)
{
    char m[32], f[32] = "";
    snprintf(m, sizeof m, measured == (double)(long long)measured ? "%.0f" : "%.3f", measured);
    if (formula[0] != '\0')
        snprintf(f, sizeof f, formula_value == (double)(long long)formula_value ? "= %.0f" : "= %.3f", formula_value);
    printf("    %-46s %8s   %-44s %-8s %s\n", what, m, formula, f, printed);
}

static int run_analyze(const lab_opts *o, int step, reduce_kind kind, int64_t n, reduce_params p)
{
    reduce_t *x = (reduce_t *)lab_xmalloc(sizeof(reduce_t) * (size_t)n);
    lab_rng rng = lab_rng_seeded(o->seed);
    if (reduce_make_input(o->dist, kind.type, &rng, x, n) != 0) {
        fprintf(stderr, "./run: unknown --dist %s (see ./run --help)\n", o->dist);
        free(x);
        return LAB_EXIT_USAGE;
    }
    reduce_ref_result ref;
    reduce_ref(kind, x, n, &ref);
    void *input_d = lab_dev_upload(x, sizeof(reduce_t) * (size_t)n), *output_d = lab_dev_poisoned(sizeof(reduce_t));
    reduce_counters *c = (reduce_counters *)calloc(1, sizeof *c);
    c->base = (unsigned long long)(uintptr_t)input_d;
    p.counters = (reduce_counters *)lab_dev_upload(c, sizeof *c);
    const char *why = reduce_launch(input_d, n, output_d, &p);
    if (why != NULL) {
        fprintf(stderr, "./run: cannot run N = %lld: %s\n", (long long)n, why);
        lab_dev_free(input_d), lab_dev_free(output_d), lab_dev_free(p.counters), free(c), free(x);
        return LAB_EXIT_USAGE;
    }
    reduce_t got;
    lab_dev_download(&got, output_d, sizeof got);
    lab_dev_download(c, p.counters, sizeof *c);
    char detail[256] = "";
    const int pass = reduce_check(kind, got, &ref, reduce_tree_height(&p), detail, sizeof detail);
    reduce_analysis a;
    reduce_analyze_counts(c, step, p.block, &a);

    static const char *const figs[] = {"", "Fig 10.6, the simple kernel", "Fig 10.9, the convergent kernel",
                                       "Fig 10.11, the shared-memory kernel"};
    const int warps = (p.block + 31) / 32;
    printf("%s %s (step %d), N = %lld: one block of %d threads (%d warp%s), %d time steps\n", pass ? "PASS" : "FAIL",
           figs[step], step, (long long)n, p.block, warps, warps > 1 ? "s" : "", a.steps);
    if (!pass) {
        printf("  %s\n", detail);
        lab_print_todo_hint();
    }
    printf("  time step  stride  warps active  of them divergent  threads active  global requests\n");
    for (int k = 0; k < a.steps; k++)
        printf("  %9d  %6d  %12d  %17d  %14d  %15d%s\n", k + 1, a.stride[k], a.warps[k], a.divergent[k], a.threads[k],
               a.requests[k], step == 3 && k == 0 ? "  (the loads from global memory)" : "");

    const double W = (double)n / 64.0; /* the book's N/64 warps */
    const int fits = n >= 64;          /* the formulas count whole warps */
    const int is256 = n == 256, is2048 = n == 2048;
    printf("    %-46s %8s   %-44s %-8s %s\n", "", "measured", "the book's formula, at this N", "",
           "the book prints (N = 256 / 2048)");
    if (!fits)
        printf("    (the book's formulas count N/64 whole warps: they need N >= 64)\n");
    if (step <= 2) {
        const double bw = step == 1 ? 5 * W + (W - 1) : (2 * W - 1) + 5;
        const double br = step == 1 ? 3 * (12 * W - 1) : 3 * (2 * W + 4);
        printf("  Section 10.4, minimizing control divergence\n");
        row("warps active, summed over time steps", (double)a.warp_steps,
            !fits ? "" : step == 1 ? "N/64*5 + N/64*1/2 + ... + 1" : "N/64 + N/64*1/2 + ... + 1 + 5*1", bw, "");
        row("execution resources consumed (x 32 lanes)", 32.0 * (double)a.warp_steps, fits ? "(the line above) x 32" : "",
            32 * bw, is256 ? (step == 1 ? "736" : "384") : "");
        row("results committed by active threads", (double)a.results,
            !fits ? "" : step == 1 ? "N/64*(32+16+8+4+2+1) + N/64*1/2 + .. + 1" : "as Fig 10.6's: N - 1", 64 * W - 1,
            is256 ? "255" : "");
        row("efficiency: committed / consumed", a.warp_steps ? (double)a.results / (32.0 * (double)a.warp_steps) : 0.0,
            fits ? "committed / consumed" : "", (64 * W - 1) / (32 * bw), is256 ? (step == 1 ? "0.35" : "66%") : "");
        row("time steps with a divergent warp", (double)a.divergent_steps, "", 0,
            step == 1 ? "\"ten\" (reduced to \"five\" by Fig 10.9)" : "\"five\"");
        printf("  Section 10.5, minimizing memory divergence (a request: one 128-byte segment a warp access touches)\n");
        row("global memory requests of the tree", (double)a.requests_tree,
            !fits ? "" : step == 1 ? "(N/64*5*2 + N/64*1 + N/64*1/2 + .. + 1)*3" : "((N/64 + N/64*1/2 + ... + 1) + 5)*3", br,
            is256 ? (step == 1 ? "141" : "36") : is2048 ? (step == 1 ? "1149" : "204") : "");
        row("then: thread 0 reads input[0], writes *output", (double)a.requests_out, "", 0, "(not counted by the book)");
        if (step == 2 && fits)
            printf("    Fig 10.6's (N/64*5*2 + ... + 1)*3 = %.0f at this N is %.1fx as many (printed: 3.9x at N = 256, 5.6x at 2048)\n",
                   3 * (12 * W - 1), 3 * (12 * W - 1) / (double)a.requests_tree);
        if (step == 1 && fits && (double)a.warp_steps != bw)
            printf("  The book's consumption formula counts five time steps in which all N/64 warps are active; strides\n"
                   "  1, 2, 4, 8, 16 and 32 make six (its committed-results and request formulas count six). So %.0f,\n"
                   "  not %.0f, and an efficiency of %.2f, not %.2f: see docs/errata.md (chapter 10).\n",
                   32.0 * (double)a.warp_steps, 32 * bw, (double)a.results / (32.0 * (double)a.warp_steps),
                   (64 * W - 1) / (32 * bw));
    } else {
        printf("  Section 10.4's counts for this kernel (the book gives none: its tree is Fig 10.9's)\n");
        row("warps active, summed over time steps", (double)a.warp_steps, fits ? "as Fig 10.9's: N/64 + ... + 1 + 5*1" : "",
            (2 * W - 1) + 5, "");
        row("results committed by active threads", (double)a.results, fits ? "N - 1" : "", 64 * W - 1, "");
        printf("  Section 10.6, minimizing global memory accesses\n");
        row("global memory requests: loads, *output", (double)(a.requests_tree + a.requests_out), fits ? "N/32 + 1" : "",
            (double)n / 32 + 1, is256 ? "9" : "");
        row("  of them the loads (coalesced)", (double)a.requests_tree, fits ? "N/32" : "", (double)n / 32, "");
    }
    printf("\n");
    lab_dev_free(input_d), lab_dev_free(output_d), lab_dev_free(p.counters), free(c), free(x);
    return pass ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

int main(int argc, char **argv)
{
    const int step = step_number();
    lab_opts o = lab_opts_defaults();
    o.nsizes = 0; /* 0 after parsing: no -n given, use the step's default */
    o.block = 1024;
    o.type = "float";
    o.dist = "digits";
    char extra[1400];
    snprintf(extra, sizeof extra,
             "Chapter 10 (this is step %d). Steps 1-3 run the book's single-block float sums: one block\n"
             "of N/2 threads, N a power of two up to 2 x --block (default N = 2 x --block = 2048).\n"
             "Steps 4-7 take any N (default 2^24), --op sum|max|min and --type int|float; --coarsen is\n"
             "Fig 10.15's COARSE_FACTOR (steps 5-7: 2 x coarsen elements per thread, default 8).\n"
             "--variant: step 6 v1|v2 (sumCommSingleWarp's two versions), step 7 syncwarp|shfl; without it\n"
             "steps 6 and 7 run both. --analyze (steps 1-3): the instrumented kernel's counts beside the\n"
             "book's formulas; without -n it runs the book's N = 256 and N = 2048.\n"
             "Distributions (--dist): digits (1..9, default) negative (-9..-1) mixed (+-1..9) uniform\n"
             "(floats in [-1,1), ints +-1..1000). Integer inputs must match exactly (float sums while\n"
             "sum |x| < 2^24); other float sums within a bound from N, the launch shape and the values.\n",
             step);
    lab_parse_opts(argc, argv, &o, lab_step_name, extra);
    reduce_kind kind;
    if (reduce_parse_kind(o.op, o.type, &kind) != 0) {
        fprintf(stderr, "./run: --op must be sum, max or min and --type int or float (got %s, %s)\n", o.op, o.type);
        return LAB_EXIT_USAGE;
    }
    int variants[2] = {0, 0}, nvariants = 1;
    if (step >= 6 && o.variant[0] == '\0')
        variants[0] = 1, variants[1] = 2, nvariants = 2;
    else if (o.variant[0] != '\0') {
        variants[0] = strcmp(o.variant, variant_name(step, 1)) == 0 ? 1 : strcmp(o.variant, variant_name(step, 2)) == 0 ? 2 : -1;
        if (variants[0] < 0) {
            fprintf(stderr, "./run: step %d has %s\n", step,
                    step == 6 ? "--variant v1 or v2" : step == 7 ? "--variant syncwarp or shfl" : "no --variant");
            return LAB_EXIT_USAGE;
        }
    }
    if (o.example) {
        fprintf(stderr, "./run: chapter 10 has no --example; --analyze (steps 1-3) replays the book's worked numbers\n");
        return LAB_EXIT_USAGE;
    }
    if (o.analyze && step > 3) {
        fprintf(stderr, "./run: --analyze counts the book's single-block kernels of sections 10.3-10.6: steps 1-3\n");
        return LAB_EXIT_USAGE;
    }
    if (o.nsizes == 0) {
        if (o.analyze)
            o.sizes[0] = 256, o.sizes[1] = 2048, o.nsizes = 2;
        else
            o.sizes[0] = step <= 3 ? 2 * (int64_t)o.block : (int64_t)1 << 24, o.nsizes = 1;
    }
    lab_require_gpu("./run");
    if (o.csv && !o.analyze && !o.quiet)
        printf("status,step,params,n,seed,median_ms,spread,GB_per_s,Gelem_per_s\n");
    int status = LAB_EXIT_PASS;
    for (int s = 0; s < o.nsizes; s++)
        for (int v = 0; v < nvariants; v++) {
            reduce_params p = {kind, o.block, o.grid, o.coarsen, variants[v], NULL, 0};
            const int rc = o.analyze ? run_analyze(&o, step, kind, o.sizes[s], p) : run_one(&o, step, kind, o.sizes[s], p);
            if (rc > status)
                status = rc;
            if (rc == LAB_EXIT_USAGE)
                return status;
        }
    return status;
}
