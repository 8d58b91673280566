# step: solutions/ch12-merge/step5-tiled-exact
# file: merge.cu
# why: missing __syncthreads between loading a tile and merging it
/the tile is loaded before anyone merges from it/d
