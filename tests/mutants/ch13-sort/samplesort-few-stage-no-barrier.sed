# step: solutions/ch13-sort/step9-sample-sort
# file: partition.cuh
# why: split_few writes the staged tile out with no barrier after staging: a thread reads places another warp has not yet written
/        stage_few(key, val, buckets, place, total, B, first, s, has_values, H);/{n;/__syncthreads();/d}
