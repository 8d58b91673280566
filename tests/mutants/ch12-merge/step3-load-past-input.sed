# step: solutions/ch12-merge/step3-tiled
# file: merge.cu
# why: load_tile bounded by the tile alone, not by what is left of the block's input: the last tiles read past the ends of A and B
# needs: memcheck
s/if (i + threadIdx.x < left \&\& i + threadIdx.x < tile_size)/if (i + threadIdx.x < tile_size)/
