/* sample_watch.h - what keeps a sort across GPUs (steps 9 and 10) from
 * hanging: the watchdog, which waits for the ranks' streams at most a limit
 * and then says so in one line, aborts the NCCL communicators and stops the
 * process; and the faults a test asks for in the environment (LAB_SS_FAULT)
 * to show that it does:
 *   lose-send  rank 1 keeps its sends of round 0 back, as a lost message would;
 *   stall      rank 1 stops for 30 s before round 0 of its second sort (its
 *              links made in the first), as a hung peer would.
 * Either way its peers' exchange waits on the GPU, and NCCL or the watchdog
 * must stop the run (tests/ch13-sort/sample_sort.c). */
#ifndef LAB_SAMPLE_WATCH_H
#define LAB_SAMPLE_WATCH_H

#include <nccl.h>

#include "lab.h"

LAB_BEGIN_C

/* One rank as the watchdog sees it. */
typedef struct {
    int rank, device;
    cudaStream_t stream[2];
    ncclComm_t comm; /* NULL: none to abort (ranks that exchange by device copies) */
} sample_watched;

/* The limit of one sort: timeout_s when given (> 0), else 5 s plus 1 s per GB of a share. */
double sample_watch_limit(double timeout_s, int64_t N, int G, int with_values);

/* Waits for both streams of every rank w[0..n). Past `limit` seconds: one
 * line, every communicator aborted (ncclCommAbort), exit LAB_EXIT_FAIL. A
 * stream's error stops the run as any CUDA error does. */
void sample_watch(const sample_watched *w, int n, double limit);

/* lose-send: 1 when rank `rank` must keep its sends of round j back. */
int sample_fault_lost_send(int rank, int j);

/* stall: stops rank `rank` for 30 s before round j = 0 of its second sort. */
void sample_fault_stall(int rank, int j);

LAB_END_C

#endif
