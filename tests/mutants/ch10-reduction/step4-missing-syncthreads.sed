# step: solutions/ch10-reduction/step4-segmented
# file: block_tree.cuh
# why: missing __syncthreads in the tree
/__syncthreads();/d
