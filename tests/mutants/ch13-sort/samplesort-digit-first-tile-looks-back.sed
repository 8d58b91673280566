# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: ch13-sort/step7-onesweep/onesweep.cuh
# why: onesweep_sort_tile's head tile (a segment's first, for seg_pass) looks back anyway (no `at.head ? 0 :`): its look-back walks into the previous segment's tiles and adds their digit counts, so every digit run of the segment starts that many places late and overwrites the next segment (keys and pairs, any chunk of two top bytes or more); step 7's head, tile 0, has no tile before it
s/at.bucket + (at.head ? 0 : onesweep_look_back(status, at.tile, d, count)) - start/at.bucket + onesweep_look_back(status, at.tile, d, count) - start/
