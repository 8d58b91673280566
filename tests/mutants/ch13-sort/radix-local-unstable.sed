# step: solutions/ch13-sort/step2-radix-local
# file: sort.cu
# why: an unstable local sort: a block's ones land in reverse order
s/: (numZerosTotal + numOnesBefore);/: (blockDim.x - 1 - numOnesBefore);/
