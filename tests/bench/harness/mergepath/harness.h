/* harness.h - what the files of tests/bench/harness/mergepath's GPU harness
 * share: a ladder build as the harness calls it (variant; the table is
 * harness.cu's), the merge's and the sort's work and times, and each file's
 * functions the others call: runs.cu (one build's timed, checked runs),
 * speed.cu (the full step beside CUB). */
#ifndef MP_HARNESS_H
#define MP_HARNESS_H

#include <string.h>

#include "merge_host.h"
#include "merge_ref.h"
#include "sort_host.h"
#include "timing.h"

#define REPS 20

typedef const char *(*merge_fn)(const merge_args *a, const merge_params *p);

typedef struct {
    const char *name;
    merge_fn merge;
    const merge_step *merge_info;
    const sort_step *sort_info; /* what sort_run runs */
} variant;

/* The ladder's builds, in harness.cu: variants[0] is the full step. */
extern const variant variants[];

typedef struct {
    merge_args a; /* C_values NULL: keys only */
    merge_params p;
    merge_fn merge;
    int *C_values; /* kept while a keys-only run borrows a */
    void *cub_temp;
    size_t cub_bytes;
} merge_work;

typedef struct {
    double ms_keys, ms_pairs;
    int ok;
} merge_times;

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

typedef struct {
    double ms_keys, ms_pairs;
    int ok;
} sort_times;

/* runs.cu: each build's merge and sort on inputs uploaded once, timed and checked */
merge_times time_merge(const variant *v, const merge_inputs *in, merge_work *w, int *C, int *C_values, int *ref_C,
                       int *ref_C_values, int *have_ref);
sort_times time_sort(const variant *v, const unsigned int *keys, sort_work *w, unsigned int *got, unsigned int *got_v,
                     unsigned int *ref, unsigned int *ref_v, int *have_ref);
void merge_inputs_upload(merge_work *w, merge_inputs *in, int64_t total, uint64_t seed);
void merge_inputs_release(merge_work *w, merge_inputs *in);
unsigned int *sort_inputs(sort_work *w, int64_t n, uint64_t seed);
void sort_inputs_free(sort_work *w);

/* speed.cu (built with CUB): a device copy, then the full step and CUB; nonzero when an output was wrong */
int run_speed(uint64_t seed);

#endif
