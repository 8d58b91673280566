# step: solutions/ch10-reduction/step5-coarsened
# file: reduce.cu
# why: wrong coarsening bound: tile < COARSE_FACTOR drops half of each segment
s/tile < COARSE_FACTOR \* 2/tile < COARSE_FACTOR/
