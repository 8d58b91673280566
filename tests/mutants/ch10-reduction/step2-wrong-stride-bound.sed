# step: solutions/ch10-reduction/step2-convergent
# file: reduce.cu
# why: wrong stride bound: stride > 1 skips the last step
s/stride >= 1; stride \/= 2/stride > 1; stride \/= 2/
