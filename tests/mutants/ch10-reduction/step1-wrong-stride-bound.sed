# step: solutions/ch10-reduction/step1-simple
# file: reduce.cu
# why: wrong stride bound: stride < blockDim.x skips the last step
s/stride <= blockDim.x; stride \*= 2/stride < blockDim.x; stride *= 2/
