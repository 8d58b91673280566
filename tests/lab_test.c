/* lab_test.c - shared test helpers. */
#include "lab_test.h"

#include <criterion/hooks.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const uint64_t lab_test_seeds[LAB_TEST_NSEEDS] = {20240601, 77, 4242};

uint64_t lab_test_seed(int i)
{
    return lab_test_seeds[(unsigned)i % LAB_TEST_NSEEDS];
}

/* ---- a kernel that never ends stops the suite's GPU tests -------------------------------
 * Each test runs in its own process. The run's hang file ($LAB_HANG_FILE: run-suites.sh and the
 * grader name one beside the suite; else the runner makes one up in $TMPDIR) is made by the first
 * test that finds the GPU stuck, holding one line: which test, and why. Every GPU test after it is
 * skipped with that line as its reason, and a test still waiting for the GPU gives up, so a kernel
 * that never ends costs one deadline, not one per test. */
static char hang_path_made[512];

static const char *hang_path(void)
{
    const char *p = getenv("LAB_HANG_FILE");
    return p != NULL && p[0] != '\0' ? p : NULL;
}

/* 1 when the run's hang file is there, its line in why */
static int hang_reason(char *why, size_t len)
{
    const char *path = hang_path();
    FILE *f = path != NULL ? fopen(path, "r") : NULL;
    if (f == NULL)
        return 0;
    if (fgets(why, (int)len, f) == NULL)
        snprintf(why, len, "an earlier test found the GPU stuck");
    why[strcspn(why, "\n")] = '\0';
    fclose(f);
    return 1;
}

/* Makes the hang file, whole, with the line why: 1 when this process made it, 0 when another
 * test had already (a file written aside and linked in place: no reader sees it half written). */
static int hang_declare(const char *why)
{
    const char *path = hang_path();
    char aside[600];
    if (path == NULL)
        return 1;
    snprintf(aside, sizeof aside, "%s.%ld", path, (long)getpid());
    const int fd = open(aside, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return 1;
    dprintf(fd, "%s\n", why);
    close(fd);
    const int made = link(aside, path) == 0 || errno != EEXIST;
    unlink(aside);
    return made;
}

static void hang_skip(const char *why)
{
    cr_skip_test("not run: %s; the suite's GPU tests stop after the first that hangs", why);
}

/* In the runner, before any test: the run's hang file, empty. */
ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    (void)set;
    if (hang_path() == NULL) {
        const char *tmp = getenv("TMPDIR");
        snprintf(hang_path_made, sizeof hang_path_made, "%s/lab-hang-%ld", tmp != NULL && tmp[0] ? tmp : "/tmp",
                 (long)getpid());
        setenv("LAB_HANG_FILE", hang_path_made, 1);
    }
    unlink(hang_path());
}

/* In the runner, after each test: one that ran past Criterion's time limit (stuck outside
 * lab_test_finish's wait: in a download, in a ./run it started) stops the GPU tests too. */
ReportHook(POST_TEST)(struct criterion_test_stats *stats)
{
    char why[400];
    if (!stats->timed_out || hang_reason(why, sizeof why))
        return;
    snprintf(why, sizeof why, "%s::%s ran past its time limit (%.0f s): a kernel or a loop that never ends",
             stats->test->category, stats->test->name, (double)stats->elapsed_time);
    hang_declare(why);
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    (void)stats;
    if (hang_path_made[0] != '\0')
        unlink(hang_path_made);
}

void lab_test_need_gpu(void)
{
    char why[400];
    if (hang_reason(why, sizeof why))
        hang_skip(why);
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
    char why[400];
    for (long looks = 0; (err = cudaEventQuery(done)) == cudaErrorNotReady; looks++) {
        const int late = seconds_now() - start > seconds;
        const int other = !late && looks % 50 == 49 && hang_reason(why, sizeof why); /* another test's hang */
        if (late || other) {
            /* the test's process ends here, and with it the kernel; should the runtime's exit
             * wait for that kernel, the alarm ends the process anyway */
            signal(SIGALRM, SIG_DFL);
            alarm(5);
            if (other)
                hang_skip(why);
            snprintf(why, sizeof why, "the GPU did not finish %s::%s within %.0f s (a kernel that never ends)",
                     criterion_current_test->category, criterion_current_test->name, seconds);
            if (!hang_declare(why) && hang_reason(why, sizeof why)) /* another test found it first */
                hang_skip(why);
            cr_assert_fail("the GPU did not finish within %.0f s, far longer than the solution takes: a "
                           "loop that never ends (a missing __syncthreads lets a thread read a count, a "
                           "position or a key before another thread has written it; an index that "
                           "leaves its buffer) -- %s; the suite's other GPU tests are not run%s",
                           seconds, what, lab_todo_note());
        }
        struct timespec nap = {0, 200000}; /* 0.2 ms between looks; the hang file every 10 ms */
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
