/* cub_merge.cu - chapter 12's baseline for `make bench`: cub::DeviceMerge::MergeKeys
 * of int keys (--variant pairs: MergePairs, values A[i] -> i + 1, B[j] ->
 * m + j + 1, as ./run's), on the inputs ./run makes (merge_make_inputs, m = n =
 * total/2 unless --m), timed like ./run. Checked in O(n): the output is sorted
 * and holds exactly A's and B's keys; with values, each value names an input
 * holding the key beside it, and equal keys' values rise (stable). Effective
 * bytes: 8 per output element (A and B read once, C written once), 16 with
 * values, as merge_driver.c counts. */
#include <cub/device/device_merge.cuh>

#include "bench_tool.h"
#include "merge_ref.h"

/* The tool's own options (its --m, --dist, --variant). */
typedef struct {
    int64_t m; /* -1: half of the total */
    const char *dist, *variant;
} args;

typedef struct {
    void *temp;
    size_t temp_bytes;
    const int *A, *B, *A_values, *B_values; /* values NULL: keys only */
    int *C, *C_values;
    int64_t m, n;
} work;

static cudaError_t merge_cub(const work *w, void *temp, size_t &temp_bytes)
{
    if (w->C_values != NULL)
        return cub::DeviceMerge::MergePairs(temp, temp_bytes, w->A, w->A_values, w->m, w->B, w->B_values, w->n, w->C,
                                            w->C_values);
    return cub::DeviceMerge::MergeKeys(temp, temp_bytes, w->A, w->m, w->B, w->n, w->C);
}

/* The first k where C_values is not the stable merge's (each value names the
 * input holding C[k]; equal keys' values rise), or -1. */
static int64_t values_wrong_at(const int *A, int64_t m, const int *B, const int *C, const int *C_values, int64_t total)
{
    for (int64_t k = 0; k < total; k++) {
        const int64_t v = C_values[k];
        if (v < 1 || v > total || C[k] != (v <= m ? A[v - 1] : B[v - 1 - m]))
            return k;
        if (k > 0 && C[k] == C[k - 1] && v <= C_values[k - 1])
            return k;
    }
    return -1;
}

static void launch(void *ctx)
{
    const work *w = (const work *)ctx;
    size_t bytes = w->temp_bytes;
    CUDA_CHECK(merge_cub(w, w->temp, bytes));
}

static int run_size(const lab_run *run, int64_t total, const void *ctx)
{
    const args *a = (const args *)ctx;
    bench_check_size(total);
    const int pairs = strcmp(a->variant, "pairs") == 0;
    work w;
    memset(&w, 0, sizeof w);
    w.m = a->m >= 0 ? (a->m < total ? a->m : total) : total / 2;
    w.n = total - w.m;
    int *A = (int *)lab_xmalloc(sizeof(int) * (size_t)w.m), *B = (int *)lab_xmalloc(sizeof(int) * (size_t)w.n);
    int *C = (int *)lab_xmalloc(sizeof(int) * (size_t)total);
    int *values = pairs ? (int *)lab_xmalloc(sizeof(int) * (size_t)total) : NULL; /* A's values, then B's */
    lab_rng rng = lab_rng_seeded(run->seed);
    if (merge_make_inputs(a->dist, &rng, A, (int)w.m, B, (int)w.n, 0) != 0) {
        fprintf(stderr, "cub_merge: unknown --dist %s\n", a->dist);
        exit(LAB_EXIT_USAGE);
    }
    w.A = (const int *)lab_dev_upload(A, sizeof(int) * (size_t)w.m, "A");
    w.B = (const int *)lab_dev_upload(B, sizeof(int) * (size_t)w.n, "B");
    w.C = (int *)lab_dev_poisoned(sizeof(int) * (size_t)total, "C");
    if (pairs) {
        for (int64_t i = 0; i < total; i++)
            values[i] = (int)(i + 1);
        w.A_values = (const int *)lab_dev_upload(values, sizeof(int) * (size_t)w.m, "A_values");
        w.B_values = (const int *)lab_dev_upload(values + w.m, sizeof(int) * (size_t)w.n, "B_values");
        w.C_values = (int *)lab_dev_poisoned(sizeof(int) * (size_t)total, "C_values");
    }
    CUDA_CHECK(merge_cub(&w, NULL, w.temp_bytes));
    w.temp = lab_dev_poisoned(w.temp_bytes, "CUB temp");
    launch(&w);
    lab_dev_download(C, w.C, sizeof(int) * (size_t)total);
    if (pairs)
        lab_dev_download(values, w.C_values, sizeof(int) * (size_t)total);
    int64_t unsorted = -1;
    for (int64_t i = 1; i < total && unsorted < 0; i++)
        if (C[i] < C[i - 1])
            unsorted = i;
    const int same =
        bench_fingerprint_equal(bench_fingerprint_of(C, total),
                                bench_fingerprint_add(bench_fingerprint_of(A, w.m), bench_fingerprint_of(B, w.n)));
    char why[128] = "";
    if (unsorted >= 0)
        snprintf(why, sizeof why, "C[%lld] < C[%lld]: not sorted", (long long)unsorted, (long long)unsorted - 1);
    else if (!same)
        snprintf(why, sizeof why, "C does not hold exactly the keys of A and B");
    else if (pairs && (unsorted = values_wrong_at(A, w.m, B, C, values, total)) >= 0)
        snprintf(why, sizeof why, "C_values[%lld] is not the stable merge's", (long long)unsorted);
    const lab_timing t = lab_time_device(launch, &w, run->reps);
    char params[96];
    /* the keys row's params stay m, n and dist: every merge step's keys row holds them (sweeps.conf's vs) */
    snprintf(params, sizeof params, "m=%lld n=%lld dist=%s%s", (long long)w.m, (long long)w.n, a->dist,
             pairs ? " pairs" : "");
    bench_report(run, pairs ? "cub::DeviceMerge::MergePairs" : "cub::DeviceMerge", params, total,
                 (pairs ? 16.0 : 8.0) * (double)total, t, why[0] == '\0', why);
    lab_dev_free((void *)w.A), lab_dev_free((void *)w.B), lab_dev_free(w.C), lab_dev_free(w.temp);
    lab_dev_free((void *)w.A_values), lab_dev_free((void *)w.B_values), lab_dev_free(w.C_values);
    free(A), free(B), free(C), free(values);
    return why[0] == '\0';
}

int main(int argc, char **argv)
{
    static const char *const variants[] = {"keys", "pairs", NULL};
    args a = {.m = -1, .dist = "uniform", .variant = "keys"};
    const lab_opt opts[] = {
        {.name = "--m",
         .kind = LAB_ARG_SIZE,
         .at = &a.m,
         .lo = 0,
         .metavar = "M",
         .help = "elements of A (-1: half of -n)"},
        {.name = "--dist",
         .kind = LAB_ARG_NAME,
         .at = &a.dist,
         .names = merge_dists,
         .metavar = "D",
         .help = "input distribution"},
        {.name = "--variant",
         .kind = LAB_ARG_NAME,
         .at = &a.variant,
         .names = variants,
         .metavar = "V",
         .help = "the CUB call"},
    };
    return bench_main(argc, argv, "cub_merge",
                      "cub::DeviceMerge::MergeKeys over -n totals (m = n = total/2 unless --m); --dist as ./run's;\n"
                      "--variant pairs: MergePairs, with ./run's values (A[i] -> i + 1, B[j] -> m + j + 1).",
                      opts, (int)(sizeof opts / sizeof opts[0]), run_size, &a);
}
