# step: solutions/ch12-merge/step5-tiled-exact
# file: merge.cu
# why: off-by-one tile bound: the load stops one element short of the tile
/several loads in flight/s/i < C_length;/i < C_length - 1;/
