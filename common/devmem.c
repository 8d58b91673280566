/* devmem.c - checked, named and fenced device allocation and copies. */
#include "devmem.h"
#include "report.h"

#include <string.h>

#define MAGIC 0x4c414247554152ull /* "LABGUAR" */

/* What lies just before the buffer: how long it is and what it is called. */
typedef struct {
    uint64_t magic;
    uint64_t bytes;
    char name[LAB_GUARD_BYTES - 16];
} header;

/* LAB_EXACT_BUFFERS=1 (make check's memcheck run): every buffer at its exact
 * size, no header and no guard, so that compute-sanitizer's memcheck reports
 * a read past the end, which a guard would have turned into an in-bounds
 * read. The guards stay for the normal run, where they name a write past the end. */
static int exact_buffers(void)
{
    static int exact = -1;
    if (exact < 0) {
        const char *e = getenv("LAB_EXACT_BUFFERS");
        exact = e != NULL && strcmp(e, "1") == 0;
    }
    return exact;
}

static void *alloc_fenced(size_t bytes, const char *name)
{
    char *base = NULL;
    if (exact_buffers()) {
        CUDA_CHECK(cudaMalloc((void **)&base, bytes > 0 ? bytes : 1));
        return base;
    }
    header h;
    memset(&h, 0, sizeof h);
    h.magic = MAGIC;
    h.bytes = bytes;
    snprintf(h.name, sizeof h.name, "%s", name != NULL ? name : "a buffer");
    CUDA_CHECK(cudaMalloc((void **)&base, LAB_GUARD_BYTES + bytes + LAB_GUARD_BYTES));
    CUDA_CHECK(cudaMemcpy(base, &h, sizeof h, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(base + LAB_GUARD_BYTES + bytes, LAB_GUARD_BYTE, LAB_GUARD_BYTES));
    return base + LAB_GUARD_BYTES;
}

void *lab_dev_upload(const void *host, size_t bytes, const char *name)
{
    void *d = alloc_fenced(bytes, name);
    if (bytes > 0)
        CUDA_CHECK(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
    return d;
}

void *lab_dev_poisoned(size_t bytes, const char *name)
{
    void *d = alloc_fenced(bytes, name);
    lab_poison_device(d, bytes);
    return d;
}

int lab_dev_check_guard(const void *dev, char *why, size_t len)
{
    if (exact_buffers())
        return 0; /* no guard to check: memcheck watches the edges */
    header h;
    unsigned char guard[LAB_GUARD_BYTES];
    const char *base = (const char *)dev - LAB_GUARD_BYTES;
    CUDA_CHECK(cudaMemcpy(&h, base, sizeof h, cudaMemcpyDeviceToHost));
    if (h.magic != MAGIC) {
        snprintf(why, len, "a kernel wrote before the start of a device buffer (its header at %p was overwritten)",
                 dev);
        return -1;
    }
    h.name[sizeof h.name - 1] = '\0';
    CUDA_CHECK(cudaMemcpy(guard, (const char *)dev + h.bytes, sizeof guard, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < sizeof guard; i++)
        if (guard[i] != LAB_GUARD_BYTE) {
            snprintf(why, len,
                     "a kernel wrote past the end of %s (%llu bytes): byte %llu after its end holds 0x%02x "
                     "(element %llu past the end, counting 4-byte elements)",
                     h.name, (unsigned long long)h.bytes, (unsigned long long)i, guard[i], (unsigned long long)i / 4);
            return -1;
        }
    return 0;
}

__attribute__((weak)) void lab_dev_guard_failed(const char *why)
{
    fprintf(stderr, "FAIL: %s\n", why);
    exit(LAB_EXIT_FAIL);
}

static void check_or_fail(const void *dev)
{
    char why[320];
    if (lab_dev_check_guard(dev, why, sizeof why) != 0)
        lab_dev_guard_failed(why);
}

void lab_dev_download(void *host, const void *dev, size_t bytes)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    check_or_fail(dev);
    if (bytes > 0)
        CUDA_CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
}

void lab_dev_free(void *dev)
{
    if (dev == NULL)
        return;
    CUDA_CHECK(cudaDeviceSynchronize());
    check_or_fail(dev);
    CUDA_CHECK(cudaFree(exact_buffers() ? (void *)dev : (void *)((char *)dev - LAB_GUARD_BYTES)));
}
