# step: solutions/ch13-sort/step7-onesweep
# file: onesweep.cuh
# why: the status split into a flag word and a count word (as the paper's pseudo-code reads) with no fence between: another SM can see the flag with an old count (counts [digit][tile]: a stale sector of its L1 serves them)
s|^#define LOOKBACK_WORDS(tiles) ((size_t)(tiles) \* RADIX) /\* one pass's table \*/|#define LOOKBACK_WORDS(tiles) (2 * (size_t)(tiles) * RADIX) /* flags [tile][digit], then counts [digit][tile] */\n#define COUNT_AT(tile, d) ((size_t)gridDim.x * RADIX + (size_t)(d) * gridDim.x + (tile))|
s|^    \*(volatile unsigned int \*)\&status\[(size_t)tile \* RADIX + d\] = word;|    status[COUNT_AT(tile, d)] = count_of(word); /* the count, then the flag: no fence between */\n    *(volatile unsigned int *)\&status[(size_t)tile * RADIX + d] = word \& STATUS_INCLUSIVE ? STATUS_INCLUSIVE : STATUS_AGGREGATE;|
s|^    return \*(const volatile unsigned int \*)\&status\[(size_t)tile \* RADIX + d\];|    const unsigned int flag = *(const volatile unsigned int *)\&status[(size_t)tile * RADIX + d];\n    return flag == 0 ? 0 : flag \| status[COUNT_AT(tile, d)]; /* the flag, then the count: no fence between */|
