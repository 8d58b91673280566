# step: solutions/ch10-reduction/step3-shared
# file: reduce.cu
# why: missing __syncthreads in the tree
/__syncthreads();/d
