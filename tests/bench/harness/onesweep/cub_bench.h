/* cub_bench.h - C interface to the CUB baseline (cub_bench.cu). */
#ifndef ONESWEEP_CUB_BENCH_H
#define ONESWEEP_CUB_BENCH_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CUB's temporary bytes for n keys (pairs != 0: with 4-byte values); 0 on error. */
size_t cub_radix_temp_bytes(int n, int pairs);

/* cub::DeviceRadixSort::SortKeys (values_in NULL) or SortPairs, all 32 bits, on stream. */
cudaError_t cub_radix_sort(void *temp, size_t temp_bytes, const unsigned int *keys_in, unsigned int *keys_out,
                           const unsigned int *values_in, unsigned int *values_out, int n, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
