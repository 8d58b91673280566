# step: solutions/ch12-merge/step5-tiled-exact
# file: merge.cu
# why: missing __syncthreads in split_tile: a thread reads its end from a_S before its neighbour has written its start there
/every thread.s start is in a_S before its neighbour reads it/d
