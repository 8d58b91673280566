# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: held.cuh
# why: held_bucket (the cut on registers, up to 8 buckets) puts an item that equals a splitter below it (> for >=): the sampled item itself lands in the wrong bucket, outside its splitters
s/b += item >= at\[t\];/b += item > at[t];/
