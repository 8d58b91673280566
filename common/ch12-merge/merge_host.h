/* merge_host.h - the host side every chapter-12 step shares, driven by what
 * the step declares in its descriptor (merge.h): the parameter checks (pure
 * host: ./run runs them before it looks for a GPU), the workspace laid out
 * from the step's needs, what each launcher does before its kernel, ./run's
 * options turned into a merge, and the device buffers of one merge. */
#ifndef LAB_MERGE_HOST_H
#define LAB_MERGE_HOST_H

#include "devmem.h"
#include "launch.h"
#include "merge.h"

LAB_BEGIN_C

/* NULL when step s can merge m + n keys (floats when is_float, with values
 * when with_values) with p, else why not, with the allowed range: --block
 * (s->block_need), m + n up to s->spec.max_n, the key type (s->spec.types) and
 * values (s->takes_values), --coarsen and --grid where the step takes them,
 * then the step's own check. No GPU needed. */
const char *merge_check(const merge_step *s, int64_t m, int64_t n, int is_float, int with_values,
                        const merge_params *p);

/* The grid of a launch: p->grid, or ceil(total / (block * coarsen)) when it is 0. */
int merge_grid(int64_t total, const merge_params *p);

/* The workspace, laid out in temp from what the step declares; a part the
 * step does not need is NULL. */
typedef struct {
    int *tile_co_ranks; /* tile_co_ranks: the co-rank of output rank t * tile, t = 0..ntiles */
    int ntiles;         /* ceil((m + n) / tile) */
} merge_ws;

/* The bytes of device workspace step s needs for m + n keys (0 when none, or
 * when the parameters are refused). */
size_t merge_temp_bytes(const merge_step *s, int64_t m, int64_t n, const merge_params *p);

/* What every launcher does before its kernel: merge_check, then `kernel`
 * against the GPU with p->block threads and `shared` bytes of dynamic shared
 * memory (lab_fit_kernel), then the workspace laid out in a->temp. NULL when
 * it can launch; *grid is then merge_grid's, or 0 when there is nothing to merge. */
const char *merge_prepare(const merge_step *s, const merge_args *a, const merge_params *p, const void *kernel,
                          size_t shared, int *grid, merge_ws *ws);

/* ./run's options as one merge: the step's defaults, the parsed options, and
 * what they mean for the merge. */
typedef struct {
    lab_opts o;
    merge_params p;  /* --block, --grid, --tile, --coarsen; --printed sets the step's printed bits */
    int is_float;    /* --type float */
    int with_values; /* the step takes values and --keys-only was not given */
} merge_run;

/* Parses argv for step s (whose name is `step`) into *r, starting from the
 * step's defaults, then runs merge_check for every size: anything the step
 * refuses is one line on stderr and exit 2, before any GPU is looked for. */
void merge_parse_run(merge_run *r, const merge_step *s, int argc, char **argv, const char *step);

/* Runs run_size(r, n) for each size of -n: LAB_EXIT_PASS when all pass, else
 * LAB_EXIT_FAIL after the TODOs still open (lab_print_todo_hint). */
int merge_run_sizes(const merge_run *r, int (*run_size)(const merge_run *r, int64_t total));

/* m and n of a run of `total` elements: --m (at most total), or half of it. */
void merge_split(const lab_opts *o, int64_t total, int64_t *m, int64_t *n);

/* Device copies of in (A_d, B_d and their values), a poisoned C_d (and
 * C_values_d when in has values) and a poisoned workspace of temp_bytes: the
 * arguments of merge_launch. merge_download copies C back (checking the
 * guards); merge_free frees them all. */
merge_args merge_upload(const merge_inputs *in, size_t temp_bytes);
void merge_download(const merge_args *a, int *C, int *C_values);
void merge_free(merge_args *a);

LAB_END_C

#endif
