/* launch.h - the host-side checks and workspace every chapter's launchers
 * share: a block size the kernel can use, a kernel's shared memory and
 * registers against the GPU, and carving one device workspace into the
 * buffers a step needs (so that a timed launch allocates nothing). */
#ifndef LAB_LAUNCH_H
#define LAB_LAUNCH_H

#include "lab.h"

/* The resident threads an SM of the architecture being compiled holds
 * (CUDA C++ Programming Guide, "Compute capabilities"): 1024 on sm_75, 1536
 * on sm_86, sm_89 and sm_12x, 2048 on the others (sm_80, sm_90, ...). A
 * kernel's __launch_bounds__ asks at most this many threads of blocks an SM
 * (more is ignored, with a warning). The host pass has no architecture: it
 * never reads launch bounds. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define LAB_SM_THREADS 1024
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
#define LAB_SM_THREADS 1536
#else
#define LAB_SM_THREADS 2048
#endif

/* The one architecture a build targets, seen by host and device code alike:
 * the Makefile passes -DLAB_ONE_ARCH=<cc> when CUDA_ARCH names exactly one (a
 * fat binary for several leaves it undefined). LAB_SHARED_OPTIN_KIB is the
 * shared memory a block of it may opt in to (CUDA C++ Programming Guide,
 * "Compute capabilities"), for a step whose tile shape is compile-time; 64 KiB
 * (sm_75's, the least the lab runs on) where it is not known, so a tile sized
 * by it fits every GPU. */
#if defined(LAB_ONE_ARCH) && (LAB_ONE_ARCH == 90 || LAB_ONE_ARCH == 100 || LAB_ONE_ARCH == 103)
#define LAB_SHARED_OPTIN_KIB 227
#elif defined(LAB_ONE_ARCH) && (LAB_ONE_ARCH == 80 || LAB_ONE_ARCH == 87)
#define LAB_SHARED_OPTIN_KIB 163
#elif defined(LAB_ONE_ARCH) && (LAB_ONE_ARCH == 86 || LAB_ONE_ARCH == 89 || LAB_ONE_ARCH == 120)
#define LAB_SHARED_OPTIN_KIB 99
#else
#define LAB_SHARED_OPTIN_KIB 64
#endif

LAB_BEGIN_C

/* What a kernel needs of its block size, or'ed together. */
enum {
    LAB_BLOCK_ANY = 0,
    LAB_BLOCK_WARPS = 1, /* whole warps: a multiple of 32 */
    LAB_BLOCK_POW2 = 2   /* a power of two: a tree that halves */
};

/* NULL when 1 <= block <= 1024 and it has what `need` asks; else why not,
 * with the allowed range. Host only: runs before any GPU is looked for. */
const char *lab_check_block(int block, unsigned need);

/* Before launching `kernel` with `block` threads and `shared_bytes` of
 * dynamic shared memory: NULL once it can run (above 48 KiB a kernel must opt
 * in, which this does), or why not (too many threads for its registers, too
 * much shared memory for this GPU). Needs the GPU. */
const char *lab_fit_kernel(const void *kernel, int block, size_t shared_bytes);

/* One device workspace carved into a step's buffers: ws.at starts at the
 * workspace (or at 0 to count the bytes needed); each take returns the
 * current place and moves on, 256-byte aligned. */
typedef struct {
    uintptr_t at;
} lab_ws;
void *lab_ws_take(lab_ws *ws, size_t bytes);

LAB_END_C

#endif
