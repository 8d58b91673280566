/* emu.h - runs the steps' kernels on the CPU, to check their logic where
 * there is no GPU: one host thread per GPU thread, a pthread barrier per
 * __syncthreads, blocks one after another, device memory = host memory (so
 * AddressSanitizer sees every out-of-bounds access, shared memory included,
 * and ThreadSanitizer every race between two barriers). emu.py has turned
 * the launches and shared declarations into C++ first. Included before a
 * converted step file (emu_step.cpp); each such file keeps its own state. */
#ifndef EMU_H
#define EMU_H

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "lab.h"
#include <vector_types.h>

#undef __global__
#undef __device__
#undef __host__
#undef __forceinline__
#undef __launch_bounds__
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)

/* launches are checked by emu_launch itself */
static inline cudaError_t emu_last_error(void)
{
    return cudaSuccess;
}
#define cudaGetLastError emu_last_error

static thread_local uint3 emu_thread_idx;
static uint3 emu_block_idx;
static dim3 emu_block_dim, emu_grid_dim;
#define threadIdx emu_thread_idx
#define blockIdx emu_block_idx
#define blockDim emu_block_dim
#define gridDim emu_grid_dim

static pthread_barrier_t emu_barrier;
static void *emu_shared;

static inline void __syncthreads(void)
{
    pthread_barrier_wait(&emu_barrier);
}

static inline float __int_as_float(int x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline long min(long a, long b) { return a < b ? a : b; }
static inline long max(long a, long b) { return a > b ? a : b; }
static inline long long min(long long a, long long b) { return a < b ? a : b; }
static inline long long max(long long a, long long b) { return a > b ? a : b; }

typedef struct {
    int64_t grid;
    int block;
    size_t shared;
} emu_cfg_t;

static inline emu_cfg_t emu_cfg(int64_t grid, int block, size_t shared = 0, cudaStream_t stream = 0)
{
    (void)stream;
    emu_cfg_t c = {grid, block, shared};
    return c;
}

template <class F> struct emu_job {
    emu_cfg_t c;
    F *f;
    unsigned int t;
};

/* One host thread per GPU thread of a block, kept for the whole grid: thread
 * 0 moves blockIdx on and poisons shared memory between blocks. */
template <class F> static void *emu_thread(void *arg)
{
    emu_job<F> *j = (emu_job<F> *)arg;
    emu_thread_idx.x = j->t, emu_thread_idx.y = 0, emu_thread_idx.z = 0;
    for (int64_t b = 0; b < j->c.grid; b++) {
        if (j->t == 0) {
            emu_block_idx.x = (unsigned int)b;
            memset(emu_shared, 0xA5, j->c.shared);
        }
        pthread_barrier_wait(&emu_barrier);
        (*j->f)();
        pthread_barrier_wait(&emu_barrier);
    }
    return NULL;
}

template <class F> static void emu_launch(emu_cfg_t c, F f)
{
    if (c.grid < 1 || c.block < 1 || c.block > 1024 || c.grid > 0x7fffffff) {
        fprintf(stderr, "emu: bad launch: grid %lld, block %d\n", (long long)c.grid, c.block);
        abort();
    }
    emu_grid_dim.x = (unsigned int)c.grid, emu_block_dim.x = (unsigned int)c.block;
    emu_shared = malloc(c.shared > 0 ? c.shared : 1); /* exactly the bytes asked for: ASan sees overruns */
    pthread_barrier_init(&emu_barrier, NULL, (unsigned)c.block);
    emu_job<F> *jobs = new emu_job<F>[c.block];
    pthread_t *th = new pthread_t[c.block];
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1 << 20);
    for (int t = 0; t < c.block; t++) {
        jobs[t].c = c, jobs[t].f = &f, jobs[t].t = (unsigned)t;
        if (pthread_create(&th[t], &attr, emu_thread<F>, &jobs[t]) != 0) {
            fprintf(stderr, "emu: cannot start thread %d\n", t);
            abort();
        }
    }
    for (int t = 0; t < c.block; t++)
        pthread_join(th[t], NULL);
    pthread_attr_destroy(&attr);
    pthread_barrier_destroy(&emu_barrier);
    delete[] jobs;
    delete[] th;
    free(emu_shared);
}

#endif
