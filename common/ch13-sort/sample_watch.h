/* sample_watch.h - what keeps a sort across GPUs (steps 9 and 10) from
 * hanging: the watchdog, which waits for the ranks' streams at most a limit
 * and then says so in one line, aborts the NCCL communicators and stops the
 * process; and the faults a test asks for in the environment (LAB_SS_FAULT)
 * to show that it does:
 *   lose-send  rank 1 keeps its sends of round 0 back, as a lost message would;
 *   stall      rank 1 stops for 30 s before round 0 of its second sort (its
 *              links made in the first), as a hung peer would.
 * Either way its peers' exchange waits on the GPU, and NCCL or the watchdog
 * must stop the run (tests/ch13-sort/sample_sort.c). Its functions are here,
 * static: the step's exchange (a host file that links NCCL) includes it,
 * while the wing's objects go into every step of the chapter. */
#ifndef LAB_SAMPLE_WATCH_H
#define LAB_SAMPLE_WATCH_H

#include <nccl.h>
#include <string.h>
#include <time.h>

#include "lab.h"

LAB_BEGIN_C

/* One rank as the watchdog sees it. */
typedef struct {
    int rank, device;
    cudaStream_t stream[2];
    ncclComm_t comm; /* NULL: none to abort (ranks that exchange by device copies) */
} sample_watched;

static double sample_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The limit of one sort: timeout_s when given (> 0), else 5 s plus 1 s per GB of a share. */
static double sample_watch_limit(double timeout_s, int64_t N, int G, int with_values)
{
    const double share_gb = (double)N / G * sizeof(unsigned int) * (with_values ? 2 : 1) * 1e-9;
    return timeout_s > 0 ? timeout_s : 5.0 + share_gb;
}

/* 1 when both of a rank's streams are idle. */
static int streams_done(const sample_watched *w)
{
    for (int k = 0; k < 2; k++) {
        const cudaError_t e = cudaStreamQuery(w->stream[k]);
        if (e == cudaErrorNotReady)
            return 0;
        CUDA_CHECK(e);
    }
    return 1;
}

/* Rank w[i]'s sort past `limit` seconds: one line, every communicator of w[0..n) aborted
 * (ncclCommAbort), exit LAB_EXIT_FAIL. */
static void sample_watch_stop(const sample_watched *w, int n, int i, double limit)
{
    fprintf(stderr,
            "FAIL: rank %d's sort did not finish within %.1f s (an exchange that never completes?): "
            "aborting%s and stopping\n",
            w[i].rank, limit, w[i].comm != NULL ? " its NCCL communicators" : "");
    fflush(stdout), fflush(stderr);
    for (int k = 0; k < n; k++)
        if (w[k].comm != NULL)
            ncclCommAbort(w[k].comm);
    _Exit(LAB_EXIT_FAIL);
}

/* Waits for both streams of every rank w[0..n). Past `limit` seconds: one
 * line, every communicator aborted (ncclCommAbort), exit LAB_EXIT_FAIL. A
 * stream's error stops the run as any CUDA error does. */
static void sample_watch(const sample_watched *w, int n, double limit)
{
    const double start = sample_seconds();
    for (int i = 0; i < n;) {
        CUDA_CHECK(cudaSetDevice(w[i].device));
        if (streams_done(&w[i])) {
            i++;
            continue;
        }
        if (sample_seconds() - start > limit)
            sample_watch_stop(w, n, i, limit);
        struct timespec nap = {0, 50000}; /* 50 us between looks */
        nanosleep(&nap, NULL);
    }
}

static int fault_is(const char *name)
{
    const char *f = getenv("LAB_SS_FAULT");
    return f != NULL && strcmp(f, name) == 0;
}

/* lose-send: 1 when rank `rank` must keep its sends of round j back. */
static int sample_fault_lost_send(int rank, int j)
{
    return fault_is("lose-send") && rank == 1 && j == 0;
}

/* stall: stops rank `rank` for 30 s before round j = 0 of its second sort. */
static void sample_fault_stall(int rank, int j)
{
    static int first_rounds = 0; /* rank 1's rounds 0 so far: its second sort's is the one */
    if (fault_is("stall") && rank == 1 && j == 0 && ++first_rounds == 2) {
        struct timespec stop = {30, 0};
        nanosleep(&stop, NULL);
    }
}

LAB_END_C

#endif
