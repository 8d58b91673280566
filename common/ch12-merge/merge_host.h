/* merge_host.h - the host side every chapter-12 launcher and driver shares,
 * driven by what the step declares in its descriptor (merge.h): the
 * parameter checks (pure host: ./run runs them before it looks for a GPU),
 * the workspace laid out from the step's needs, what each launcher does
 * before its kernel, the table of chapter 12's options both drivers parse,
 * and the device buffers of one merge. */
#ifndef LAB_MERGE_HOST_H
#define LAB_MERGE_HOST_H

#include "devmem.h"
#include "launch.h"
#include "merge.h"

LAB_BEGIN_C

/* NULL when step s can merge m + n keys (floats when is_float, with values
 * when with_values) with p, else why not, with the allowed range: --block
 * (s->block_need), m + n up to s->lab.max_n, float keys (MERGE_TAKES_TYPE) and
 * values (s->takes_values), --coarsen and --grid where the step takes them,
 * then the step's own check. No GPU needed. ./run runs it once for each size
 * when it parses its options; the launchers, in merge_prepare. */
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

/* The bytes of device workspace step s needs for m + n keys with p (0 when
 * none). It checks nothing: the launch refuses what merge_check refuses. */
size_t merge_temp_bytes(const merge_step *s, int64_t m, int64_t n, const merge_params *p);

/* What every launcher does before its kernel: merge_check, then `kernel`
 * against the GPU with p->block threads and `shared` bytes of dynamic shared
 * memory (lab_fit_kernel), then the workspace laid out in a->temp. NULL when
 * it can launch; *grid is then merge_grid's, or 0 when there is nothing to merge. */
const char *merge_prepare(const merge_step *s, const merge_args *a, const merge_params *p, const void *kernel,
                          size_t shared, int *grid, merge_ws *ws);

/* ./run's chapter-12 options, beyond the core's (lab_run): each entry of the
 * table merge_options makes points at a field here. */
typedef struct {
    int64_t m;        /* --m: elements of A (-1: half of each size) */
    const char *dist; /* --dist */
    const char *type; /* --type: int or float */
    merge_params p;   /* --block, --grid, --tile, --coarsen; p.printed: the step's bits when --printed */
    int printed;      /* --printed */
    int keys_only;    /* --keys-only */
    int example;      /* --example */
    int is_float;     /* what they mean for the merge (merge_check_run): --type float */
    int with_values;  /*   the step takes values and --keys-only was not given */
} merge_cli;

/* How many entries merge_options writes. */
enum { MERGE_NOPTS = 10 };

/* Fills *c with step s's defaults and opts[] with chapter 12's options, each
 * pointing into *c, for lab_parse_step; an option s does not take (s->takes;
 * --keys-only without takes_values, --printed without printed bits) is
 * refused by name. Returns the number of entries, MERGE_NOPTS. */
int merge_options(const merge_step *s, merge_cli *c, lab_opt opts[MERGE_NOPTS]);

/* After parsing: what the options mean for the merge (c->p.printed,
 * is_float, with_values), then every size of run split into m and n
 * (--m at most the size) and merge_check'ed: anything the step refuses is
 * one line on stderr and exit 2, before any GPU is looked for. */
void merge_check_run(const merge_step *s, merge_cli *c, const lab_run *run);

/* m and n of a merge of `total` elements: --m, or half of total. */
void merge_split(const merge_cli *c, int64_t total, int64_t *m, int64_t *n);

/* Device copies of in (A_d, B_d and their values), a poisoned C_d (and
 * C_values_d when in has values) and a poisoned workspace of temp_bytes: the
 * arguments of merge_launch. merge_download copies C back (checking the
 * guards); merge_free frees them all. */
merge_args merge_upload(const merge_inputs *in, size_t temp_bytes);
void merge_download(const merge_args *a, int *C, int *C_values);
void merge_free(merge_args *a);

LAB_END_C

#endif
