# step: solutions/ch10-reduction/step8-vector-loads
# file: reduce.cu
# why: the two-load loop bounded by its first load alone (i < n4): the second, a4[i + stride], reads past the whole int4s and past the input's end
# needs: memcheck
s/for (; i + stride < n4; i += 2 \* stride)/for (; i < n4; i += 2 * stride)/
