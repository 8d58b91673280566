# step: solutions/ch12-merge/step6-merge-path
# file: merge_path.cuh
# why: missing __syncthreads between staging a tile's inputs and searching them
/the tile is staged before anyone searches it/d
