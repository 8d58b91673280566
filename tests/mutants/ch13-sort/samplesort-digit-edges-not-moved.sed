# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: digit.c
# why: digit_edges applies the bins' edges (plan_bin_splitters), not the top-byte edges it found: a top byte split across two buckets, so the plan counts bins while the split moves whole top bytes (floor of the edge), and each bucket gets keys its layout has no room for (caught on the CPU: splitters and counts off top-byte edges)
s@^    plan_bins_apply(p, bins, first_bin);$@    plan_bin_splitters(p, bins, G, first_bin); /* slack G: never refused */@
