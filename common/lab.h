/* lab.h - what every host file and step of the lab shares: C linkage for the
 * launchers, CUDA error checking, exit codes and the no-GPU check. */
#ifndef LAB_H
#define LAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>

/* Step files are CUDA (compiled as C++ by nvcc); drivers and tests are C:
 * everything they share is declared with C linkage. */
#ifdef __cplusplus
#define LAB_BEGIN_C extern "C" {
#define LAB_END_C   }
#else
#define LAB_BEGIN_C
#define LAB_END_C
#endif

/* The book's __host__ __device__ helpers also compile as plain C (tests, CPU side). */
#ifndef __CUDACC__
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
#endif

LAB_BEGIN_C

enum {
    LAB_EXIT_PASS = 0,
    LAB_EXIT_FAIL = 1,  /* a result differs from the CPU reference */
    LAB_EXIT_USAGE = 2, /* bad options or an input the step refuses */
    LAB_EXIT_NOGPU = 3, /* no usable CUDA device: nothing was run */
    LAB_EXIT_CUDA = 4   /* a CUDA call or launch failed */
};

/* Prints the failing call with file and line, then exits with LAB_EXIT_CUDA. */
void lab_cuda_fail(cudaError_t err, const char *call, const char *file, int line);

#define CUDA_CHECK(call)                                        \
    do {                                                        \
        cudaError_t lab_err_ = (call);                          \
        if (lab_err_ != cudaSuccess)                            \
            lab_cuda_fail(lab_err_, #call, __FILE__, __LINE__); \
    } while (0)

/* After a <<<launch>>>: catches bad configurations at once; the kernel's own
 * faults surface at the next synchronizing call, which is checked too. */
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

/* 1 when a CUDA device is usable; otherwise 0 and, when why is not NULL, a
 * one-line reason (at most len bytes). Never initializes CUDA in a way that
 * breaks a later fork: call it inside each test, not in a parent process. */
int lab_gpu_available(char *why, size_t len);

/* Exits with LAB_EXIT_NOGPU and a one-line message when there is no GPU. */
void lab_require_gpu(const char *program);

void *lab_xmalloc(size_t bytes);

/* "" for a solution. For an exercise, the TODOs still in the student's files
 * when the step was built (file:line and hint; tests/tools/step-info.sh reads
 * them at build time): ./run and the tests add it to every failure message. */
const char *lab_todo_note(void);

LAB_END_C

#endif
