/* lab.c - CUDA error reporting, the no-GPU check and the exercise TODO note. */
#include "lab.h"

#include <string.h>

/* Defined in each step's generated step.c (tests/tools/step-info.sh); weak for the bench tools, which have none. */
extern const char *const lab_step_todos __attribute__((weak));

void lab_cuda_fail(cudaError_t err, const char *call, const char *file, int line)
{
    fprintf(stderr, "CUDA error: %s failed at %s:%d: %s (%s)\n", call, file, line, cudaGetErrorString(err),
            cudaGetErrorName(err));
    exit(LAB_EXIT_CUDA);
}

int lab_gpu_available(char *why, size_t len)
{
    int count = 0, driver = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count > 0)
        return 1;
    if (why == NULL)
        return 0;
    /* Say what is true: CUDA's "driver version is insufficient" also means "no driver at all". */
    if (cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0)
        snprintf(why, len, "no NVIDIA GPU visible: no NVIDIA driver on this machine (CUDA: %s)",
                 cudaGetErrorString(err));
    else if (driver < CUDART_VERSION)
        snprintf(why, len,
                 "the NVIDIA driver supports CUDA %d.%d, older than this toolkit's %d.%d: update the driver, or build "
                 "with an older toolkit (CUDA: %s)",
                 driver / 1000, driver % 1000 / 10, CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10,
                 cudaGetErrorString(err));
    else
        snprintf(why, len, "no NVIDIA GPU visible (CUDA: %s)",
                 err != cudaSuccess ? cudaGetErrorString(err) : "the driver reports 0 devices");
    return 0;
}

void lab_require_gpu(const char *program)
{
    char why[256];
    if (!lab_gpu_available(why, sizeof why)) {
        fprintf(stderr, "%s: your kernel was not run: %s\n", program, why);
        exit(LAB_EXIT_NOGPU);
    }
}

void *lab_xmalloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
        exit(LAB_EXIT_USAGE);
    }
    return p;
}

const char *lab_todo_note(void)
{
    return &lab_step_todos != NULL && lab_step_todos != NULL ? lab_step_todos : "";
}
