# step: solutions/ch10-reduction/step7-warp-sync
# file: warp_sync.cuh
# why: missing __syncwarp: sumCommSingleWarpSync is step 6's code again, without even its volatile
# needs: racecheck
/__syncwarp();/d
