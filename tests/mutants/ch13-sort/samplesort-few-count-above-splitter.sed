# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: held.cuh
# why: count_few counts an item equal to a splitter below it (> for >=): the count and the scatter disagree on the sampled items themselves
s/above\[t\] += x < tile_n \&\& item >= at\[t\];/above[t] += x < tile_n \&\& item > at[t];/
