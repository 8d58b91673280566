/* cub_bench.cu - the baseline of the Onesweep prototype's harness:
 * cub::DeviceRadixSort::SortKeys / SortPairs on unsigned int keys (and
 * values), compiled once and linked into every harness variant, so CUB and
 * our sort run in the same process on the same inputs. */
#include <cub/device/device_radix_sort.cuh>

#include "cub_bench.h"

extern "C" size_t cub_radix_temp_bytes(int n, int pairs)
{
    size_t bytes = 0;
    cudaError_t err = pairs ? cub::DeviceRadixSort::SortPairs(NULL, bytes, (const unsigned int *)NULL,
                                                              (unsigned int *)NULL, (const unsigned int *)NULL,
                                                              (unsigned int *)NULL, n)
                            : cub::DeviceRadixSort::SortKeys(NULL, bytes, (const unsigned int *)NULL,
                                                             (unsigned int *)NULL, n);
    return err == cudaSuccess ? bytes : 0;
}

extern "C" cudaError_t cub_radix_sort(void *temp, size_t temp_bytes, const unsigned int *keys_in,
                                      unsigned int *keys_out, const unsigned int *values_in,
                                      unsigned int *values_out, int n, cudaStream_t stream)
{
    if (values_in != NULL)
        return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys_in, keys_out, values_in, values_out, n, 0, 32,
                                               stream);
    return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys_in, keys_out, n, 0, 32, stream);
}
