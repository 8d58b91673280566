# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: runs.cuh
# why: a warp's run gives key u of a lane the arrival of its lane alone (u * 32 dropped): the K keys of a lane share one place in the tile sorted by digit, K - 1 of them lost (keys alone, sorted and reversed keys)
s/arrival\[u\] = u \* 32 + lane;/arrival[u] = lane;/
