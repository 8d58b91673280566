/* co_rank_driver.c - ./run for ch12 step 1: co-ranks of every output rank
 * k = 0..m+n on the GPU, checked against the stable merge on the CPU;
 * --example replays the book's co-rank walk (Figs 12.6-12.8). */
#include <stdio.h>
#include <string.h>

/* --example prints each iteration of the host-side search (this file only). */
#define CO_RANK_TRACE(i, j, i_low, j_low, delta) \
    printf("      i=%d j=%d i_low=%d j_low=%d delta=%d\n", i, j, i_low, j_low, delta)
#include "co_rank.h"
#include "devmem.h"
#include "merge_ref.h"
#include "options.h"
#include "report.h"

/* The book's example: A = 1,7,8,9,10; B = 7,10,10,12; three threads of three outputs. */
static int run_example(int block)
{
    const int A[] = {1, 7, 8, 9, 10}, B[] = {7, 10, 10, 12};
    const int m = 5, n = 4, threads = 3, per_thread = 3;
    int k[4], want[10], got[4];
    printf("Book example (Figs 12.4-12.8): three threads, three outputs each.\n");
    lab_print_ints("A", A, m);
    lab_print_ints("B", B, n);
    merge_co_rank_ref(A, m, B, n, want);
    for (int t = 0; t <= threads; t++)
        k[t] = t * per_thread < m + n ? t * per_thread : m + n;
    for (int t = 0; t < threads; t++) {
        printf("thread %d: C[%d..%d]\n", t, k[t], k[t + 1] - 1);
        for (int e = 0; e < 2; e++) {
            const int kk = k[t + e];
            printf("    co_rank(k=%d): search iterations (Fig 12.5, host copy):\n", kk);
            const int i = co_rank(kk, A, m, B, n);
            printf("    -> i=%d j=%d (reference i=%d)\n", i, kk - i, want[kk]);
        }
    }
    int *A_d = (int *)lab_dev_upload(A, sizeof A), *B_d = (int *)lab_dev_upload(B, sizeof B);
    int *k_d = (int *)lab_dev_upload(k, sizeof k), *i_d = (int *)lab_dev_poisoned(sizeof got);
    const char *why = co_rank_launch(A_d, m, B_d, n, k_d, i_d, threads + 1, block);
    if (why != NULL) {
        fprintf(stderr, "cannot run: %s\n", why);
        return LAB_EXIT_USAGE;
    }
    lab_dev_download(got, i_d, sizeof got);
    int ok = 1;
    printf("GPU co_rank_kernel for k =");
    for (int t = 0; t <= threads; t++)
        printf(" %d", k[t]);
    printf(":\n");
    for (int t = 0; t <= threads; t++) {
        printf("  k=%d: i=%d j=%d %s\n", k[t], got[t], k[t] - got[t], got[t] == want[k[t]] ? "ok" : "WRONG");
        ok &= got[t] == want[k[t]];
    }
    lab_dev_free(A_d), lab_dev_free(B_d), lab_dev_free(k_d), lab_dev_free(i_d);
    printf("%s example\n", ok ? "PASS" : "FAIL");
    if (!ok)
        lab_print_todo_hint();
    return ok ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

typedef struct {
    const int *A_d, *B_d, *k_d;
    int *i_d;
    int m, n, count, block;
} work;

static void launch(void *ctx)
{
    const work *w = (const work *)ctx;
    co_rank_launch(w->A_d, w->m, w->B_d, w->n, w->k_d, w->i_d, w->count, w->block);
}

/* One size: co-ranks of every k = 0..m+n, checked and timed. Returns 1 on PASS. */
static int run_size(const lab_opts *o, int64_t total)
{
    const int64_t m64 = o->m >= 0 ? (o->m < total ? o->m : total) : total / 2;
    if (total + 1 > MERGE_MAX_TOTAL) {
        fprintf(stderr, "./run: size %lld is over the int limit 2^31 - 2 (indices are int, as in the book)\n",
                (long long)total);
        exit(LAB_EXIT_USAGE);
    }
    const int m = (int)m64, n = (int)(total - m64), count = (int)total + 1;
    lab_rng rng = lab_rng_seeded(o->seed);
    int *A = (int *)lab_xmalloc(sizeof(int) * (size_t)m), *B = (int *)lab_xmalloc(sizeof(int) * (size_t)n);
    int *k = (int *)lab_xmalloc(sizeof(int) * (size_t)count);
    int *want = (int *)lab_xmalloc(sizeof(int) * (size_t)count), *got = (int *)lab_xmalloc(sizeof(int) * (size_t)count);
    if (merge_make_inputs(o->dist, &rng, A, m, B, n, 0) != 0) {
        fprintf(stderr, "./run: unknown --dist %s (try ./run --help)\n", o->dist);
        exit(LAB_EXIT_USAGE);
    }
    for (int t = 0; t < count; t++)
        k[t] = t;
    merge_co_rank_ref(A, m, B, n, want);

    work w = {(const int *)lab_dev_upload(A, sizeof(int) * (size_t)m), (const int *)lab_dev_upload(B, sizeof(int) * (size_t)n),
              (const int *)lab_dev_upload(k, sizeof(int) * (size_t)count), (int *)lab_dev_poisoned(sizeof(int) * (size_t)count),
              m, n, count, o->block};
    const char *why = co_rank_launch(w.A_d, m, w.B_d, n, w.k_d, w.i_d, count, o->block);
    if (why != NULL) {
        fprintf(stderr, "./run: cannot run: %s\n", why);
        exit(LAB_EXIT_USAGE);
    }
    lab_dev_download(got, w.i_d, sizeof(int) * (size_t)count);
    const lab_mismatch mm = lab_compare_i32(got, want, count, "co_rank of k, i", o->quiet || o->csv ? 0 : 10);
    const lab_timing t = lab_time_device(launch, &w, o->reps);

    char params[128];
    snprintf(params, sizeof params, "m=%d n=%d dist=%s block=%d", m, n, o->dist, o->block);
    /* the k read and the i written; the searches' key reads are not counted */
    const lab_result r = {lab_step_name, params, count, 8.0 * count, t, mm.count == 0};
    lab_print_result(o, &r);
    lab_dev_free((void *)w.A_d), lab_dev_free((void *)w.B_d), lab_dev_free((void *)w.k_d), lab_dev_free(w.i_d);
    free(A), free(B), free(k), free(want), free(got);
    return mm.count == 0;
}

int main(int argc, char **argv)
{
    lab_opts o = lab_opts_defaults();
    lab_parse_opts(argc, argv, &o, lab_step_name,
                   "This step computes the co-rank of every output rank k = 0..m+n (m = --m, default\n"
                   "half of --size). Distributions (--dist): uniform equal a-below a-above interleaved dups.\n"
                   "--example replays the book's co-rank walk (Figs 12.6-12.8).\n");
    lab_require_gpu("./run");
    if (o.example)
        return run_example(o.block);
    int all_pass = 1;
    for (int s = 0; s < o.nsizes; s++)
        all_pass &= run_size(&o, o.sizes[s]);
    if (!all_pass && !o.csv)
        lab_print_todo_hint();
    return all_pass ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}
