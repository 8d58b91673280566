/* sample_watch.c - the watchdog of a sort across GPUs, and a test's faults (sample_watch.h). */
#include "sample_watch.h"

#include <string.h>
#include <time.h>

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double sample_watch_limit(double timeout_s, int64_t N, int G, int with_values)
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

void sample_watch(const sample_watched *w, int n, double limit)
{
    const double start = seconds();
    for (int i = 0; i < n;) {
        CUDA_CHECK(cudaSetDevice(w[i].device));
        if (streams_done(&w[i])) {
            i++;
            continue;
        }
        if (seconds() - start > limit) {
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
        struct timespec nap = {0, 50000}; /* 50 us between looks */
        nanosleep(&nap, NULL);
    }
}

static int fault_is(const char *name)
{
    const char *f = getenv("LAB_SS_FAULT");
    return f != NULL && strcmp(f, name) == 0;
}

int sample_fault_lost_send(int rank, int j)
{
    return fault_is("lose-send") && rank == 1 && j == 0;
}

void sample_fault_stall(int rank, int j)
{
    static int first_rounds = 0; /* rank 1's rounds 0 so far: its second sort's is the one */
    if (fault_is("stall") && rank == 1 && j == 0 && ++first_rounds == 2) {
        struct timespec stop = {30, 0};
        nanosleep(&stop, NULL);
    }
}
