# step: solutions/ch10-reduction/step6-warp-volatile
# file: reduce.cu
# why: wrong identity: pads the missing warps with 0, right for a sum only
s/: reduce_identity(kind);/: 0;/
