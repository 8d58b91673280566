# fenced (after tests/mutants/ch13-sort/onesweep-split-status.sed): the two-word status made
# right the way the paper's pseudo-code needs it, with a fence on each side, and its counts
# tile-major: what one word (and no fence) saves, measured.
s|^#define ONESWEEP_COUNT_AT(tile, d) .*|#define ONESWEEP_COUNT_AT(tile, d) ((size_t)gridDim.x * ONESWEEP_RADIX + (size_t)(tile) * ONESWEEP_RADIX + (d)) /* counts [tile][digit] */|
s|^\(    status\[ONESWEEP_COUNT_AT(tile, d)\] = onesweep_count_of(word);\) /\* the count, then the flag: no fence between \*/|\1\n    __threadfence(); /* the count reaches every SM before the flag */|
s|^    return flag == 0 ? 0 : flag \| status\[ONESWEEP_COUNT_AT(tile, d)\]; /\* the flag, then the count: no fence between \*/|    if (flag == 0)\n        return 0;\n    __threadfence(); /* the count read next is no older than the flag */\n    return flag \| status[ONESWEEP_COUNT_AT(tile, d)];|
