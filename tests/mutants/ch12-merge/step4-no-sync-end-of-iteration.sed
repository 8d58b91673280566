# step: solutions/ch12-merge/step4-circular
# file: merge.cu
# why: missing __syncthreads before the next loads overwrite consumed slots
/all have merged before the next loads overwrite/d
