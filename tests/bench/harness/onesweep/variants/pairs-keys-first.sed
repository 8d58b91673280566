# pairs-keys-first: CUB's order for pairs. The sorted keys go out first through the tile of shared
# memory (half the step's pairs' shared memory), each thread keeping the digits of the keys it sent;
# then the values, held in registers since their load, take the keys' place, sorted by the same ranks,
# and go out to the same places. Measured on one H100 (2026-11-27, the values then loaded after the
# ranking): 0.900x CUB's SortPairs at 2^28, the step 0.907x; at CUB's 384 x 23 tile 0.907x (keys then
# 1.02x instead of 1.17x); not kept.
s|^        onesweep_stage(s_tile + ONESWEEP_TILE, value, rank, 0);$|        ; /* staged after the keys went out */|
s|^    onesweep_scatter_tile(s_tile, s_tile + ONESWEEP_TILE, |    if (has_values)\n        onesweep_scatter_keys_then_values(s_tile, s_offset, shift, at.valid, n, io.keys_out, io.values_out, value, rank);\n    else\n        onesweep_scatter_tile(s_tile, s_tile + ONESWEEP_TILE, |
s|^\(    return sizeof(unsigned int) \* (size_t)ONESWEEP_TILE \* \)(with_values ? 2 : 1);$|\11; /* keys, then values, one tile */|
/^static __device__ __forceinline__ void onesweep_sort_tile(/i\
static __device__ __forceinline__ void\
onesweep_scatter_keys_then_values(unsigned int *s_tile, const unsigned int *s_offset, unsigned int shift,\
                                  unsigned int valid, unsigned int n, unsigned int *keys_out, unsigned int *values_out,\
                                  const unsigned int *value, const unsigned int *rank)\
{\
    unsigned int digits[(ONESWEEP_KEYS_PER_THREAD + 3) / 4] = {0}; /* key u's digit: byte u % 4 of word u / 4 */\
#pragma unroll\
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++) {\
        const unsigned int i = u * ONESWEEP_THREADS + threadIdx.x;\
        if (i < valid) {\
            const unsigned int key = s_tile[i], digit = onesweep_digit(key, shift), at = s_offset[digit] + i;\
            digits[u / 4] |= digit << (u % 4 * 8);\
            if (at < n)\
                keys_out[at] = key;\
        }\
    }\
    __syncthreads(); /* every key is read: the values may take their place */\
#pragma unroll\
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)\
        s_tile[rank[u]] = value[u];\
    __syncthreads();\
#pragma unroll\
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++) {\
        const unsigned int i = u * ONESWEEP_THREADS + threadIdx.x;\
        const unsigned int at = s_offset[digits[u / 4] >> (u % 4 * 8) & (ONESWEEP_RADIX - 1)] + i;\
        if (i < valid && at < n)\
            values_out[at] = s_tile[i];\
    }\
}\

