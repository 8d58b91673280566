# step: solutions/ch13-sort/step3-radix-multibit
# file: sort.cu
# why: sort_by_digit with its own 1-bit split whose ones land in reverse order: the local sort is not stable
s/radix_split_by_bit(\*key, \*value, bit, s_keys, s_values, warp_sums);/{ unsigned int t_, o_ = block_exclusive_scan(bit, \&t_, warp_sums); const unsigned int d_ = bit == 0 ? threadIdx.x - o_ : blockDim.x - 1 - o_; s_keys[d_] = *key; s_values[d_] = *value; }/
