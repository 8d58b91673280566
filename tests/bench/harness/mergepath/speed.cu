/* speed.cu - tests/bench/harness/mergepath's speed mode (./harness --speed,
 * built with CUB): a device copy, then the full step and CUB in the same
 * process on the same inputs (merge at 2^20, 2^24, 2^28, sort at 2^20, 2^24,
 * 2^26, keys and pairs), CUB's keys compared with the step's checked output;
 * the table last. */
#include "harness.h"

#include <cub/device/device_merge.cuh>
#include <cub/device/device_merge_sort.cuh>

static void op_cub_merge(void *ctx)
{
    merge_work *w = (merge_work *)ctx; /* cub_temp NULL: sets cub_bytes, the temporaries' size */
    if (w->a.C_values == NULL)
        CUDA_CHECK(cub::DeviceMerge::MergeKeys(w->cub_temp, w->cub_bytes, w->a.A, w->a.m, w->a.B, w->a.n, w->a.C));
    else
        CUDA_CHECK(cub::DeviceMerge::MergePairs(w->cub_temp, w->cub_bytes, w->a.A, w->a.A_values, w->a.m, w->a.B,
                                                w->a.B_values, w->a.n, w->a.C, w->a.C_values));
}

struct int_less {
    __device__ bool operator()(int a, int b) const
    {
        return a < b;
    }
};

static void op_cub_sort(void *ctx)
{
    sort_work *w = (sort_work *)ctx; /* cub_temp NULL: sets cub_bytes */
    if (w->values == NULL)
        CUDA_CHECK(cub::DeviceMergeSort::SortKeysCopy(w->cub_temp, w->cub_bytes, w->ikeys, w->iout, w->n, int_less()));
    else
        CUDA_CHECK(cub::DeviceMergeSort::SortPairsCopy(w->cub_temp, w->cub_bytes, w->ikeys, w->values, w->iout,
                                                       w->out_v, w->n, int_less()));
}

static void op_copy(void *ctx)
{
    merge_work *w = (merge_work *)ctx;
    CUDA_CHECK(cudaMemcpyAsync(w->a.C, w->a.A, sizeof(int) * (size_t)w->a.m, cudaMemcpyDeviceToDevice, 0));
}

typedef struct {
    char what[32];
    double ms, cub_ms, bytes, target;
    int ok;
} speed;

/* The full step and CUB on the same inputs: merges of 2^log2n (keys, pairs). */
static void speed_merge(int log2n, uint64_t seed, speed *keys, speed *pairs)
{
    const int64_t total = (int64_t)1 << log2n;
    merge_inputs in;
    merge_work w;
    merge_inputs_upload(&w, &in, total, seed);
    const size_t mbytes = sizeof(int) * (size_t)total;
    int *C = (int *)lab_xmalloc(mbytes), *C_v = (int *)lab_xmalloc(mbytes), *C_keys = (int *)lab_xmalloc(mbytes);
    int *ref_C = (int *)lab_xmalloc(mbytes), *ref_C_v = (int *)lab_xmalloc(mbytes), have_ref = 0;
    const merge_times t = time_merge(&variants[0], &in, &w, C, C_v, ref_C, ref_C_v, &have_ref);
    for (int values = 0; values < 2; values++) {
        w.a.C_values = values ? w.C_values : NULL;
        w.cub_bytes = 0;
        w.cub_temp = NULL;
        op_cub_merge(&w); /* with cub_temp NULL: asks for the temporary bytes */
        w.cub_temp = lab_dev_poisoned(w.cub_bytes, "CUB temp");
        speed *s = values ? pairs : keys;
        s->cub_ms = lab_time_device(op_cub_merge, &w, REPS).median_ms;
        merge_download(&w.a, C_keys, NULL);
        s->ok = t.ok && memcmp(C_keys, ref_C, mbytes) == 0; /* CUB agrees on the keys */
        s->ms = values ? t.ms_pairs : t.ms_keys;
        s->bytes = (values ? 16.0 : 8.0) * (double)total;
        snprintf(s->what, sizeof s->what, "merge-%s-2^%d", values ? "pairs" : "keys", log2n);
        lab_dev_free(w.cub_temp);
    }
    merge_inputs_release(&w, &in);
    free(C), free(C_v), free(C_keys), free(ref_C), free(ref_C_v);
}

static void speed_sort(int log2n, uint64_t seed, speed *keys, speed *pairs)
{
    const int64_t n = (int64_t)1 << log2n;
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    sort_work w;
    unsigned int *want = sort_inputs(&w, n, seed);
    unsigned int *got = (unsigned int *)lab_xmalloc(bytes), *got_v = (unsigned int *)lab_xmalloc(bytes);
    unsigned int *got_keys = (unsigned int *)lab_xmalloc(bytes), *ref = (unsigned int *)lab_xmalloc(bytes);
    unsigned int *ref_v = (unsigned int *)lab_xmalloc(bytes);
    int have_ref = 0;
    const sort_times t = time_sort(&variants[0], want, &w, got, got_v, ref, ref_v, &have_ref);
    for (int values = 0; values < 2; values++) {
        w.values = values ? w.index : NULL;
        w.cub_bytes = 0;
        w.cub_temp = NULL;
        op_cub_sort(&w);
        w.cub_temp = lab_dev_poisoned(w.cub_bytes, "CUB temp");
        speed *s = values ? pairs : keys;
        s->cub_ms = lab_time_device(op_cub_sort, &w, REPS).median_ms;
        lab_dev_download(got_keys, w.iout, bytes);
        sort_encode_keys(got_keys, n, SORT_INT);
        s->ok = t.ok && memcmp(got_keys, ref, bytes) == 0; /* CUB agrees on the keys */
        s->ms = values ? t.ms_pairs : t.ms_keys;
        s->bytes = (values ? 16.0 : 8.0) * (double)n;
        snprintf(s->what, sizeof s->what, "sort-%s-2^%d", values ? "pairs" : "keys", log2n);
        lab_dev_free(w.cub_temp);
    }
    sort_inputs_free(&w);
    free(want), free(got), free(got_v), free(got_keys), free(ref), free(ref_v);
}

int run_speed(uint64_t seed)
{
    const int64_t words = (int64_t)1 << 28;
    merge_work c;
    memset(&c, 0, sizeof c);
    c.a.m = words;
    c.a.A = (const int *)lab_dev_poisoned(sizeof(int) * (size_t)words, "copy in");
    c.a.C = (int *)lab_dev_poisoned(sizeof(int) * (size_t)words, "copy out");
    const double copy_gbs = 8.0 * (double)words / lab_time_device(op_copy, &c, REPS).median_ms / 1e6;
    lab_dev_free((void *)c.a.A), lab_dev_free(c.a.C);
    printf("COPY device-to-device 2^28 words: %.1f GB/s (read + written)\n", copy_gbs);
    speed s[12];
    memset(s, 0, sizeof s);
    const int merges[] = {20, 24, 28}, sorts[] = {20, 24, 26};
    for (int k = 0; k < 3; k++) {
        speed_merge(merges[k], seed + k, &s[2 * k], &s[2 * k + 1]);
        speed_sort(sorts[k], seed + 10 + k, &s[6 + 2 * k], &s[6 + 2 * k + 1]);
    }
    s[0].target = s[2].target = 0.90, s[4].target = 0.95, s[10].target = s[11].target = 0.85;
    int wrong = 0;
    printf("\n==== speed, the full step against CUB (GB/s: 8 bytes per output or key, 16 per pair) ====\n");
    printf("%-18s %9s %9s %9s %9s %7s %7s\n", "op", "ours ms", "GB/s", "cub ms", "GB/s", "ratio", "target");
    const int order[] = {0, 2, 4, 1, 3, 5, 6, 8, 10, 7, 9, 11};
    for (int k = 0; k < 12; k++) {
        const speed *p = &s[order[k]];
        const double ratio = p->cub_ms / p->ms;
        printf("%-18s %9.4f %9.1f %9.4f %9.1f %7.3f %7s%s\n", p->what, p->ms, p->bytes / p->ms / 1e6, p->cub_ms,
               p->bytes / p->cub_ms / 1e6, ratio, p->target > 0 ? (ratio >= p->target ? "met" : "MISSED") : "-",
               p->ok ? "" : "  WRONG");
        wrong |= !p->ok;
    }
    printf("%-18s %9s %9.1f\n", "copy d2d 2^28", "", copy_gbs);
    return wrong;
}
