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
    bench_fingerprint f = {.sum = 0, .mix = 0};
    for (int64_t i = 0; i < n; i++) {
        lab_rng r = {.state = v[i]};
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
static inline void bench_report(const lab_run *run, const char *step, const char *params, int64_t n, double bytes,
                                lab_timing t, int pass, const char *why)
{
    const lab_result r = {.step = step, .params = params, .n = n, .bytes = bytes, .time = t, .pass = pass};
    lab_print_result(run, &r);
    if (!pass && why != NULL)
        fprintf(stderr, "%s n=%lld: %s\n", step, (long long)n, why);
}

/* Parses the command line (the core's options and the tool's own table, opts:
 * the values they point at hold the defaults --help shows), needs a GPU, runs
 * run_size(run, n, ctx) on every size; the exit status is ./run's: 0 when every
 * size passed, 1 when one failed. As a step's ./run: -n 2^24 and 20 timed runs
 * unless told, and --list-sizes prints the sizes (for bench.sh) with no GPU. */
static inline int bench_main(int argc, char **argv, const char *tool, const char *about, const lab_opt *opts, int nopts,
                             int (*run_size)(const lab_run *run, int64_t n, const void *ctx), const void *ctx)
{
    const lab_cli cli = {
        .step = tool, .about = about, .default_n = (int64_t)1 << 24, .max_n = 0, .max_n_why = NULL, .default_reps = 20};
    lab_run run;
    lab_parse(argc, argv, &cli, opts, nopts, &run);
    lab_require_gpu(tool);
    int all_pass = 1;
    for (int s = 0; s < run.nsizes; s++)
        all_pass &= run_size(&run, run.sizes[s], ctx);
    return all_pass ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

#endif
