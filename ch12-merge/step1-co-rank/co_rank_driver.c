/* co_rank_driver.c - ./run for ch12 step 1: co-ranks of every output rank
 * k = 0..m+n on the GPU, checked against the stable merge on the CPU.
 * --example replays the book's co-rank walk (Figs 12.6-12.8) with the step's
 * own co_rank on the CPU (no GPU needed), then runs the kernel on it. It
 * serves this step alone, so it lives here, beside the co_rank.h it
 * includes: chapter 12's wing (common/ch12-merge/) never reaches into a step.
 * Throughout, `total` is m + n, the size -n gives; n is B's length only. */
#include <stdio.h>
#include <string.h>

/* --example prints each iteration of the host-side search (this file only). */
#define CO_RANK_TRACE(i, j, i_low, j_low, delta) \
    printf("      i=%d j=%d i_low=%d j_low=%d delta=%d\n", i, j, i_low, j_low, delta)
#include "co_rank.h"
#include "merge_host.h"
#include "merge_ref.h"
#include "report.h"

/* The book's example: A = 1,7,8,9,10; B = 7,10,10,12; three threads of three outputs. */
static int A_ex[] = {1, 7, 8, 9, 10}, B_ex[] = {7, 10, 10, 12};
static const merge_inputs book = {.m = 5, .n = 4, .tagged = MERGE_TAG_NONE, .A = A_ex, .B = B_ex};
enum { THREADS = 3, PER_THREAD = 3 };

/* The core's options into run, chapter 12's into c (their table: merge_options);
 * then every size checked against the step (merge_check_run), all before a GPU is looked for. */
static void parse_args(int argc, char **argv, lab_run *run, merge_cli *c)
{
    lab_opt opts[MERGE_NOPTS];
    const int nopts = merge_options(&merge_step_info, c, opts);
    lab_parse_step(argc, argv, &merge_step_info.lab, NULL, 0, opts, nopts, run);
    merge_check_run(&merge_step_info, c, run);
}

/* The walk on the CPU, through the step's own co_rank: 1 when every co-rank is right. */
static int host_walk(const int *k, const int *want)
{
    int ok = 1;
    printf("Book example (Figs 12.4-12.8): three threads, three outputs each.\n");
    lab_print_ints("A", book.A, (int)book.m);
    lab_print_ints("B", book.B, (int)book.n);
    for (int t = 0; t < THREADS; t++) {
        printf("thread %d: C[%d..%d]\n", t, k[t], k[t + 1] - 1);
        for (int e = 0; e < 2; e++) {
            const int kk = k[t + e];
            printf("    co_rank(k=%d): search iterations (Fig 12.5, on the CPU):\n", kk);
            const int i = co_rank(kk, book.A, (int)book.m, book.B, (int)book.n);
            printf("    -> i=%d j=%d (reference i=%d)%s\n", i, kk - i, want[kk], i == want[kk] ? "" : "  WRONG");
            ok &= i == want[kk];
        }
    }
    return ok;
}

/* The same ranks on the GPU, through co_rank_kernel: 1 when every co-rank is right, -1 when it cannot run. */
static int gpu_walk(const int *k, const int *want, const merge_params *p)
{
    int got[THREADS + 1], ok = 1;
    int *A_d = lab_dev_upload(book.A, sizeof A_ex, "A_d"), *B_d = lab_dev_upload(book.B, sizeof B_ex, "B_d");
    int *k_d = lab_dev_upload(k, sizeof got, "k_d"), *i_d = lab_dev_poisoned(sizeof got, "i_d");
    const char *why = co_rank_launch(A_d, book.m, B_d, book.n, k_d, i_d, THREADS + 1, p);
    if (why != NULL) {
        fprintf(stderr, "./run --example: cannot run: %s\n", why);
        ok = -1;
    } else {
        lab_dev_download(got, i_d, sizeof got);
        printf("GPU co_rank_kernel:\n");
        for (int t = 0; t <= THREADS; t++) {
            printf("  k=%d: i=%d j=%d %s%s\n", k[t], got[t], k[t] - got[t], got[t] == want[k[t]] ? "ok" : "WRONG",
                   lab_marker_meaning((uint32_t)got[t]));
            ok &= got[t] == want[k[t]];
        }
    }
    lab_dev_free(A_d), lab_dev_free(B_d), lab_dev_free(k_d), lab_dev_free(i_d);
    return ok;
}

/* The host walk runs without a GPU; the kernel's part says so when it cannot run. */
static int run_example(const merge_params *p)
{
    int k[THREADS + 1], want[10];
    char why[256];
    merge_co_rank_ref(&book, want);
    for (int t = 0; t <= THREADS; t++)
        k[t] = t * PER_THREAD < book.m + book.n ? t * PER_THREAD : (int)(book.m + book.n);
    const int host_ok = host_walk(k, want);
    printf("%s: your co_rank on the CPU\n", host_ok ? "PASS" : "FAIL");
    if (!lab_gpu_available(why, sizeof why)) {
        printf("./run: the GPU part was not run (co_rank_kernel): %s\n", why);
        if (!host_ok)
            lab_print_todo_hint();
        return host_ok ? LAB_EXIT_NOGPU : LAB_EXIT_FAIL;
    }
    const int gpu_ok = gpu_walk(k, want, p);
    if (gpu_ok < 0)
        return LAB_EXIT_USAGE;
    const int ok = host_ok & gpu_ok;
    printf("%s example\n", ok ? "PASS" : "FAIL");
    if (!ok)
        lab_print_todo_hint();
    return ok ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

typedef struct {
    const int *A_d, *B_d, *k_d;
    int *i_d;
    int64_t m, n, count;
    merge_params p;
} work;

static void launch(void *ctx)
{
    const work *w = (const work *)ctx;
    co_rank_launch(w->A_d, w->m, w->B_d, w->n, w->k_d, w->i_d, w->count, &w->p);
}

/* One size, m + n = total: co-ranks of every k = 0..total, checked and timed. Returns its exit status. */
static int run_size(const lab_run *run, const merge_cli *c, int64_t total)
{
    merge_inputs in;
    int64_t m = 0, n = 0;
    merge_split(c, total, &m, &n);
    merge_inputs_make(&in, c->dist, run->seed, m, n, 0, 0, MERGE_TAG_NONE);
    const int64_t count = total + 1;
    int *k = lab_xmalloc(sizeof(int) * (size_t)count), *want = lab_xmalloc(sizeof(int) * (size_t)count);
    int *got = lab_xmalloc(sizeof(int) * (size_t)count);
    for (int64_t t = 0; t < count; t++)
        k[t] = (int)t;
    merge_co_rank_ref(&in, want);

    work w = {.A_d = lab_dev_upload(in.A, sizeof(int) * (size_t)m, "A_d"),
              .B_d = lab_dev_upload(in.B, sizeof(int) * (size_t)n, "B_d"),
              .k_d = lab_dev_upload(k, sizeof(int) * (size_t)count, "k_d"),
              .i_d = lab_dev_poisoned(sizeof(int) * (size_t)count, "i_d"),
              .m = m,
              .n = n,
              .count = count,
              .p = c->p};
    const char *why = co_rank_launch(w.A_d, m, w.B_d, n, w.k_d, w.i_d, count, &w.p);
    int status = LAB_EXIT_USAGE;
    if (why != NULL)
        fprintf(stderr, "./run: cannot run: %s\n", why);
    else {
        lab_dev_download(got, w.i_d, sizeof(int) * (size_t)count);
        const lab_mismatch mm = lab_compare_i32(got, want, count, "co_rank of k, i", run->quiet || run->csv ? 0 : 10);
        const lab_timing t = lab_time_device(launch, &w, run->reps);
        char params[128];
        snprintf(params, sizeof params, "m=%lld n=%lld dist=%s block=%d", (long long)m, (long long)n, c->dist,
                 c->p.block);
        /* the k read and the i written; the searches' key reads are not counted */
        const lab_result res = {.step = lab_step_name,
                                .params = params,
                                .n = count,
                                .bytes = 8.0 * (double)count,
                                .time = t,
                                .pass = mm.count == 0};
        lab_print_result(run, &res);
        status = mm.count == 0 ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
    }
    lab_dev_free((void *)w.A_d), lab_dev_free((void *)w.B_d), lab_dev_free((void *)w.k_d), lab_dev_free(w.i_d);
    merge_inputs_free(&in);
    free(k), free(want), free(got);
    return status;
}

int main(int argc, char **argv)
{
    lab_run run;
    merge_cli c;
    parse_args(argc, argv, &run, &c);
    if (c.example)
        return run_example(&c.p);
    lab_require_gpu("./run");
    int status = LAB_EXIT_PASS;
    for (int z = 0; z < run.nsizes; z++) {
        const int rc = run_size(&run, &c, run.sizes[z]);
        if (rc == LAB_EXIT_USAGE) /* a size the step refuses: said, and nothing more runs */
            return rc;
        if (rc > status)
            status = rc;
    }
    if (status != LAB_EXIT_PASS && !run.csv)
        lab_print_todo_hint();
    return status;
}
