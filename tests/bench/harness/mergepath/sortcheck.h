/* sortcheck.h - tests/bench/harness/mergepath's O(n) check of a sort of
 * pairs, shared by runs.cu and sortspeed.cu: no reference sort needed. */
#ifndef MP_SORTCHECK_H
#define MP_SORTCHECK_H

#include <stdint.h>

/* O(n): out and out_v (input indices) are keys sorted stably. -1 or the first wrong k. */
static int64_t sort_pairs_wrong_at(const unsigned int *keys, int64_t n, const unsigned int *out,
                                   const unsigned int *out_v)
{
    for (int64_t k = 0; k < n; k++) {
        const int64_t v = out_v[k];
        if (v < 0 || v >= n || out[k] != keys[v])
            return k;
        if (k > 0 && (out[k] < out[k - 1] || (out[k] == out[k - 1] && v <= out_v[k - 1])))
            return k;
    }
    return -1;
}

#endif
