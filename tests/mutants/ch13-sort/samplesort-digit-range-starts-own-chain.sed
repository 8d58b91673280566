# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: digit.c
# why: digit_chunk_ranges gives each sender's range its own first tile (A->tiles, not its top byte's): the first pass's chain restarts at every sender, so the senders' keys of one top byte and digit all go to the same places and overwrite each other (caught on the CPU: first[r] is not its top byte's first tile)
s/add_range(A, (unsigned int)next\[s\], n, seg, first, tile);/add_range(A, (unsigned int)next[s], n, seg, A->tiles, tile);/
