# step: solutions/ch10-reduction/step6-warp-volatile
# file: reduce.cu
# why: missing __syncthreads between the warps and warp 0
/__syncthreads();/d
