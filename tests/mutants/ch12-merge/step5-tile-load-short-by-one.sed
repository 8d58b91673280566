# step: solutions/ch12-merge/step5-tiled-exact
# file: merge.cu
# why: off-by-one tile bound: the load stops one element short of the tile
s|for (int i = threadIdx.x; i < C_length; i += blockDim.x)|for (int i = threadIdx.x; i < C_length - 1; i += blockDim.x)|
