# step: solutions/ch12-merge/step3-tiled
# file: merge.cu
# why: missing __syncthreads between loading a tile and merging it
/__syncthreads(); \/\* the tile is loaded before anyone merges from it \*\//d
