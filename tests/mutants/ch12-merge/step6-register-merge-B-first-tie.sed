# step: solutions/ch12-merge/step6-merge-path
# file: merge_path.cuh
# why: the register merge (merge_thread_items) takes B's front on a tie: keys in order, equal keys out of input order
s/(a >= a_end || key_less(key_b, key_a, key_type)); \/\* A first on a tie \*\//(a >= a_end || !key_less(key_a, key_b, key_type));/
