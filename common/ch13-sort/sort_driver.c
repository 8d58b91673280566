/* sort_driver.c - ./run for every ch13 step: sorts fresh (key, value) pairs on
 * the GPU, the value of each key being its input index, and checks keys and
 * values against the stable CPU reference, so a tie broken the wrong way
 * shows; then times the sort (device work only: the workspace is allocated
 * once, outside the timing). --type int|float sorts through the
 * order-preserving transform (sort_ref.h). Everything about the step (its
 * defaults, options, limits, workspace, example) it asks of the step's
 * descriptor, sort_step_info (sort.h), and it sorts through sort_run
 * (sort_host.h). --example replays Figs 13.1-13.3 one
 * iteration at a time in a step that can run one alone (step 1; its rows
 * come from the CPU reference when no GPU is visible), and sorts Fig 13.1's
 * keys whole in the others. */
#include <stdio.h>
#include <string.h>

#include "devmem.h"
#include "report.h"
#include "scan.h"
#include "sort_host.h"
#include "step.h"

#define STEP         (&sort_step_info)
#define BOOK_N       16
#define DEFAULT_REPS 20 /* timed runs when --reps is not given */

static const unsigned int book_keys[BOOK_N] = {12, 3, 6, 9, 15, 8, 5, 10, 9, 6, 11, 13, 4, 10, 7, 0};

static void print_row(const char *name, const unsigned int *x, int n, int binary)
{
    printf("  %-12s", name);
    for (int i = 0; i < n; i++) {
        if (x[i] == LAB_POISON_WORD) /* nothing was written there */
            printf("    ?");
        else if (binary)
            printf(" %u%u%u%u", (x[i] >> 3) & 1, (x[i] >> 2) & 1, (x[i] >> 1) & 1, x[i] & 1);
        else
            printf(" %4u", x[i]);
    }
    printf("\n");
}

/* ---- Figs 13.1-13.3: one iteration at a time --------------------------------- */

/* One iteration's rows, as Fig 13.3 draws them. */
typedef struct {
    unsigned int key[BOOK_N], bit[BOOK_N], ones_before[BOOK_N + 1], dest[BOOK_N], out[BOOK_N];
} example_rows;

static const unsigned int book_index[BOOK_N] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* The rows of iteration `iter` over keys, from the CPU reference. */
static void rows_from_cpu(const unsigned int *keys, unsigned int iter, example_rows *r)
{
    memcpy(r->key, keys, sizeof r->key);
    sort_ref_radix_iter(keys, BOOK_N, iter, r->ones_before, r->dest);
    for (int i = 0; i < BOOK_N; i++) {
        r->bit[i] = (keys[i] >> iter) & 1;
        r->out[r->dest[i]] = keys[i];
    }
}

/* The same rows from the step's kernels: ones before from the scanned bits
 * array, each key's destination from where its value (its index) landed. */
static const char *rows_from_gpu(const unsigned int *keys, unsigned int iter, const sort_params *p, example_rows *r)
{
    unsigned int *k_d = (unsigned int *)lab_dev_upload(keys, sizeof r->key, "keys_in");
    unsigned int *v_d = (unsigned int *)lab_dev_upload(book_index, sizeof book_index, "values_in");
    unsigned int *ok_d = (unsigned int *)lab_dev_poisoned(sizeof r->out, "keys_out");
    unsigned int *ov_d = (unsigned int *)lab_dev_poisoned(sizeof r->out, "values_out");
    unsigned int *bits_d = (unsigned int *)lab_dev_poisoned(sizeof r->ones_before, "bits");
    void *scan_temp = lab_dev_poisoned(scan_temp_bytes(BOOK_N), "scan_temp");
    unsigned int landed[BOOK_N];
    const char *why = STEP->iter_launch(k_d, v_d, ok_d, ov_d, bits_d, BOOK_N, iter, scan_temp, p);
    if (why == NULL) {
        lab_dev_download(r->ones_before, bits_d, sizeof r->ones_before);
        lab_dev_download(r->out, ok_d, sizeof r->out);
        lab_dev_download(landed, ov_d, sizeof landed);
        memcpy(r->key, keys, sizeof r->key);
        for (int i = 0; i < BOOK_N; i++) {
            r->bit[i] = r->ones_before[i + 1] - r->ones_before[i]; /* the scan's steps are the bits */
            r->dest[i] = LAB_POISON_WORD;
        }
        for (int d = 0; d < BOOK_N; d++)
            if (landed[d] < BOOK_N)
                r->dest[landed[d]] = (unsigned int)d;
    }
    lab_dev_free(k_d), lab_dev_free(v_d), lab_dev_free(ok_d), lab_dev_free(ov_d), lab_dev_free(bits_d);
    lab_dev_free(scan_temp);
    return why;
}

static void print_rows(unsigned int iter, const example_rows *r)
{
    printf("iteration %u (bit %u):\n", iter, iter);
    print_row("index", book_index, BOOK_N, 0);
    print_row("key", r->key, BOOK_N, 1);
    print_row("bit", r->bit, BOOK_N, 0);
    print_row("ones before", r->ones_before, BOOK_N, 0);
    print_row("destination", r->dest, BOOK_N, 0);
    printf("  ones in total (bits[N]) = %u\n", r->ones_before[BOOK_N]);
}

/* "  WRONG destinations (expected): key i -> d ..." where the GPU's differ; 1 if none do. */
static int same_destinations(const example_rows *got, const example_rows *want)
{
    int wrong = 0;
    for (int i = 0; i < BOOK_N; i++)
        if (got->dest[i] != want->dest[i])
            printf("%s key %d -> %u", wrong++ == 0 ? "  WRONG destinations (expected):" : "", i, want->dest[i]);
    if (wrong > 0)
        printf("\n");
    return wrong == 0;
}

/* Sixteen 4-bit keys, four iterations with four blocks of four threads, each
 * iteration reading the last one's output. With no GPU visible the rows come
 * from the CPU reference, and ./run says the kernels were not run (exit 3). */
static int run_example_iterations(const sort_params *given)
{
    sort_params p = *given;
    p.block = 4;
    char no_gpu[256];
    const int gpu = lab_gpu_available(no_gpu, sizeof no_gpu);
    unsigned int keys[BOOK_N], sorted[BOOK_N];
    memcpy(keys, book_keys, sizeof keys);
    printf("Book example (Figs 13.1-13.3): sixteen 4-bit keys, one bit per iteration, four blocks of four threads%s.\n",
           p.printed ? ", destination of a one as printed (--printed)" : "");
    int ok = 1;
    for (unsigned int iter = 0; iter < 4; iter++) {
        example_rows want, got;
        rows_from_cpu(keys, iter, &want);
        if (gpu) {
            const char *why = rows_from_gpu(keys, iter, &p, &got);
            if (why != NULL) {
                fprintf(stderr, "./run: cannot run the example: %s\n", why);
                return LAB_EXIT_USAGE;
            }
        }
        const example_rows *shown = gpu ? &got : &want;
        print_rows(iter, shown);
        ok &= same_destinations(shown, &want);
        print_row("output", shown->out, BOOK_N, 1);
        memcpy(keys, shown->out, sizeof keys); /* the next iteration reads this one's output */
    }
    memcpy(sorted, book_keys, sizeof sorted);
    sort_ref(sorted, NULL, BOOK_N);
    ok &= memcmp(sorted, keys, sizeof keys) == 0;
    print_row("sorted", keys, BOOK_N, 0);
    if (!gpu) {
        printf("These rows are the CPU reference's (sort_ref_radix_iter in common/ch13-sort/sort_ref.c, the fixed "
               "formula%s).\n",
               p.printed ? "; --printed needs the GPU" : "");
        lab_require_gpu("./run"); /* says the kernels were not run, and why: exit 3 */
    }
    printf("%s example\n", ok ? "PASS" : "FAIL");
    if (!ok)
        lab_print_todo_hint();
    return ok ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

/* ---- the other steps: Fig 13.1's sixteen keys sorted whole -------------------- */

static int run_example_sort(const sort_params *p)
{
    unsigned int want_k[BOOK_N], want_v[BOOK_N], got_k[BOOK_N], got_v[BOOK_N];
    memcpy(want_k, book_keys, sizeof want_k);
    memcpy(want_v, book_index, sizeof want_v);
    sort_ref(want_k, want_v, BOOK_N);
    printf("Book example (Fig 13.1's sixteen keys), sorted whole by this step; values are input indices.\n");
    unsigned int *k_d = (unsigned int *)lab_dev_upload(book_keys, sizeof book_keys, "keys_in");
    unsigned int *v_d = (unsigned int *)lab_dev_upload(book_index, sizeof book_index, "values_in");
    unsigned int *ok_d = (unsigned int *)lab_dev_poisoned(sizeof got_k, "keys_out");
    unsigned int *ov_d = (unsigned int *)lab_dev_poisoned(sizeof got_v, "values_out");
    void *temp = lab_dev_poisoned(sort_temp_bytes(STEP, BOOK_N, 1, p), "temp_d (the workspace)");
    const char *why = sort_run(STEP, k_d, v_d, ok_d, ov_d, BOOK_N, temp, p);
    if (why != NULL) {
        fprintf(stderr, "./run: cannot run the example: %s\n", why);
        return LAB_EXIT_USAGE;
    }
    lab_dev_download(got_k, ok_d, sizeof got_k);
    lab_dev_download(got_v, ov_d, sizeof got_v);
    print_row("input", book_keys, BOOK_N, 0);
    print_row("keys", got_k, BOOK_N, 0);
    print_row("values", got_v, BOOK_N, 0);
    print_row("expected", want_k, BOOK_N, 0);
    print_row("values", want_v, BOOK_N, 0);
    const int ok = memcmp(got_k, want_k, sizeof got_k) == 0 && memcmp(got_v, want_v, sizeof got_v) == 0;
    lab_dev_free(k_d), lab_dev_free(v_d), lab_dev_free(ok_d), lab_dev_free(ov_d), lab_dev_free(temp);
    printf("%s example\n", ok ? "PASS" : "FAIL");
    if (!ok)
        lab_print_todo_hint();
    return ok ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

/* ---- a sort of n keys, checked and timed ---------------------------------------- */

typedef struct {
    const unsigned int *keys_in, *values_in;
    unsigned int *keys_out, *values_out;
    int64_t n;
    void *temp;
    const sort_params *p;
} work;

static void launch(void *ctx)
{
    const work *w = (const work *)ctx;
    sort_run(STEP, w->keys_in, w->values_in, w->keys_out, w->values_out, w->n, w->temp, w->p);
}

/* The input keys (as the step sorts them: encoded), their indices as
 * values, and the stable reference's result, in the type's own bits. */
typedef struct {
    unsigned int *keys, *index, *want_k, *want_v;
} inputs;

static inputs make_inputs(const lab_run *run, const sort_cli *a, int64_t n, sort_type type)
{
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    inputs in = {.keys = (unsigned int *)lab_xmalloc(bytes),
                 .index = (unsigned int *)lab_xmalloc(bytes),
                 .want_k = (unsigned int *)lab_xmalloc(bytes),
                 .want_v = (unsigned int *)lab_xmalloc(bytes)};
    lab_rng rng = lab_rng_seeded(run->seed);
    sort_make_keys(a->dist, &rng, in.keys, n, type); /* the type's own bits */
    for (int64_t i = 0; i < n; i++)
        in.index[i] = in.want_v[i] = (unsigned int)i;
    sort_encode_keys(in.keys, n, type);
    memcpy(in.want_k, in.keys, bytes);
    sort_ref(in.want_k, in.want_v, n);
    sort_decode_keys(in.want_k, n, type);
    return in;
}

/* Every key and value against the reference, and the order as the type's own;
 * prints what is wrong (unless quiet). 1 when the sort is right. */
static int check_output(const lab_run *run, int64_t n, sort_type type, const unsigned int *got_k,
                        const unsigned int *got_v, const inputs *in)
{
    const int report = run->quiet || run->csv ? 0 : 10;
    const lab_mismatch mk = lab_compare_u32(got_k, in->want_k, n, "key", report);
    const lab_mismatch mv = got_v != NULL ? lab_compare_u32(got_v, in->want_v, n, "value (input index)", report)
                                          : (lab_mismatch){.count = 0, .first = -1};
    int64_t where = -1;
    const int ordered = sort_is_ordered(got_k, n, type, &where);
    if (!ordered && report)
        printf("  keys out of order (as %s) at %lld\n", sort_type_name(type), (long long)where);
    if (mk.count == 0 && mv.count != 0 && report)
        printf("  keys right, values wrong: equal keys left their input order (the sort is not stable)\n");
    return mk.count == 0 && mv.count == 0 && ordered;
}

static int run_size(const lab_run *run, const sort_cli *a, int64_t n)
{
    const sort_params *p = &a->p;
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    const int with_values = !a->keys_only;
    const sort_type type = p->type;
    inputs in = make_inputs(run, a, n, type);
    unsigned int *got_k = (unsigned int *)lab_xmalloc(bytes), *got_v = (unsigned int *)lab_xmalloc(bytes);
    work w = {.keys_in = (const unsigned int *)lab_dev_upload(in.keys, bytes, "keys_in"),
              .values_in = with_values ? (const unsigned int *)lab_dev_upload(in.index, bytes, "values_in") : NULL,
              .keys_out = (unsigned int *)lab_dev_poisoned(bytes, "keys_out"),
              .values_out = with_values ? (unsigned int *)lab_dev_poisoned(bytes, "values_out") : NULL,
              .n = n,
              .temp = lab_dev_poisoned(sort_temp_bytes(STEP, n, with_values, p), "temp_d (the workspace)"),
              .p = p};
    const char *why = sort_run(STEP, w.keys_in, w.values_in, w.keys_out, w.values_out, n, w.temp, p);
    if (why != NULL) {
        fprintf(stderr, "./run: cannot run n=%lld: %s\n", (long long)n, why);
        exit(LAB_EXIT_USAGE);
    }
    lab_dev_download(got_k, w.keys_out, bytes);
    if (with_values)
        lab_dev_download(got_v, w.values_out, bytes);
    sort_decode_keys(got_k, n, type);
    const int pass = check_output(run, n, type, got_k, with_values ? got_v : NULL, &in);
    const lab_timing t = lab_time_device(launch, &w, run->reps);

    char params[256];
    STEP->describe(p, params, sizeof params);
    const size_t at = strlen(params);
    snprintf(params + at, sizeof params - at, " dist=%s type=%s %s", a->dist, a->type, with_values ? "pairs" : "keys");
    /* the least a sort moves: read and write every key (and value) once */
    const lab_result r = {.step = lab_step_name,
                          .params = params,
                          .n = n,
                          .bytes = 2.0 * (with_values ? 2 : 1) * (double)bytes,
                          .time = t,
                          .pass = pass};
    lab_print_result(run, &r);
    if (!pass && !run->csv)
        lab_print_todo_hint();
    lab_dev_free((void *)w.keys_in), lab_dev_free(w.keys_out), lab_dev_free(w.temp);
    lab_dev_free((void *)w.values_in), lab_dev_free(w.values_out);
    free(in.keys), free(in.index), free(in.want_k), free(in.want_v), free(got_k), free(got_v);
    return pass;
}

/* ---- options: the step's own, checked before the GPU is looked for -------------- */

/* The chapter's paragraph of --help, after the step's own. */
static const char chapter_help[] = "This step sorts n (key, value) pairs, value = the key's input index, and checks\n"
                                   "keys and values against a stable CPU sort (so stability is checked too); --type\n"
                                   "int or float sorts through the order-preserving transform (sort_ref.h).\n";

/* The run's options into *run and *c: the chapter's options the step takes
 * (STEP->takes; their table: sort_options) point straight at c; the others
 * are refused by name. Then every value and each size is checked (exit 2). */
static void parse_args(int argc, char **argv, lab_run *run, sort_cli *c)
{
    lab_opt opts[SORT_NOPTS];
    const int nopts = sort_options(STEP, c, opts);
    sort_params *p = &c->p;
    lab_step lab = STEP->lab;
    lab.sets_default_n = 1; /* the default -n stays within the limit of the parameters (below) */
    lab_parse_step(argc, argv, &lab, chapter_help, DEFAULT_REPS, opts, nopts, run);
    p->type = (sort_type)sort_type_of(c->type);
    if (!run->given_n) { /* no -n: the step's default, within its limit for these parameters */
        const int64_t most = sort_max_n(STEP, p);
        run->sizes[0] = STEP->lab.default_n < most ? STEP->lab.default_n : most;
    }
    lab_list_sizes(run);
    const char *why = sort_check(STEP, 0, p); /* the parameters alone, then with each size */
    if (why != NULL) {
        fprintf(stderr, "%s: %s (./run --help lists this step's options)\n", lab_step_name, why);
        exit(LAB_EXIT_USAGE);
    }
    for (int s = 0; s < run->nsizes; s++)
        if ((why = sort_check(STEP, run->sizes[s], p)) != NULL) {
            fprintf(stderr, "%s: -n %lld: %s (./run --help)\n", lab_step_name, (long long)run->sizes[s], why);
            exit(LAB_EXIT_USAGE);
        }
}

int main(int argc, char **argv)
{
    lab_run run;
    sort_cli c;
    parse_args(argc, argv, &run, &c);
    if (c.example && STEP->iter_launch != NULL)
        return run_example_iterations(&c.p);
    lab_require_gpu("./run");
    if (c.example)
        return run_example_sort(&c.p);
    int all_pass = 1;
    for (int s = 0; s < run.nsizes; s++)
        all_pass &= run_size(&run, &c, run.sizes[s]);
    return all_pass ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}
