# pairs-values-after-rank: the pairs' values loaded after the keys are ranked and staged before the
# look-back (the step before 2026-11-28), not loaded beside the keys and staged after it
/^    if (has_values) \/\* in flight while the keys are ranked and the look-back runs \*\/$/,+1d
/^    if (d < ONESWEEP_RADIX) \/\* the global place of the tile's key i of digit d: s_offset\[d\] + i \*\/$/i\
    if (has_values) { /* the values loaded only now, after the ranking */\
        onesweep_load_tile(io.values_in, at.base, at.valid, value, 0);\
#pragma unroll\
        for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)\
            s_tile[ONESWEEP_TILE + rank[u]] = value[u];\
    }
s|^    if (has_values) /\* after the look-back: waiting for the values never holds it up \*/$|    if (0)|
