/* reduce_analysis.c - ch10: the book's analysis of its single-block
 * kernels (--analyze) and the --example picture. On the CPU (CI): the
 * tables' formulas give the numbers the book prints, and the picture is
 * drawn from the kernel's records. On the GPU, for the steps' own files
 * (tests/ch10-reduction/<step>.c): the counting launch and the counts and
 * picture it must give. Part of chapter 10's suite
 * (tests/ch10-reduction/reduce.c), linked with it into every step's test
 * binary. */
#include <string.h>

#include "reduce_test.h"

/* ---- CPU: the book's analysis and the --example picture --------------------------- */

/* The book's printed number at this N, parsed ("66%" is 0.66); -1 when it prints none. */
static double printed_at(const reduce_book_row *row, int64_t n)
{
    const char *t = n == 256 ? row->at_256 : row->at_2048;
    if (t == NULL || t[0] < '0' || t[0] > '9')
        return -1.0;
    return strchr(t, '%') != NULL ? atof(t) / 100.0 : atof(t);
}

/* Where the book prints a number and gives a formula, the formula gives it (to
 * the printed digits): the table holds what the book says. (Fig 10.6's 736
 * agrees with its formula, not with the kernel: errata E10.1.) */
Test(reduce_host, the_books_formulas_give_the_numbers_it_prints)
{
    int compared = 0;
    for (int i = 0; i < reduce_book_nrows; i++) {
        const reduce_book_row *row = &reduce_book_rows[i];
        for (int64_t n = 256; n <= 2048; n *= 8) {
            const double printed = printed_at(row, n);
            if (row->formula_at == NULL || printed < 0)
                continue;
            const double f = row->formula_at((double)n), tolerance = printed < 1.0 ? 0.005 : 0.5;
            cr_assert(fabs(f - printed) <= tolerance, "%s, %s at N = %lld: the formula gives %g, the book prints %g",
                      row->book->figure, row->label, (long long)n, f, printed);
            compared++;
        }
    }
    cr_assert_eq(compared, 11, "the tables hold the printed numbers of sections 10.4-10.6");
}

/* Fig 10.7 on 8 elements, recorded by hand as the kernel would: thread t owns
 * element 2t; in the time step with stride s, threads t % s == 0 add 2t + s. */
Test(reduce_host, the_picture_is_drawn_from_the_records)
{
    reduce_counters *c = calloc(1, sizeof *c);
    for (int slot = 0; slot < 3; slot++)
        for (int t = 0; t < 4; t++)
            if (t % (1 << slot) == 0) {
                c->lanes[slot][0] |= 1u << t;
                c->element[slot][t][0] = 1 + 2 * t, c->element[slot][t][2] = 1 + 2 * t;
                c->element[slot][t][1] = 1 + 2 * t + (1 << slot);
            }
    int owner[8];
    reduce_picture_step rows[REDUCE_SLOTS];
    cr_assert_eq(reduce_example_picture(c, 1, 8, owner, rows), 3);
    const char *const elements[] = {"#+#+#+#+", "# + # + ", "#   +   "}, *const threads[] = {"####", "#.#.", "#..."};
    for (int k = 0; k < 3; k++) {
        cr_assert_str_eq(rows[k].elements, elements[k], "time step %d", k + 1);
        cr_assert_str_eq(rows[k].threads, threads[k], "time step %d", k + 1);
        cr_assert_eq(rows[k].stride, 1 << k);
        cr_assert_str_eq(rows[k].from, "input");
    }
    cr_assert(owner[0] == 0 && owner[1] == -1 && owner[2] == 1 && owner[6] == 3);
    free(c);
}

/* ---- GPU, for the steps' own files: --analyze and --example ------------------------- */

void reduce_test_counts(int64_t n, reduce_counters *c, reduce_analysis *a)
{
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * (size_t)n);
    lab_rng rng = lab_rng_seeded(lab_test_seed(0));
    reduce_make_input("digits", REDUCE_FLOAT, &rng, x, n);
    void *in_d = lab_dev_upload(x, sizeof(reduce_t) * (size_t)n, "input_d");
    void *out_d = lab_dev_poisoned(sizeof(reduce_t), "output_d");
    memset(c, 0, sizeof *c);
    c->base = (unsigned long long)(uintptr_t)in_d;
    reduce_params p = {
        .kind = float_sum, .block = 1024, .coarsen = 1, .counters = lab_dev_upload(c, sizeof *c, "counters_d")};
    cr_assert_null(reduce_launch(in_d, n, out_d, &p));
    lab_test_finish(LAB_LAUNCH_DEADLINE, "the counting launch (--analyze)");
    lab_dev_download(c, p.counters, sizeof *c);
    reduce_analyze_counts(c, STEP->book->strides_double, p.block, a);
    lab_dev_free(in_d), lab_dev_free(out_d), lab_dev_free(p.counters), free(x);
}

void reduce_test_expect_counts(int64_t n, long long warp_steps, long long results, long long requests, long long out,
                               long long divergent_steps)
{
    reduce_counters *c = calloc(1, sizeof *c);
    reduce_analysis a;
    reduce_test_counts(n, c, &a);
    cr_assert(a.warp_steps == warp_steps && a.results == results && a.requests_tree == requests &&
                  a.requests_out == out && a.divergent_steps == divergent_steps,
              "%s, N = %lld, --analyze counts: warps active %lld (want %lld), results %lld (want %lld), requests %lld "
              "(want %lld), after the tree %lld (want %lld), divergent steps %lld (want %lld)%s",
              lab_step_name, (long long)n, a.warp_steps, warp_steps, a.results, results, a.requests_tree, requests,
              a.requests_out, out, a.divergent_steps, divergent_steps, lab_todo_note());
    free(c);
}

void reduce_test_expect_picture(int64_t n, const char *const *elements, const char *const *threads, int steps)
{
    reduce_counters *c = calloc(1, sizeof *c);
    reduce_analysis a;
    reduce_test_counts(n, c, &a);
    int owner[REDUCE_EXAMPLE_MAX_N];
    reduce_picture_step rows[REDUCE_SLOTS];
    const int got = reduce_example_picture(c, STEP->book->strides_double, n, owner, rows);
    cr_assert_eq(got, steps, "%s, N = %lld: %d time steps, want %d", lab_step_name, (long long)n, got, steps);
    for (int k = 0; k < steps; k++)
        cr_assert(strcmp(rows[k].elements, elements[k]) == 0 && strcmp(rows[k].threads, threads[k]) == 0,
                  "%s, --example at N = %lld, time step %d: elements '%s' threads '%s', %s draws '%s' and '%s'%s",
                  lab_step_name, (long long)n, k + 1, rows[k].elements, rows[k].threads, STEP->book->picture,
                  elements[k], threads[k], lab_todo_note());
    free(c);
}
