# pairs-values-late: the pairs' values staged after the look-back, their loads (where the step has
# them, after the ranking) in flight while it runs. Measured on one H100 (2026-11-27): 0.902x CUB's
# SortPairs at 2^28, the step 0.907x; not kept. Not with pairs-keys-first.sed (it stages them itself).
s|^\(    unsigned int key\[ONESWEEP_KEYS_PER_THREAD\], rank\[ONESWEEP_KEYS_PER_THREAD\]\);$|\1, value[ONESWEEP_KEYS_PER_THREAD];|
/^        unsigned int value\[ONESWEEP_KEYS_PER_THREAD\];$/d
s|^            s_tile\[ONESWEEP_TILE + rank\[u\]\] = value\[u\];$|            ; /* staged after the look-back */|
s|^\(        s_offset\[d\] = bucket + onesweep_look_back(status, tile, d, count) - start;\)$|\1\n    if (has_values)\n#pragma unroll\n        for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)\n            s_tile[ONESWEEP_TILE + rank[u]] = value[u];|
