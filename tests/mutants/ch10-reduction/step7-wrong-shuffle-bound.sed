# step: solutions/ch10-reduction/step7-warp-sync
# file: warp_sync.cuh
# why: wrong stride bound: offset > 1 skips the last shuffle
s/offset > 0; offset \/= 2/offset > 1; offset \/= 2/
