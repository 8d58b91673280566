# step: solutions/ch13-sort/step7-onesweep
# file: onesweep_tile.cuh
# why: onesweep_rank_tile puts each key after the same-digit lanes above it, not below: equal digits reversed within every 32 keys (not stable)
s|rank\[u\] = __shfl_sync(ONESWEEP_FULL_WARP, first, last) + __popc(peers \& lanes_before);|rank[u] = __shfl_sync(ONESWEEP_FULL_WARP, first, last) + __popc(peers \& ~lanes_before) - 1;|
