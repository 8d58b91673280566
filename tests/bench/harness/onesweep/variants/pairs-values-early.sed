# pairs-values-early: the pairs' values loaded beside the keys, in flight while the keys are ranked
# (the step loads them after the ranking). Measured on one H100 (2026-11-27), after
# pairs-values-late.sed (p-v2: staged after the look-back) 0.906x CUB's SortPairs at 2^28, the step
# 0.907x; after pairs-keys-first.sed (p-kf-v2) 0.913x, the best form, within noise; not kept.
s|^\(    unsigned int key\[ONESWEEP_KEYS_PER_THREAD\], rank\[ONESWEEP_KEYS_PER_THREAD\]\);$|\1, value[ONESWEEP_KEYS_PER_THREAD];|
/^        unsigned int value\[ONESWEEP_KEYS_PER_THREAD\];$/d
/^        onesweep_load_tile(io.values_in, base, valid, value, 0);$/d
s|^\(    onesweep_load_tile(io.keys_in, base, valid, key, 0xffffffffu);.*\)$|\1\n    if (has_values) /* in flight while the keys are ranked */\n        onesweep_load_tile(io.values_in, base, valid, value, 0);|
