/* devmem.c - checked device allocation and copies. */
#include "devmem.h"
#include "report.h"

void *lab_dev_upload(const void *host, size_t bytes)
{
    void *d = NULL;
    CUDA_CHECK(cudaMalloc(&d, bytes > 0 ? bytes : 4));
    if (bytes > 0)
        CUDA_CHECK(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
    return d;
}

void *lab_dev_poisoned(size_t bytes)
{
    void *d = NULL;
    CUDA_CHECK(cudaMalloc(&d, bytes > 0 ? bytes : 4));
    lab_poison_device(d, bytes);
    return d;
}

void lab_dev_download(void *host, const void *dev, size_t bytes)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    if (bytes > 0)
        CUDA_CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
}

void lab_dev_free(void *dev)
{
    CUDA_CHECK(cudaFree(dev));
}
