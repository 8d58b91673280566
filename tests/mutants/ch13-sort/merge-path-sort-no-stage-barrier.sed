# step: solutions/ch13-sort/step8-merge-sort-path
# file: sort.cu
# why: a missing barrier: block_sort_tile's threads pick their keys from shared memory before the whole tile is staged
s|__syncthreads(); /\* the tile is staged before the threads pick their keys \*/|/* (barrier removed) */|
