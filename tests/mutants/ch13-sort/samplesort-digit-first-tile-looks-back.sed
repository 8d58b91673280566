# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: segments.cuh
# why: seg_pass's segment first tile looks back anyway (no `first ? 0 :`): its look-back walks into the previous segment's tiles and adds their digit counts, so every digit run of the segment starts that many places late and overwrites the next segment (keys and pairs, any chunk of two top bytes or more)
s/bucket + (first ? 0 : onesweep_look_back(a.status, tile, d, count)) - start/bucket + onesweep_look_back(a.status, tile, d, count) - start/
