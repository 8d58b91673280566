/* harness.cu - tests/bench/harness/mergepath on the GPU: the ladder of ch12 step 6's and
 * ch13 step 8's ideas, and their speed beside CUB. It links the steps' own
 * solutions/ch12-merge/step6-merge-path/merge.cu and
 * solutions/ch13-sort/step8-merge-sort-path/sort.cu, built once per ladder
 * variant (ladder.cuh's switches; the Makefile renames each build's launcher,
 * descriptors and kernels with the variant's suffix), and runs them as ./run
 * does: step 6's merge_launch, and step 8 through chapter 13's sort_run with
 * that build's descriptor (sort_step_info_<variant>), on the lab's inputs
 * (merge_ref.h, sort_ref.h), timed with the lab's lab_time_device (L2
 * flushed, median). Every variant runs on the same inputs in one process.
 *
 *   ./ladder [--only NAME,...]   merge keys and pairs at 2^27 + 2^27 int keys,
 *                                merge sort keys and pairs at 2^26 int keys,
 *                                for each variant; every output checked; a
 *                                LADDER line each, then the table
 *   ./harness --speed            (built with CUB) a device copy, then the step
 *                                and CUB in the same process: merge at 2^20,
 *                                2^24, 2^28, sort at 2^20, 2^24, 2^26, keys and
 *                                pairs; the summary table last
 *   --seed S                     the inputs' seed (default 1213)
 * Exit 1 when an output is wrong, 3 when there is no GPU. */
#include <string.h>

#include "merge_host.h"
#include "merge_ref.h"
#include "sort_host.h"
#include "sortcheck.h"
#include "timing.h"

#ifdef MP_WITH_CUB
#include <cub/device/device_merge.cuh>
#include <cub/device/device_merge_sort.cuh>
#endif

#define REPS 20

/* The ladder's builds (the Makefile's VARIANTS, in the same order): each
 * idea taken out alone, then the ideas added one at a time from none. Step 8
 * has no launcher of its own (its passes run in sort_run's loop): a build's
 * sort is its descriptor. */
#define MP_VARIANTS(X)                                                                                                \
    X(full, "full")                                                                                                   \
    X(no_partition, "no-partition")                                                                                   \
    X(no_staging, "no-staging")                                                                                       \
    X(no_registers, "no-registers")                                                                                   \
    X(no_vector_stores, "no-vector-stores")                                                                           \
    X(book, "none")                                                                                                   \
    X(partition, "+partition")                                                                                        \
    X(partition_staging, "+staging")

typedef const char *(*merge_fn)(const merge_args *a, const merge_params *p);

#define DECLARE_VARIANT(v, name)                                                                                      \
    LAB_BEGIN_C                                                                                                       \
    const char *merge_launch_##v(const merge_args *a, const merge_params *p);                                         \
    extern const merge_step merge_step_info_##v;                                                                      \
    extern const sort_step sort_step_info_##v;                                                                        \
    LAB_END_C
MP_VARIANTS(DECLARE_VARIANT)

typedef struct {
    const char *name;
    merge_fn merge;
    const merge_step *merge_info;
    const sort_step *sort_info; /* what sort_run runs */
} variant;

#define VARIANT_ROW(v, name) {name, merge_launch_##v, &merge_step_info_##v, &sort_step_info_##v},
static const variant variants[] = {MP_VARIANTS(VARIANT_ROW)};
#define NVARIANTS (int)(sizeof variants / sizeof variants[0])

/* ---- the merge: inputs with values (A[i] -> i + 1, B[j] -> m + j + 1) ------------- */

typedef struct {
    merge_args a; /* C_values NULL: keys only */
    merge_params p;
    merge_fn merge;
    int *C_values; /* kept while a keys-only run borrows a */
    void *cub_temp;
    size_t cub_bytes;
} merge_work;

static void op_merge(void *ctx)
{
    merge_work *w = (merge_work *)ctx;
    const char *why = w->merge(&w->a, &w->p);
    if (why != NULL) {
        fprintf(stderr, "merge_launch refused: %s\n", why);
        exit(1);
    }
}

/* O(n), no reference needed: C and C_values are the stable merge of in
 * exactly when every value names an input holding the key beside it, the
 * keys never fall, and equal keys' values rise. -1, or the first wrong k. */
static int64_t merge_pairs_wrong_at(const merge_inputs *in, const int *C, const int *C_values)
{
    const int64_t total = in->m + in->n;
    for (int64_t k = 0; k < total; k++) {
        const int64_t v = C_values[k];
        if (v < 1 || v > total || C[k] != (v <= in->m ? in->A[v - 1] : in->B[v - 1 - in->m]))
            return k;
        if (k > 0 && (!merge_key_le(in, C[k - 1], C[k]) || (merge_key_le(in, C[k], C[k - 1]) && v <= C_values[k - 1])))
            return k;
    }
    return -1;
}

typedef struct {
    double ms_keys, ms_pairs;
    int ok;
} merge_times;

/* One variant's merge of the uploaded inputs: pairs, then keys alone. The
 * first variant's pairs are checked in O(n) and kept (ref_C, ref_C_values);
 * every later output must equal them, and keys alone the pairs' keys. */
static merge_times time_merge(const variant *v, const merge_inputs *in, merge_work *w, int *C, int *C_values,
                              int *ref_C, int *ref_C_values, int *have_ref)
{
    const size_t bytes = sizeof(int) * (size_t)(in->m + in->n);
    merge_times t = {0, 0, 1};
    w->merge = v->merge;
    w->a.C_values = w->C_values;
    t.ms_pairs = lab_time_device(op_merge, w, REPS).median_ms;
    merge_download(&w->a, C, C_values);
    if (!*have_ref) {
        const int64_t at = merge_pairs_wrong_at(in, C, C_values);
        if (at >= 0)
            printf("FAIL %s: merge pairs: C[%lld] wrong\n", v->name, (long long)at), t.ok = 0;
        memcpy(ref_C, C, bytes), memcpy(ref_C_values, C_values, bytes);
        *have_ref = t.ok;
    } else if (memcmp(C, ref_C, bytes) != 0 || memcmp(C_values, ref_C_values, bytes) != 0) {
        printf("FAIL %s: merge pairs differ from the checked merge\n", v->name), t.ok = 0;
    }
    w->a.C_values = NULL;
    t.ms_keys = lab_time_device(op_merge, w, REPS).median_ms;
    merge_download(&w->a, C, NULL);
    if (memcmp(C, ref_C, bytes) != 0)
        printf("FAIL %s: merge keys differ from the checked merge's keys\n", v->name), t.ok = 0;
    lab_poison_device(w->a.C, bytes); /* the next variant starts from poison again */
    lab_poison_device(w->C_values, bytes);
    return t;
}

/* ---- the sort: int keys through the transform, values = input index ------------------ */

typedef struct {
    const unsigned int *keys, *values; /* values NULL: keys only */
    const unsigned int *index;        /* kept while a keys-only run borrows values */
    const int *ikeys;                 /* CUB's view: the int keys */
    unsigned int *out, *out_v;
    int *iout;
    int64_t n;
    sort_params p;
    const sort_step *step; /* the build whose sort runs */
    void *temp, *cub_temp;
    size_t cub_bytes;
} sort_work;

static void op_sort(void *ctx)
{
    sort_work *w = (sort_work *)ctx;
    const char *why =
        sort_run(w->step, w->keys, w->values, w->out, w->values != NULL ? w->out_v : NULL, w->n, w->temp, &w->p);
    if (why != NULL) {
        fprintf(stderr, "sort_run refused: %s\n", why);
        exit(1);
    }
}

typedef struct {
    double ms_keys, ms_pairs;
    int ok;
} sort_times;

/* As time_merge: the first variant's pairs checked in O(n) and kept, the others compared with them. */
static sort_times time_sort(const variant *v, const unsigned int *keys, sort_work *w, unsigned int *got,
                            unsigned int *got_v, unsigned int *ref, unsigned int *ref_v, int *have_ref)
{
    const size_t bytes = sizeof(unsigned int) * (size_t)w->n;
    sort_times t = {0, 0, 1};
    w->step = v->sort_info;
    w->values = w->index;
    t.ms_pairs = lab_time_device(op_sort, w, REPS).median_ms;
    lab_dev_download(got, w->out, bytes), lab_dev_download(got_v, w->out_v, bytes);
    if (!*have_ref) {
        const int64_t at = sort_pairs_wrong_at(keys, w->n, got, got_v);
        if (at >= 0)
            printf("FAIL %s: sort pairs: out[%lld] wrong\n", v->name, (long long)at), t.ok = 0;
        memcpy(ref, got, bytes), memcpy(ref_v, got_v, bytes);
        *have_ref = t.ok;
    } else if (memcmp(got, ref, bytes) != 0 || memcmp(got_v, ref_v, bytes) != 0) {
        printf("FAIL %s: sort pairs differ from the checked sort\n", v->name), t.ok = 0;
    }
    w->values = NULL;
    t.ms_keys = lab_time_device(op_sort, w, REPS).median_ms;
    lab_dev_download(got, w->out, bytes);
    if (memcmp(got, ref, bytes) != 0)
        printf("FAIL %s: sort keys differ from the checked sort's keys\n", v->name), t.ok = 0;
    lab_poison_device(w->out, bytes), lab_poison_device(w->out_v, bytes);
    return t;
}

/* Device buffers of n int keys (uniform) as the step sorts them (encoded) and as CUB does (raw). */
static unsigned int *sort_inputs(sort_work *w, int64_t n, uint64_t seed)
{
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    unsigned int *raw = (unsigned int *)lab_xmalloc(bytes), *keys = (unsigned int *)lab_xmalloc(bytes);
    unsigned int *index = (unsigned int *)lab_xmalloc(bytes);
    lab_rng rng = lab_rng_seeded(seed);
    sort_make_keys("uniform", &rng, raw, n, SORT_INT); /* the ints' bits */
    memcpy(keys, raw, bytes);
    sort_encode_keys(keys, n, SORT_INT);
    for (int64_t i = 0; i < n; i++)
        index[i] = (unsigned int)i;
    memset(w, 0, sizeof *w);
    w->n = n, w->p = variants[0].sort_info->defaults, w->p.type = SORT_INT;
    w->keys = (const unsigned int *)lab_dev_upload(keys, bytes, "keys");
    w->ikeys = (const int *)lab_dev_upload(raw, bytes, "int keys");
    w->index = (const unsigned int *)lab_dev_upload(index, bytes, "values");
    w->out = (unsigned int *)lab_dev_poisoned(bytes, "keys_out");
    w->out_v = (unsigned int *)lab_dev_poisoned(bytes, "values_out");
    w->iout = (int *)lab_dev_poisoned(bytes, "CUB keys_out");
    w->temp = lab_dev_poisoned(sort_temp_bytes(variants[0].sort_info, n, 1, &w->p), "temp_d");
    free(raw), free(index);
    return keys; /* the encoded keys, for the checks */
}

static void sort_inputs_free(sort_work *w)
{
    lab_dev_free((void *)w->keys), lab_dev_free((void *)w->ikeys), lab_dev_free((void *)w->index);
    lab_dev_free(w->out), lab_dev_free(w->out_v), lab_dev_free(w->iout), lab_dev_free(w->temp);
}

static void merge_inputs_upload(merge_work *w, merge_inputs *in, int64_t total, uint64_t seed)
{
    merge_inputs_make(in, "uniform", seed, total / 2, total - total / 2, 0, 1, MERGE_TAG_NONE);
    memset(w, 0, sizeof *w);
    w->p = variants[0].merge_info->defaults;
    w->a = merge_upload(in, merge_temp_bytes(variants[0].merge_info, in->m, in->n, &w->p));
    w->C_values = w->a.C_values;
}

static void merge_inputs_release(merge_work *w, merge_inputs *in)
{
    w->a.C_values = w->C_values;
    merge_free(&w->a);
    merge_inputs_free(in);
}

/* ---- the ladder -------------------------------------------------------------------- */

static int run_ladder(const char *only, uint64_t seed)
{
    const int64_t total = (int64_t)1 << 28, ns = (int64_t)1 << 26;
    merge_times mt[16];
    sort_times st[16];
    int run[16], wrong = 0;
    for (int k = 0; k < NVARIANTS; k++) {
        char list[256];
        snprintf(list, sizeof list, ",%s,", only != NULL ? only : "");
        char item[64];
        snprintf(item, sizeof item, ",%s,", variants[k].name);
        run[k] = only == NULL || strstr(list, item) != NULL;
    }
    merge_inputs in;
    merge_work mw;
    merge_inputs_upload(&mw, &in, total, seed);
    const size_t mbytes = sizeof(int) * (size_t)total;
    int *C = (int *)lab_xmalloc(mbytes), *C_v = (int *)lab_xmalloc(mbytes);
    int *ref_C = (int *)lab_xmalloc(mbytes), *ref_C_v = (int *)lab_xmalloc(mbytes);
    int have_ref = 0;
    for (int k = 0; k < NVARIANTS; k++)
        if (run[k]) {
            mt[k] = time_merge(&variants[k], &in, &mw, C, C_v, ref_C, ref_C_v, &have_ref);
            wrong |= !mt[k].ok;
            printf("merge %-18s keys %7.4f ms, pairs %7.4f ms%s\n", variants[k].name, mt[k].ms_keys, mt[k].ms_pairs,
                   mt[k].ok ? "" : "  WRONG OUTPUT");
            fflush(stdout);
        }
    merge_inputs_release(&mw, &in);
    free(C), free(C_v), free(ref_C), free(ref_C_v);

    sort_work sw;
    unsigned int *keys = sort_inputs(&sw, ns, seed + 1);
    const size_t sbytes = sizeof(unsigned int) * (size_t)ns;
    unsigned int *got = (unsigned int *)lab_xmalloc(sbytes), *got_v = (unsigned int *)lab_xmalloc(sbytes);
    unsigned int *ref = (unsigned int *)lab_xmalloc(sbytes), *ref_v = (unsigned int *)lab_xmalloc(sbytes);
    have_ref = 0;
    for (int k = 0; k < NVARIANTS; k++)
        if (run[k]) {
            st[k] = time_sort(&variants[k], keys, &sw, got, got_v, ref, ref_v, &have_ref);
            wrong |= !st[k].ok;
            printf("LADDER %-18s merge-keys %7.4f ms %6.0f GB/s | merge-pairs %7.4f ms %6.0f GB/s | sort-keys %7.4f ms "
                   "%6.3f Gkeys/s | sort-pairs %7.4f ms %6.3f Gkeys/s%s\n",
                   variants[k].name, mt[k].ms_keys, 8.0 * (double)total / mt[k].ms_keys / 1e6, mt[k].ms_pairs,
                   16.0 * (double)total / mt[k].ms_pairs / 1e6, st[k].ms_keys, (double)ns / st[k].ms_keys / 1e6,
                   st[k].ms_pairs, (double)ns / st[k].ms_pairs / 1e6, mt[k].ok && st[k].ok ? "" : "  WRONG OUTPUT");
            fflush(stdout);
        }
    sort_inputs_free(&sw);
    free(keys), free(got), free(got_v), free(ref), free(ref_v);

    printf("\n==== ladder (merge: 2^27 + 2^27 int keys, GB/s = 8 bytes per output, 16 per pair; sort: 2^26 int "
           "keys) ====\n");
    printf("%-18s %12s %12s %12s %12s %9s %9s\n", "build", "merge keys", "merge pairs", "sort keys", "sort pairs",
           "vs full", "(keys)");
    printf("%-18s %12s %12s %12s %12s %9s %9s\n", "", "GB/s", "GB/s", "ms", "ms", "merge", "sort");
    for (int k = 0; k < NVARIANTS; k++)
        if (run[k])
            printf("%-18s %12.0f %12.0f %12.3f %12.3f %9.3f %9.3f%s\n", variants[k].name,
                   8.0 * (double)total / mt[k].ms_keys / 1e6, 16.0 * (double)total / mt[k].ms_pairs / 1e6,
                   st[k].ms_keys, st[k].ms_pairs, run[0] ? mt[0].ms_keys / mt[k].ms_keys : 0.0,
                   run[0] ? st[0].ms_keys / st[k].ms_keys : 0.0, mt[k].ok && st[k].ok ? "" : "  WRONG OUTPUT");
    printf("(vs full: the full step's time / this build's, keys only; below 1: the idea taken out was worth that)\n");
    return wrong;
}

/* ---- the speed beside CUB (the full step) ------------------------------------------- */

#ifdef MP_WITH_CUB
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

static int run_speed(uint64_t seed)
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
#endif

int main(int argc, char **argv)
{
    uint64_t seed = 1213;
    const char *only = NULL;
    int speed_mode = 0;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--only") == 0 && a + 1 < argc)
            only = argv[++a];
        else if (strcmp(argv[a], "--speed") == 0)
            speed_mode = 1;
        else if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--only NAME,...] [--speed] [--seed S]\n", argv[0]);
            return 2;
        }
    }
    lab_require_gpu("harness");
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("harness: %s; tile %d (MP_THREADS x MP_ITEMS); seed %llu\n", prop.name, variants[0].merge_info->defaults.tile,
           (unsigned long long)seed);
    fflush(stdout);
    if (!speed_mode)
        return run_ladder(only, seed) ? 1 : 0;
#ifdef MP_WITH_CUB
    return run_speed(seed) ? 1 : 0;
#else
    fprintf(stderr, "harness: --speed needs the build with CUB (make harness)\n");
    return 2;
#endif
}
