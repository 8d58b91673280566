# step: solutions/ch10-reduction/step6-warp-volatile
# file: listing.cuh
# why: missing __syncthreads between the warps and warp 0
/__syncthreads();/d
