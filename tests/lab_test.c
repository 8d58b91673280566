/* lab_test.c - shared test helpers. */
#include "lab_test.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const uint64_t lab_test_seeds[LAB_TEST_NSEEDS] = {20240601, 77, 4242};

uint64_t lab_test_seed(int i)
{
    return lab_test_seeds[(unsigned)i % LAB_TEST_NSEEDS];
}

void lab_test_need_gpu(void)
{
    char why[256];
    if (!lab_gpu_available(why, sizeof why))
        cr_skip_test("%s", why);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

cudaError_t lab_test_finish(double seconds, const char *what)
{
    cudaEvent_t done;
    cudaError_t err = cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    if (err == cudaSuccess)
        err = cudaEventRecord(done, 0); /* the legacy stream: after every launch so far */
    if (err != cudaSuccess)
        return err;
    const double start = seconds_now();
    while ((err = cudaEventQuery(done)) == cudaErrorNotReady) {
        if (seconds_now() - start > seconds) {
            /* the test's process ends here, and with it the kernel; should the runtime's exit
             * wait for that kernel, the alarm ends the process anyway */
            signal(SIGALRM, SIG_DFL);
            alarm(5);
            cr_assert_fail("the GPU did not finish within %.0f s, far longer than the solution takes: a "
                           "loop that never ends (a missing __syncthreads lets a thread read a count, a "
                           "position or a key before another thread has written it) -- %s%s",
                           seconds, what, lab_todo_note());
        }
        struct timespec nap = {0, 200000}; /* 0.2 ms between looks */
        nanosleep(&nap, NULL);
    }
    cudaEventDestroy(done);
    return err;
}

/* A kernel wrote past the end of a buffer the test handed it: a failed test
 * that names the buffer and the offset (common/devmem.c finds it). */
void lab_dev_guard_failed(const char *why)
{
    cr_assert_fail("%s%s", why, lab_todo_note());
}

/* The test build runs under AddressSanitizer: CUDA maps memory where ASan's
 * shadow gap lies, and Criterion's runner is not ours to leak-check. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "protect_shadow_gap=0:detect_leaks=0:allocator_may_return_null=1";
}

const char *lab_test_run_path(void)
{
    static char path[4096];
    const ssize_t len = readlink("/proc/self/exe", path, sizeof path - 8);
    if (len <= 0)
        return NULL;
    path[len] = '\0';
    char *slash = strrchr(path, '/');
    if (slash == NULL)
        return NULL;
    strcpy(slash + 1, "run");
    return access(path, X_OK) == 0 ? path : NULL;
}

int lab_test_command(const char *cmd, char *out, size_t len)
{
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p, "cannot run %s", cmd);
    size_t at = 0;
    char line[1024];
    out[0] = '\0';
    while (fgets(line, sizeof line, p) != NULL) {
        const size_t n = strlen(line);
        if (at + n >= len) /* keep the end: the failures and the result lines */
            at = 0;
        memcpy(out + at, line, n + 1);
        at += n;
    }
    const int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

const char *lab_test_need_run(void)
{
    const char *run = lab_test_run_path();
    if (run == NULL)
        cr_skip_test("./run is not built beside this suite (make builds build/<step>/run with it)");
    return run;
}

void lab_test_expect_run_prints(const char *args, const char *expected)
{
    char cmd[4400], out[512];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", lab_test_need_run(), args);
    const int rc = lab_test_command(cmd, out, sizeof out);
    cr_assert(rc == 0 && strcmp(out, expected) == 0, "%s: exit %d, printed '%s', expected '%s'", cmd, rc, out,
              expected);
}
