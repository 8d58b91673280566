/* sort_host.c - host helpers every chapter-13 step shares: defaults, checks of
 * the launch parameters, shared-memory opt-in and workspace carving. */
#include "sort.h"

#include <string.h>

sort_params sort_default_params(int step)
{
    sort_params p;
    memset(&p, 0, sizeof p);
    p.block = 256;
    p.tile = 0;
    p.coarsen = 1;
    p.radix_bits = 1;
    p.variant = "";
    switch (step) {
    case 3: /* r = 4: 16 local buckets of about 16 keys each in a 256-key block */
        p.radix_bits = 4;
        break;
    case 4: /* 16 keys per thread: 4096-key tiles keep 256 buckets about 16 keys long */
        p.radix_bits = 8;
        p.coarsen = 16;
        break;
    case 5: /* 2048-key tiles: the block sort's size and each merge block's output chunk */
        p.coarsen = 8;
        break;
    case 6:
        p.tile = 2048;
        p.variant = "bitonic";
        break;
    default:
        break;
    }
    return p;
}

int sort_step_number(const char *step_name)
{
    const char *s = step_name, *hit = NULL;
    while ((s = strstr(s, "step")) != NULL) {
        if ((s == step_name || s[-1] == '/') && s[4] >= '0' && s[4] <= '9')
            hit = s + 4;
        s += 4;
    }
    return hit != NULL ? atoi(hit) : 0;
}

const char *sort_check_block(int block, int warps)
{
    if (block < 1 || block > 1024)
        return "block must be 1 to 1024 threads";
    if (warps && block % 32 != 0)
        return "block must be a multiple of 32 threads (the block scan works warp by warp)";
    return NULL;
}

const char *sort_fit_kernel(const void *kernel, int block, size_t shared_bytes)
{
    struct cudaFuncAttributes attr;
    int dev = 0, optin = 0;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    if (block > attr.maxThreadsPerBlock) /* the kernel's registers per thread times block exceed the SM's */
        return "block has more threads than this kernel's registers allow in one block: use a smaller block";
    if (shared_bytes <= 48 * 1024)
        return NULL;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (shared_bytes > (size_t)optin)
        return "a block needs more shared memory than this GPU gives one block: use a smaller block, coarsening or tile";
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared_bytes));
    return NULL;
}

void *sort_ws_take(sort_ws *ws, size_t bytes)
{
    void *here = (void *)ws->at;
    ws->at += (bytes + 255) & ~(size_t)255;
    return here;
}
