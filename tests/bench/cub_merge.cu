/* cub_merge.cu - chapter 12's baseline for `make bench`: cub::DeviceMerge::MergeKeys
 * of int keys, on the inputs ./run makes (merge_make_inputs, m = n = total/2
 * unless --m), timed like ./run. Checked in O(n): the output is sorted and
 * holds exactly A's and B's keys. Effective bytes: 8 per output element (A and
 * B read once, C written once), as merge_driver.c counts. */
#include <cub/device/device_merge.cuh>

#include "bench_tool.h"
#include "merge_ref.h"

typedef struct {
    void *temp;
    size_t temp_bytes;
    const int *A, *B;
    int *C;
    int64_t m, n;
} work;

static cudaError_t merge_cub(const work *w, void *temp, size_t &temp_bytes)
{
    return cub::DeviceMerge::MergeKeys(temp, temp_bytes, w->A, w->m, w->B, w->n, w->C);
}

static void launch(void *ctx)
{
    const work *w = (const work *)ctx;
    size_t bytes = w->temp_bytes;
    CUDA_CHECK(merge_cub(w, w->temp, bytes));
}

static int run_size(const lab_opts *o, int64_t total, const void *ctx)
{
    (void)ctx;
    bench_check_size(total);
    work w;
    memset(&w, 0, sizeof w);
    w.m = o->m >= 0 ? (o->m < total ? o->m : total) : total / 2;
    w.n = total - w.m;
    int *A = (int *)lab_xmalloc(sizeof(int) * (size_t)w.m), *B = (int *)lab_xmalloc(sizeof(int) * (size_t)w.n);
    int *C = (int *)lab_xmalloc(sizeof(int) * (size_t)total);
    lab_rng rng = lab_rng_seeded(o->seed);
    if (merge_make_inputs(o->dist, &rng, A, (int)w.m, B, (int)w.n, 0) != 0) {
        fprintf(stderr, "cub_merge: unknown --dist %s\n", o->dist);
        exit(LAB_EXIT_USAGE);
    }
    w.A = (const int *)lab_dev_upload(A, sizeof(int) * (size_t)w.m, "A");
    w.B = (const int *)lab_dev_upload(B, sizeof(int) * (size_t)w.n, "B");
    w.C = (int *)lab_dev_poisoned(sizeof(int) * (size_t)total, "C");
    CUDA_CHECK(merge_cub(&w, NULL, w.temp_bytes));
    w.temp = lab_dev_poisoned(w.temp_bytes, "CUB temp");
    launch(&w);
    lab_dev_download(C, w.C, sizeof(int) * (size_t)total);
    int64_t unsorted = -1;
    for (int64_t i = 1; i < total && unsorted < 0; i++)
        if (C[i] < C[i - 1])
            unsorted = i;
    const int same = bench_fingerprint_equal(bench_fingerprint_of(C, total),
                                             bench_fingerprint_add(bench_fingerprint_of(A, w.m), bench_fingerprint_of(B, w.n)));
    char why[128] = "";
    if (unsorted >= 0)
        snprintf(why, sizeof why, "C[%lld] < C[%lld]: not sorted", (long long)unsorted, (long long)unsorted - 1);
    else if (!same)
        snprintf(why, sizeof why, "C does not hold exactly the keys of A and B");
    const lab_timing t = lab_time_device(launch, &w, o->reps);
    char params[96];
    snprintf(params, sizeof params, "m=%lld n=%lld dist=%s", (long long)w.m, (long long)w.n, o->dist);
    bench_report(o, "cub::DeviceMerge", params, total, 8.0 * (double)total, t, why[0] == '\0', why);
    lab_dev_free((void *)w.A), lab_dev_free((void *)w.B), lab_dev_free(w.C), lab_dev_free(w.temp);
    free(A), free(B), free(C);
    return why[0] == '\0';
}

int main(int argc, char **argv)
{
    lab_opts o = lab_opts_defaults();
    lab_opt_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.options = LAB_OPT_M | LAB_OPT_DIST;
    spec.dists = merge_dists;
    spec.about = "cub::DeviceMerge::MergeKeys over -n totals (m = n = total/2 unless --m); --dist as ./run's.";
    return bench_main(argc, argv, &o, &spec, "cub_merge", run_size, NULL);
}
