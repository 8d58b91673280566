/* launch.c - the launch checks and workspace carving every chapter shares. */
#include "launch.h"

const char *lab_check_block(int block, unsigned need)
{
    if (block < 1 || block > 1024)
        return "--block must be 1 to 1024 threads";
    if ((need & LAB_BLOCK_WARPS) && block % 32 != 0)
        return "--block must be a multiple of 32 threads (32, 64, ... 1024): the kernel works warp by warp";
    if ((need & LAB_BLOCK_POW2) && (block & (block - 1)) != 0)
        return "--block must be a power of two (1, 2, 4, ... 1024): the tree halves the active threads each step";
    return NULL;
}

const char *lab_fit_kernel(const void *kernel, int block, size_t shared_bytes)
{
    struct cudaFuncAttributes attr;
    int dev = 0, optin = 0;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    if (block > attr.maxThreadsPerBlock) /* the kernel's registers per thread times block exceed the SM's */
        return "the block has more threads than this kernel's registers allow in one block: use a smaller --block";
    if (attr.sharedSizeBytes + shared_bytes <= 48 * 1024) /* the kernel's static shared memory counts too */
        return NULL;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (attr.sharedSizeBytes + shared_bytes > (size_t)optin)
        return "a block needs more shared memory than this GPU gives one block: use a smaller --block, --coarsen or "
               "--tile";
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared_bytes));
    return NULL;
}

void *lab_ws_take(lab_ws *ws, size_t bytes)
{
    void *here = (void *)ws->at;
    ws->at += (bytes + 255) & ~(size_t)255;
    return here;
}
