/* lab_test.h - what every Criterion suite of the lab shares: GPU tests skip
 * with a one-line reason when there is no GPU, have a timeout, and use
 * fixed, printed seeds. */
#ifndef LAB_TEST_H
#define LAB_TEST_H

#include <criterion/criterion.h>

#include "devmem.h"
#include "lab.h"
#include "report.h"
#include "rng.h"

/* Seconds a GPU test may run before Criterion kills it. */
#define LAB_GPU_TIMEOUT 300.0

/* A test that needs the GPU: skipped with the reason when none is visible. */
#define GPU_TEST(suite, name, ...) \
    Test(suite, name, .timeout = LAB_GPU_TIMEOUT, .init = lab_test_need_gpu, ##__VA_ARGS__)

/* Criterion .init hook: skips the test (in its own process) without a GPU. */
void lab_test_need_gpu(void);

/* Seconds a test waits for one launch to finish: a race test's launch, and any
 * other test's (the largest inputs). The solutions take milliseconds; the
 * deadline bounds what a kernel that never ends costs (issue 37: make check of
 * such a step ends within a minute, its build included). */
#define LAB_RACE_DEADLINE   10.0
#define LAB_LAUNCH_DEADLINE 20.0

/* Waits for the GPU's work so far, at most `seconds`: the launch's error (a
 * fault), or a failed test, naming `what`, when it has not finished by then. A
 * missing barrier can leave a loop whose exit condition was read before it was
 * written: the kernel then never ends, and the test says so in seconds, not at
 * Criterion's timeout. The first test of a run to find the GPU stuck says so
 * in the run's hang file ($LAB_HANG_FILE); the suite's GPU tests after it, and
 * those still waiting, are then skipped with that one reason (lab_test.c). */
cudaError_t lab_test_finish(double seconds, const char *what);

/* The fixed seeds every randomized test runs with; each message prints its seed. */
#define LAB_TEST_NSEEDS 3
extern const uint64_t lab_test_seeds[LAB_TEST_NSEEDS];

/* The i-th of them, i = 0, 1, 2, ... going round: lab_test_seeds[i % LAB_TEST_NSEEDS]. */
uint64_t lab_test_seed(int i);

/* The path of the step's ./run (build/<step>/run, beside this test binary), or NULL when it is not built. */
const char *lab_test_run_path(void);

/* Runs a shell command: its exit status (-1: killed), its output (the last len - 1 bytes) in out. */
int lab_test_command(const char *cmd, char *out, size_t len);

/* The step's ./run; the test is skipped, with the reason, when it is not built beside this suite. */
const char *lab_test_need_run(void);

/* ./run with args must exit 0 and print exactly `expected` (stderr included). */
void lab_test_expect_run_prints(const char *args, const char *expected);

#endif
