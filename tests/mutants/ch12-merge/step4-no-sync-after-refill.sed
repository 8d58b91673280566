# step: solutions/ch12-merge/step4-circular
# file: merge.cu
# why: missing __syncthreads after the refills (TODO(4)): threads merge from slots other warps have not refilled yet
/the tile is in before anyone merges from it/d
