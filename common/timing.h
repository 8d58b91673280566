/* timing.h - device-event timing of device work only: warm-up first, then
 * repeated runs, the median reported with its spread. */
#ifndef LAB_TIMING_H
#define LAB_TIMING_H

#include "lab.h"

LAB_BEGIN_C

/* One run of the work being timed; it only enqueues device work. */
typedef void (*lab_work_fn)(void *ctx);

typedef struct {
    double median_ms;
    double min_ms;
    double max_ms;
    int reps;
} lab_timing;

/* The median (of the two middle ones when n is even), least and most of ms[0, n), which it
 * sorts in place; all zero when n is 0. */
lab_timing lab_timing_of(double *ms, int n);

/* Runs fn twice to warm up, then batches of reps runs, each run between two
 * events, until the median moves by less than 1% between batches or about a
 * second of device time is spent. L2 is flushed before each timed run so small
 * inputs are not flattered by the cache. */
lab_timing lab_time_device(lab_work_fn fn, void *ctx, int reps);

/* The same with its own budget of device time in milliseconds. */
lab_timing lab_time_device_stable(lab_work_fn fn, void *ctx, int reps, double budget_ms);

LAB_END_C

#endif
