# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: digit.c
# why: digit_edges puts each GPU's boundary at the top-byte edge nearest the bins' edge (plan_bin_splitters) by bin index, not nearest its target in keys: with few distinct keys a value in the upper half of its top byte is jumped over (N / 8 off, refused, the slower way runs), and where a top byte's keys lie in one bin its nearer edge in keys is missed (caught on the CPU: the edge nearest in keys on lumpy bins, few distinct keys; the refusal test too, as plan_bin_splitters has set the plan before refusing)
s@^    if (B > PLAN_BIN_BUCKETS)$@    if (B > PLAN_BIN_BUCKETS || !plan_bin_splitters(p, bins, G, first_bin)) /* slack G: never refused */@
s@edge\[t\] = nearest_edge(below, target, edge\[t - K\], DIGIT_TOPS);@edge[t] = (first_bin[t] + DIGIT_PER_TOP / 2) / DIGIT_PER_TOP;@
