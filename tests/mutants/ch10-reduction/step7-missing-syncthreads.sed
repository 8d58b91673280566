# step: solutions/ch10-reduction/step7-warp-sync
# file: warp_sync.cuh
# why: missing __syncthreads in the block levels: warp 0 reads the warps' results before they are written
/__syncthreads();/d
