# step: solutions/ch13-sort/step8-merge-sort-path
# file: sort.cu
# why: merge_round merges the later run as A: on a tie its keys go first (keys sorted, equal keys out of input order)
s/const int a = merge_path_search(diag, S + a_begin, a_end - a_begin, S + a_end, b_end - a_end, MP_UINT);/const int a = merge_path_search(diag, S + a_end, b_end - a_end, S + a_begin, a_end - a_begin, MP_UINT);/
s/merge_thread_items(S, a_begin + a, a_end, a_end + diag - a, b_end, keys, from, MP_UINT);/merge_thread_items(S, a_end + a, b_end, a_begin + diag - a, a_end, keys, from, MP_UINT);/
