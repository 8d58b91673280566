# full-scatter: a full tile's scatter as its load (onesweep_load_tile): assume the block's size and
# pass the tile's size as a literal, so the scatter tests no key against it; its stores then leave
# in bursts (pairs: the MIO queue throttles, 2026-11-28), not one digit's key and value at a time
/^    const unsigned int shift = pass \* ONESWEEP_DIGIT_BITS, d = threadIdx.x;/i\
    __builtin_assume(threadIdx.x < ONESWEEP_THREADS); /* so i < ONESWEEP_TILE folds */
s|^    onesweep_scatter_tile(s_tile, s_tile + ONESWEEP_TILE, s_offset, shift, at.valid, n, io.keys_out, io.values_out,$|    if (at.valid == ONESWEEP_TILE)\
        onesweep_scatter_tile(s_tile, s_tile + ONESWEEP_TILE, s_offset, shift, ONESWEEP_TILE, n, io.keys_out,\
                              io.values_out, has_values);\
    else\
        onesweep_scatter_tile(s_tile, s_tile + ONESWEEP_TILE, s_offset, shift, at.valid, n, io.keys_out, io.values_out,|
