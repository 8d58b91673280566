/* runs.cuh - ch13 step 10's count of a tile's digits (step 7's
 * onesweep_count_digits) for the split by the top byte, where a warp's keys
 * all share one top byte, as sorted and reversed keys do. Step 7 adds 1 to
 * a shared counter per key, and a warp's 32 adds to one word queue one
 * behind another; here a warp first asks, with one vote, whether its keys
 * make such a run, and then writes its row of counts at once. The chunks'
 * passes (segments.cuh) keep step 7's count: there the test cost uniform keys
 * more than it saved few keys (two H200s, 2^30 keys: few 12.38 -> 11.11 ms,
 * uniform 11.34 -> 11.67). Beyond the book; CUB's early counts spread a
 * warp's adds over several words a digit for the same reason (its
 * block_radix_rank.cuh). Included by digit_split.cuh. */
#ifndef SS_RUNS_CUH
#define SS_RUNS_CUH

#include "onesweep.cuh" /* step 7's */

#define RUNS_NONE ONESWEEP_RADIX /* a warp's keys hold more than one digit */

/* The digit at `shift` every key of this warp holds, where all 32 x K of
 * them are keys (no padding) and share it: else RUNS_NONE. A compare a key
 * and one vote a warp; every lane shuffles (a lane that skipped
 * __shfl_sync behind `&&` would leave the others waiting). */
static __device__ __forceinline__ unsigned int runs_of_warp(const unsigned int *key, unsigned int shift,
                                                            unsigned int valid)
{
    const unsigned int digit = onesweep_digit(key[0], shift);
    const unsigned int digit_lane0 = __shfl_sync(ONESWEEP_FULL_WARP, digit, 0);
    int same = onesweep_first_key() + 32 * (ONESWEEP_KEYS_PER_THREAD - 1) < valid;
#pragma unroll
    for (int u = 1; u < ONESWEEP_KEYS_PER_THREAD; u++)
        same &= onesweep_digit(key[u], shift) == digit;
    return __all_sync(ONESWEEP_FULL_WARP, same && digit == digit_lane0) ? digit : RUNS_NONE;
}

/* Step 7's count (onesweep_count_digits), but a warp whose keys make a run
 * of one digit (runs_of_warp) writes its row at once, not with 32 x K
 * atomicAdds on one shared word; its keys arrive in their input order. */
static __device__ __forceinline__ unsigned int runs_count_digits(const unsigned int *key, unsigned int shift,
                                                                 unsigned int run, unsigned int *s_warp,
                                                                 unsigned int *arrival, unsigned int valid)
{
    if (run == RUNS_NONE)
        onesweep_count_warp(key, shift, s_warp, arrival, valid);
    else {
        const unsigned int lane = threadIdx.x % 32;
        unsigned int *row = s_warp + threadIdx.x / 32 * ONESWEEP_RADIX;
        for (unsigned int d = lane; d < ONESWEEP_RADIX; d += 32)
            row[d] = d == run ? 32 * ONESWEEP_KEYS_PER_THREAD : 0;
        if (arrival != NULL)
#pragma unroll
            for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)
                arrival[u] = u * 32 + lane;
    }
    return onesweep_sum_warps(s_warp);
}

#endif
