# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: ch13-sort/step7-onesweep/onesweep.cuh
# why: onesweep_sort_tile publishes a short tile's padding as keys of digit 255 (the correction deleted): in seg_pass's first pass of pairs, where a top byte has a range per sender, the next sender's keys of low byte 255 start ONESWEEP_TILE - valid places late, past their run, and leave holes (in step 7 only the last tile is short: no tile reads its count)
/if (!any_order && d == ONESWEEP_RADIX - 1)/d
/count -= ONESWEEP_TILE - at.valid;/d
