/* bench_tool.h - what the baselines of `make bench` (the CUB calls and the
 * copy) share: the ./run command line, one line per size in ./run's format,
 * and an O(n) check that an output holds the same 32-bit values as its input.
 * They are measured exactly as the steps are: lab_time_device (warm-up, L2
 * flushed before each timed run, batches until the median is stable) around
 * device work only; inputs and temporaries are allocated outside the timing. */
#ifndef BENCH_TOOL_H
#define BENCH_TOOL_H

#include <string.h>

#include "devmem.h"
#include "options.h"
#include "report.h"
#include "rng.h"

/* An order-independent fingerprint of a multiset of 32-bit values: two sums
 * modulo 2^64, of the values and of a mixed image of them. A sorted or merged
 * output has its inputs' fingerprint; a lost, duplicated or altered value
 * changes it. Fingerprints of two inputs add. */
typedef struct {
    uint64_t sum, mix;
} bench_fingerprint;

static inline bench_fingerprint bench_fingerprint_of(const void *x, int64_t n)
{
    const uint32_t *v = (const uint32_t *)x;
    bench_fingerprint f = {0, 0};
    for (int64_t i = 0; i < n; i++) {
        lab_rng r = {v[i]};
        f.sum += v[i];
        f.mix += lab_rng_next(&r);
    }
    return f;
}

static inline bench_fingerprint bench_fingerprint_add(bench_fingerprint a, bench_fingerprint b)
{
    a.sum += b.sum;
    a.mix += b.mix;
    return a;
}

static inline int bench_fingerprint_equal(bench_fingerprint a, bench_fingerprint b)
{
    return a.sum == b.sum && a.mix == b.mix;
}

/* Indices are int in the library calls (as in the lab's steps): n < 2^31. */
static inline void bench_check_size(int64_t n)
{
    if (n < 1 || n > 2147483647LL) {
        fprintf(stderr, "baseline: n = %lld is outside 1 to 2^31 - 1\n", (long long)n);
        exit(LAB_EXIT_USAGE);
    }
}

/* One measured size: the same line as ./run's (--csv: PASS|FAIL,step,params,n,...). */
static inline void bench_report(const lab_opts *o, const char *step, const char *params, int64_t n, double bytes,
                                lab_timing t, int pass, const char *why)
{
    const lab_result r = {step, params, n, bytes, t, pass};
    lab_print_result(o, &r);
    if (!pass && why != NULL)
        fprintf(stderr, "%s n=%lld: %s\n", step, (long long)n, why);
}

/* Parses the options, needs a GPU, runs run_size(o, n, ctx) on every size;
 * the exit status is ./run's: 0 when every size passed, 1 when one failed. */
static inline int bench_main(int argc, char **argv, lab_opts *o, const lab_opt_spec *spec, const char *tool,
                             int (*run_size)(const lab_opts *o, int64_t n, const void *ctx), const void *ctx)
{
    lab_parse_opts(argc, argv, o, spec, tool);
    if (o->nsizes == 0)
        o->sizes[0] = o->size, o->nsizes = 1;
    lab_require_gpu(tool);
    int all_pass = 1;
    for (int s = 0; s < o->nsizes; s++)
        all_pass &= run_size(o, o->sizes[s], ctx);
    return all_pass ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

#endif
