# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: segments.cuh
# why: seg_pass publishes a short tile's padding as keys of digit 255 (the correction deleted): in the first pass of pairs, where a top byte has a range per sender, the next sender's keys of low byte 255 start ONESWEEP_TILE - valid places late, past their run, and leave holes
/if (!any_order && d == ONESWEEP_RADIX - 1)/d
/count -= ONESWEEP_TILE - valid;/d
