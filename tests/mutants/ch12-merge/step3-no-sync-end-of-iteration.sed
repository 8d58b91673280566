# step: solutions/ch12-merge/step3-tiled
# file: merge.cu
# why: missing __syncthreads at the end of the iteration: the next tile's loads overwrite A_S and B_S while slower warps still merge from them
/the tile is merged before the next load overwrites it/d
