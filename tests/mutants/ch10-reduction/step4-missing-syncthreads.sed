# step: solutions/ch10-reduction/step4-segmented
# file: reduce.cu
# why: missing __syncthreads in the tree
/__syncthreads();/d
