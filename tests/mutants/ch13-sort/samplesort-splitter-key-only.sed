# step: solutions/ch13-sort/step9-sample-sort
# file: plan.c
# why: splitters that are keys, not items (no position): a run of equal keys cannot be cut between buckets
s/p->split_pos\[t - 1\] = item_pos\[item\[i\]\];/p->split_pos[t - 1] = 0;/
