# step: solutions/ch12-merge/step6-merge-path
# file: merge_path.cuh
# why: missing __syncthreads before staging the outputs: fast warps overwrite S while slower ones still merge from it
/every thread is done reading what S holds/d
