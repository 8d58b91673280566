# step: solutions/ch10-reduction/step8-vector-loads
# file: reduce.cu
# why: the tail dropped: the last N % 4 elements, past the last whole int4, are never read
s/i = arraySize \/ 4 \* 4 + first; i < arraySize/i = arraySize; i < arraySize/
