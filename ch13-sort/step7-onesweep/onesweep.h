/* onesweep.h - step 7's sort as other code calls it (C or CUDA): the
 * single-pass radix sort of onesweep.cuh, 32-bit keys with optional 32-bit
 * values, stable, n up to 2^31 - 1, everything on the caller's stream and in
 * the caller's memory (nothing allocated). */
#ifndef ONESWEEP_H
#define ONESWEEP_H

#include "lab.h"

LAB_BEGIN_C

/* The bytes of device tables (histograms, plan, tile counters, status words)
 * a sort of n keys needs, keys only or pairs alike: about 0.53 bytes per key.
 * 0 for an n out of range. */
size_t onesweep_tables_bytes(int64_t n);

/* The keys one block sorts, its tile (ONESWEEP_THREADS x ONESWEEP_KEYS_PER_THREAD). */
int onesweep_tile_keys(void);

/* Needs the GPU: NULL once the sort's kernels can run here (the pass kernel's
 * shared memory opted in), or why not. Once per process is enough. */
const char *onesweep_fit(int with_values);

/* keys_out[0,n) (values_out) = keys_in (values_in) sorted, stable; values_in
 * NULL: keys only. keys_alt (values_alt): a second buffer of n keys (values).
 * keys_in is never written, unless it is keys_out (and values_in values_out):
 * then the sort is in place. tables: onesweep_tables_bytes(n) bytes. Call
 * onesweep_fit first. NULL once launched on `stream`, or why not (nothing
 * launched). */
const char *onesweep_sort(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                          unsigned int *values_out, unsigned int *keys_alt, unsigned int *values_alt, int64_t n,
                          void *tables, cudaStream_t stream);

/* For a caller that holds two buffers (the multi-GPU step): keys (values;
 * NULL for keys only) sorted in place, keys_alt (values_alt) the second
 * buffer, no copy. tables_temp: onesweep_tables_bytes(n) bytes. Fits the
 * kernels itself. *result_in_alt says which buffer holds the result: with
 * this sort always 0, keys (values): an odd number of passes would end in
 * keys_alt, so then one skipped pass runs too. */
const char *onesweep_sort_buffers(unsigned int *keys, unsigned int *keys_alt, unsigned int *values,
                                  unsigned int *values_alt, int64_t n, void *tables_temp, cudaStream_t stream,
                                  int *result_in_alt);

LAB_END_C

#endif
