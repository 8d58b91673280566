# step: solutions/ch13-sort/step3-radix-multibit
# file: sort.cu
# why: a missing barrier: sort_by_digit takes the key at its position before every thread of the split has stored its own
s|__syncthreads(); /\* every key is in its new place before anyone reads \*/|/* (barrier removed) */|
