# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: runs.cuh
# why: runs_count_digits counts a warp's run of one digit as 32 keys (one step u), not 32 x K: the tile's count of that digit and every later digit's start come out short, and keys land on each other (sorted and reversed keys)
s/row\[d\] = d == run ? 32 \* ONESWEEP_KEYS_PER_THREAD : 0;/row[d] = d == run ? 32 : 0;/
