# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: digit.c
# why: digit_edges keeps the bins' edges (edge[t] = first_bin[t], not the nearest top-byte edge): a top byte split across two buckets, so the plan counts bins while the split moves whole top bytes (floor of the edge), and each bucket gets keys its layout has no room for (caught on the CPU: splitters and counts off top-byte edges)
s|edge\[t\] = (first_bin\[t\] + DIGIT_PER_TOP / 2) / DIGIT_PER_TOP \* DIGIT_PER_TOP; /\* the nearest top-byte edge \*/|edge[t] = first_bin[t];|
