# step: solutions/ch13-sort/step9-sample-sort
# file: partition.cuh
# why: scatter_body's tiles lose the barrier between the warps' counts and place_buckets: a warp's offsets are read before every warp has counted
/rank_in_warp(tag, B, s.warp + (threadIdx.x >> 5) \* B);/{n;/__syncthreads();/d}
