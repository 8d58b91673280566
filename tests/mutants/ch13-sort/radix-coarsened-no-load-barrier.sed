# step: solutions/ch13-sort/step4-radix-coarsened
# file: sort.cu
# why: a missing barrier: threads take their keys from shared memory before the whole tile is loaded
s|__syncthreads(); /\* the whole tile is in shared memory before threads take their keys \*/|/* (barrier removed) */|
