# step: solutions/ch13-sort/step2-radix-local
# file: radix_split.cuh
# why: an unstable local split (radix_split_by_bit): a block's ones land in reverse order
s/: (numZerosTotal + numOnesBefore);/: (blockDim.x - 1 - numOnesBefore);/
