# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: segments.cuh
# why: seg_pass heads the look-back's chain at tile 0, as step 7's pass does, not at each segment's first tile: a segment's first tile publishes an aggregate and looks back into the previous segment's tiles, so its digit runs start late and overwrite the next segment (keys and pairs, any chunk of two top bytes or more)
s/at.head = a.t.first\[r\] == at.tile;/at.head = at.tile == 0;/
