# step: solutions/ch12-merge/step3-tiled
# file: merge.cu
# why: missing __syncthreads between loading a tile and merging it
/B_S\[i + threadIdx.x\] = B\[B_curr/,/__syncthreads/{/__syncthreads/d}
