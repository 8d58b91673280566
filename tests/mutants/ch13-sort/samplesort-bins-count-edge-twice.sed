# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: bins.c
# why: plan_bin_splitters counts a bucket's bins up to and including the next bucket's first (<= for <): the bin on each edge is counted in two buckets, and the plan no longer adds up to the shares
s/            for (int e = first_bin\[b\]; e < first_bin\[b + 1\]; e++)/            for (int e = first_bin[b]; e <= first_bin[b + 1] \&\& e < PLAN_BINS; e++)/
