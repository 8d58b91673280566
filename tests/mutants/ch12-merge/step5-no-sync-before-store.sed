# step: solutions/ch12-merge/step5-tiled-exact
# file: merge.cu
# why: missing __syncthreads between merging a tile into C_S and storing C_S
/the tile is merged before it is stored/d
