/* runs.cu - one ladder build's merge and sort, timed and checked, for
 * tests/bench/harness/mergepath's GPU harness: the inputs uploaded once (the
 * lab's merge_ref.h and sort_ref.h), step 6's merge_launch and step 8 through
 * chapter 13's sort_run with the build's descriptor, each timed with the lab's
 * lab_time_device (L2 flushed, median of REPS); the first build's pairs are
 * checked in O(n), every later output compared with them. */
#include "harness.h"
#include "sortcheck.h"

/* ---- the merge: inputs with values (A[i] -> i + 1, B[j] -> m + j + 1) ------------- */

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

/* One variant's merge of the uploaded inputs: pairs, then keys alone. The
 * first variant's pairs are checked in O(n) and kept (ref_C, ref_C_values);
 * every later output must equal them, and keys alone the pairs' keys. */
merge_times time_merge(const variant *v, const merge_inputs *in, merge_work *w, int *C, int *C_values, int *ref_C,
                       int *ref_C_values, int *have_ref)
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

/* As time_merge: the first variant's pairs checked in O(n) and kept, the others compared with them. */
sort_times time_sort(const variant *v, const unsigned int *keys, sort_work *w, unsigned int *got, unsigned int *got_v,
                     unsigned int *ref, unsigned int *ref_v, int *have_ref)
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
unsigned int *sort_inputs(sort_work *w, int64_t n, uint64_t seed)
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

void sort_inputs_free(sort_work *w)
{
    lab_dev_free((void *)w->keys), lab_dev_free((void *)w->ikeys), lab_dev_free((void *)w->index);
    lab_dev_free(w->out), lab_dev_free(w->out_v), lab_dev_free(w->iout), lab_dev_free(w->temp);
}

void merge_inputs_upload(merge_work *w, merge_inputs *in, int64_t total, uint64_t seed)
{
    merge_inputs_make(in, "uniform", seed, total / 2, total - total / 2, 0, 1, MERGE_TAG_NONE);
    memset(w, 0, sizeof *w);
    w->p = variants[0].merge_info->defaults;
    w->a = merge_upload(in, merge_temp_bytes(variants[0].merge_info, in->m, in->n, &w->p));
    w->C_values = w->a.C_values;
}

void merge_inputs_release(merge_work *w, merge_inputs *in)
{
    w->a.C_values = w->C_values;
    merge_free(&w->a);
    merge_inputs_free(in);
}
