# step: solutions/ch12-merge/step5-tiled-exact
# file: merge.cu
# why: off-by-one tile bound: load_exact_tile stops one element short of the tile
/several loads in flight/s/i < s.C_length;/i < s.C_length - 1;/
