# step: solutions/ch13-sort/step8-merge-sort-path
# file: sort.cu
# why: partition_pass co-ranks the previous tile's last output (local - 1) at every inner tile edge of a pair
s/part\[t\] = merge_path_search(g.local, A, g.m, A + g.m, g.nb, MP_UINT);/part[t] = merge_path_search(g.local - (g.local > 0), A, g.m, A + g.m, g.nb, MP_UINT);/
