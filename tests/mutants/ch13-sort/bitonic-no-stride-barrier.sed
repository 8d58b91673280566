# step: solutions/ch13-sort/step6-sorting-networks
# file: sort.cu
# why: a missing barrier: bitonic_tile_steps starts a stride while other threads still swap the last one's pairs
s|__syncthreads(); /\* the tile's load, or the last stride's swaps, are done before this stride reads \*/|/* (barrier removed) */|
