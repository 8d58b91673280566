# step: solutions/ch10-reduction/step3-shared
# file: reduce.cu
# why: the first iteration dropped: the loads take input[t] only, not input[t + blockDim.x]
s/input_s\[t\] = input\[t\] + input\[t + blockDim.x\];/input_s[t] = input[t];/
