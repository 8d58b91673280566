# step: solutions/ch10-reduction/step1-simple
# file: reduce.cu
# why: missing __syncthreads: a time step reads partial sums other warps have not written yet
/__syncthreads();/d
