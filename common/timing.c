/* timing.c - median of device-event timings. */
#include "timing.h"

#include <math.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

lab_timing lab_timing_of(double *ms, int n)
{
    lab_timing t = {0, 0, 0, n};
    if (n <= 0)
        return t;
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    t.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    t.min_ms = ms[0];
    t.max_ms = ms[n - 1];
    t.reps = n;
    return t;
}

/* A buffer twice the L2 size, written before each timed run (outside the
 * events) so no run finds its inputs left in L2 by the previous one. */
typedef struct {
    void *buf;
    size_t bytes;
} l2_flusher;

static l2_flusher l2_flusher_make(void)
{
    int dev = 0, l2 = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    l2_flusher f = {NULL, 2 * (size_t)(l2 > 0 ? l2 : (8 << 20))};
    CUDA_CHECK(cudaMalloc(&f.buf, f.bytes));
    return f;
}

/* What one timing call sets up once: the flush buffer and the two events. */
typedef struct {
    l2_flusher flush;
    cudaEvent_t start, stop;
} timer;

static timer timer_make(void)
{
    timer t;
    t.flush = l2_flusher_make();
    CUDA_CHECK(cudaEventCreate(&t.start));
    CUDA_CHECK(cudaEventCreate(&t.stop));
    return t;
}

static void timer_free(timer *t)
{
    CUDA_CHECK(cudaEventDestroy(t->start));
    CUDA_CHECK(cudaEventDestroy(t->stop));
    CUDA_CHECK(cudaFree(t->flush.buf));
}

/* Times reps runs into ms[first..first+reps). */
static void time_batch(const timer *t, lab_work_fn fn, void *ctx, double *ms, int first, int reps)
{
    for (int r = 0; r < reps; r++) {
        float elapsed = 0.0f;
        CUDA_CHECK(cudaMemsetAsync(t->flush.buf, r & 0xff, t->flush.bytes, 0));
        CUDA_CHECK(cudaEventRecord(t->start, 0));
        fn(ctx);
        CUDA_CHECK(cudaEventRecord(t->stop, 0));
        CUDA_CHECK(cudaEventSynchronize(t->stop));
        CUDA_CHECK(cudaEventElapsedTime(&elapsed, t->start, t->stop));
        ms[first + r] = elapsed;
    }
}

static void warm_up(lab_work_fn fn, void *ctx)
{
    for (int w = 0; w < 2; w++)
        fn(ctx);
    CUDA_CHECK(cudaDeviceSynchronize());
}

lab_timing lab_time_device(lab_work_fn fn, void *ctx, int reps)
{
    return lab_time_device_stable(fn, ctx, reps, 1000.0);
}

lab_timing lab_time_device_stable(lab_work_fn fn, void *ctx, int reps, double budget_ms)
{
    const int max_batches = 20;
    double *ms = (double *)lab_xmalloc(sizeof(double) * (size_t)reps * max_batches);
    double *sorted = (double *)lab_xmalloc(sizeof(double) * (size_t)reps * max_batches);
    warm_up(fn, ctx);
    timer tm = timer_make();
    double spent = 0.0, last_median = -1.0;
    lab_timing t = {0.0, 0.0, 0.0, 0};
    for (int b = 0; b < max_batches; b++) {
        time_batch(&tm, fn, ctx, ms, b * reps, reps);
        const int n = (b + 1) * reps;
        for (int i = b * reps; i < n; i++)
            spent += ms[i];
        memcpy(sorted, ms, sizeof(double) * (size_t)n);
        t = lab_timing_of(sorted, n);
        if (last_median > 0.0 && fabs(t.median_ms - last_median) < 0.01 * last_median)
            break;
        if (spent > budget_ms)
            break;
        last_median = t.median_ms;
    }
    timer_free(&tm);
    free(sorted);
    free(ms);
    return t;
}
