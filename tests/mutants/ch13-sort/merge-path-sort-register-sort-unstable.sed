# step: solutions/ch13-sort/step8-merge-sort-path
# file: sort.cu
# why: sort_thread_items swaps equal neighbours too: the register sort is not stable
s/const int swap = key_less(hi, lo, MP_UINT);/const int swap = !key_less(lo, hi, MP_UINT);/
