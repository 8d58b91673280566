# step: solutions/ch13-sort/step5-merge-sort
# file: sort.cu
# why: a missing barrier: the next round of in-block merges reads runs other threads are still writing
s|__syncthreads(); /\* the round's runs are complete before the next round reads them \*/|/* (barrier removed) */|
