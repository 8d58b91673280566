# step: solutions/ch10-reduction/step3-shared
# file: reduce.cu
# why: missing __syncthreads: a time step reads partial sums other warps have not written yet
/__syncthreads();/d
