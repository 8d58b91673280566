# step: solutions/ch13-sort/step2-radix-local
# file: sort.cu
# why: a missing barrier: radix_local_sort reads its block's split keys from shared memory before every thread has stored its own
s|__syncthreads(); /\* the local buckets are complete before anyone reads them \*/|/* (barrier removed) */|
