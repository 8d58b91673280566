# step: solutions/ch13-sort/step9-sample-sort
# file: partition.cuh
# why: find_sub_buckets' cut on registers (B <= 4) puts an item that equals a splitter below it (> for >=): the sampled item itself lands in the wrong bucket, outside its splitters
s/b += item >= at\[t\];/b += item > at[t];/
