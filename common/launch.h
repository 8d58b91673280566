/* launch.h - the host-side checks and workspace every chapter's launchers
 * share: a block size the kernel can use, a kernel's shared memory and
 * registers against the GPU, and carving one device workspace into the
 * buffers a step needs (so that a timed launch allocates nothing). */
#ifndef LAB_LAUNCH_H
#define LAB_LAUNCH_H

#include "lab.h"

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
