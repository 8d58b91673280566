# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: split_few.cuh
# why: split_few writes the staged tile out with no barrier after staging: a thread reads places another warp has not yet written
/        stage_few_tile(key, val, start + tile_lo, tile_n, B, by_key ? NULL : &h, first, total, s, has_values, H,$/{n;n;/__syncthreads();/d}
