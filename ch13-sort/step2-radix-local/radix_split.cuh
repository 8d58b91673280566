/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step2` gives graded hints. */
/* radix_split.cuh - ch13 step 2's local 1-bit split (Fig 13.5, section 13.4),
 * in a header of its own: step 3 sorts each block's keys by an r-bit digit
 * with r of these splits, and includes it from here (not a copy). */
#ifndef LAB_RADIX_SPLIT_CUH
#define LAB_RADIX_SPLIT_CUH

#include "scan.h"

/* Fig 13.4's destination inside one block. Every thread of the block brings
 * its key, value and bit (past the end of the keys: a one, so it stays behind
 * every real key); the block scans the bits, and each thread stores its key
 * and value in shared memory where the stable split puts them: the block's
 * zeros first, in order, then its ones, in order. Returns the block's zeros.
 * Every thread must call it (the scan has barriers); s_keys is complete after
 * the next __syncthreads(). */
static __device__ __forceinline__ unsigned int radix_split_by_bit(unsigned int key, unsigned int value,
                                                                  unsigned int bit, unsigned int *s_keys,
                                                                  unsigned int *s_values, unsigned int *warp_sums)
{
    unsigned int numOnesTotal;
    /* TODO(1): radix_split_by_bit(), section 13.4: scan the bits in the block
       (block_exclusive_scan: every thread calls it), then a zero goes to threadIdx.x - ones before,
       a one to (blockDim.x - ones in total) + ones before; store key and value there (s_keys[dst],
       s_values[dst]) and return the zeros in total */
    block_exclusive_scan(bit, &numOnesTotal, warp_sums);
    s_keys[threadIdx.x] = key;
    s_values[threadIdx.x] = value;
    return blockDim.x - numOnesTotal;
}

#endif
