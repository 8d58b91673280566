/* sort_host.h - the host side every chapter-13 step shares, driven by what the
 * step declares in its descriptor (sort.h): the parameter checks (pure host:
 * ./run runs them before it looks for a GPU), the device workspace laid out
 * from the step's needs, and the loop of passes of steps 1-5 that alternates
 * buffers so the last pass writes the output. */
#ifndef LAB_SORT_HOST_H
#define LAB_SORT_HOST_H

#include "launch.h"
#include "sort.h"

LAB_BEGIN_C

/* NULL when step s can sort n keys with p, else why not, with the allowed
 * range: --block (s->block_need), --bits and --coarsen where the step takes
 * them, n >= 0, the step's own check, then n up to -n's limit. No GPU needed. */
const char *sort_check(const sort_step *s, int64_t n, const sort_params *p);

/* The largest n step s sorts with p (odd-even transposition: 4096). */
int64_t sort_max_n(const sort_step *s, const sort_params *p);

/* The bytes of device workspace step s needs for n keys, with or without
 * values (0 when the parameters are refused). */
size_t sort_temp_bytes(const sort_step *s, int64_t n, int with_values, const sort_params *p);

/* What every launcher does first: sort_check, then (for n > 0) the step's GPU
 * checks (s->fit) and the workspace laid out in temp_d. NULL when it can run. */
const char *sort_prepare(const sort_step *s, int64_t n, int with_values, void *temp_d, const sort_params *p,
                         sort_ws *ws);

/* Steps 1-5's launcher: sort_prepare, then s->passes(n, p) passes of s->pass,
 * each reading the previous one's output; the passes alternate between the
 * workspace's second buffer and keys_out (values_out) so that the last one
 * writes keys_out. NULL once launched, or why not (from the check or a pass). */
const char *sort_run_passes(const sort_step *s, const unsigned int *keys_in, const unsigned int *values_in,
                            unsigned int *keys_out, unsigned int *values_out, int64_t n, void *temp_d,
                            const sort_params *p);

/* A step that sorts in passes (steps 1-5, 8) defines its launcher with this one line: sort_launch
 * runs the step's passes (sort_step_info.passes, .pass) through sort_run_passes. */
#define SORT_LAUNCH_IN_PASSES                                                                                  \
    const char *sort_launch(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out, \
                            unsigned int *values_out, int64_t n, void *temp_d, const sort_params *p)          \
    {                                                                                                          \
        return sort_run_passes(&sort_step_info, keys_in, values_in, keys_out, values_out, n, temp_d, p);       \
    }

/* The radix steps' passes: ceil(32 / r), one per r-bit digit (0 for an r the check refuses). */
int sort_radix_passes(int64_t n, const sort_params *p);

/* The options step s's ./run takes: its own (s->spec) and the chapter's
 * (SORT_OPTIONS, the --dist and --type names), with the chapter's limits:
 * -n up to SORT_MAX_N unless the step says less, --bits 1 to
 * SORT_MAX_RADIX_BITS, --coarsen 1 to SORT_MAX_COARSEN. */
lab_opt_spec sort_options(const sort_step *s);

LAB_END_C

#endif
