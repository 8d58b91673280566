# step: solutions/ch12-merge/step3-tiled
# file: tiled.h
# why: missing __syncthreads in block_span (Part 1): threads read the block's co-ranks from A_S[0..1] before thread 0 has written them
/the co-ranks are in A_S\[0..1\] before anyone reads them/d
