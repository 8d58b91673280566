# step: solutions/ch10-reduction/step7-warp-sync
# file: warp_sync.cuh
# why: wrong identity: the shuffle form pads the missing warps' results with 0, right for a sum only
s/? r\[idx\] : reduce_identity(kind);/? r[idx] : 0;/
