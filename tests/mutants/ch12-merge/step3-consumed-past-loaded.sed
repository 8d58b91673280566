# step: solutions/ch12-merge/step3-tiled
# file: merge.cu
# why: tile_A_consumed searches tile_out elements of each tile, past what A_S and B_S hold: it counts stale elements (errata E12.4)
s/return co_rank(tile_out, A_S, A_S_length, B_S, B_S_length);/return co_rank(tile_out, A_S, tile_out, B_S, tile_out);/
