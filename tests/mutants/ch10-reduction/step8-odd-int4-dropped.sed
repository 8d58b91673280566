# step: solutions/ch10-reduction/step8-vector-loads
# file: reduce.cu
# why: the odd int4 dropped: a thread whose share holds an odd number of int4s never reads its last one
s/^    if (i < n4)/    if (0)/
