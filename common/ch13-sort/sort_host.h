/* sort_host.h - the host side every chapter-13 step shares, driven by what the
 * step declares in its descriptor (sort.h): ./run's table of the chapter's
 * options, the parameter checks (pure host: ./run runs them before it looks
 * for a GPU), the device workspace laid out from the step's needs, and
 * sort_run, the one entry point ./run and the tests sort with: it runs the
 * step's own launcher, or its passes in a loop that alternates buffers so the
 * last pass writes the output. */
#ifndef LAB_SORT_HOST_H
#define LAB_SORT_HOST_H

#include "launch.h"
#include "sort.h"

LAB_BEGIN_C

/* ./run's chapter-13 options, beyond the core's (lab_run): each entry of the
 * table sort_options makes points at a field here. */
typedef struct {
    sort_params p;    /* --block, --tile, --coarsen, --bits, --variant, --printed (p.type: --type's value) */
    const char *dist; /* --dist */
    const char *type; /* --type, as named */
    int keys_only;    /* --keys-only */
    int example;      /* --example */
} sort_cli;

/* How many entries sort_options writes. */
enum { SORT_NOPTS = 10 };

/* Fills *c with step s's defaults (--help shows them) and opts[] with chapter
 * 13's options, each pointing into *c, for lab_parse_step; an option s does
 * not take (s->takes) is refused by name. Returns the number of entries,
 * SORT_NOPTS. */
int sort_options(const sort_step *s, sort_cli *c, lab_opt opts[SORT_NOPTS]);

/* NULL when step s can sort n keys with p, else why not, with the allowed
 * range: --block (s->needs.block), --bits and --coarsen where the step takes
 * them, n >= 0, the step's own check, then n up to s->lab.max_n. No GPU needed. */
const char *sort_check(const sort_step *s, int64_t n, const sort_params *p);

/* The largest n step s sorts with p (odd-even transposition: 4096). */
int64_t sort_max_n(const sort_step *s, const sort_params *p);

/* The bytes of device workspace step s needs for n keys, with or without
 * values (0 when the parameters are refused). */
size_t sort_temp_bytes(const sort_step *s, int64_t n, int with_values, const sort_params *p);

/* keys_out[0,n) (and values_out, when values_in is not NULL) = keys_in
 * (values_in) sorted by key, stable: equal keys keep their input order. Keys
 * are unsigned, in the transform's order (sort_ref.h). The inputs are left
 * unchanged. temp_d holds sort_temp_bytes(s, n, ...) bytes of device memory
 * (so a timed sort allocates nothing). First sort_check, then (for n > 0)
 * the step's GPU checks (s->needs.fit) and its workspace laid out in temp_d;
 * then s->sorts.launch, or s->sorts.passes(n, p) passes of s->sorts.pass.
 * Returns NULL once the work is launched on the default stream, or why these
 * parameters cannot run (nothing launched). */
const char *sort_run(const sort_step *s, const unsigned int *keys_in, const unsigned int *values_in,
                     unsigned int *keys_out, unsigned int *values_out, int64_t n, void *temp_d, const sort_params *p);

/* The radix steps' passes: ceil(32 / r), one per r-bit digit (0 for an r the check refuses). */
int sort_radix_passes(int64_t n, const sort_params *p);

LAB_END_C

#endif
