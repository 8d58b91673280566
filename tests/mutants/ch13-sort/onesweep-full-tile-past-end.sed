# step: solutions/ch13-sort/step7-onesweep
# file: onesweep_tile.cuh
# why: onesweep_load_tile takes the full tile's path (no test per key) for a last tile that is more than half full: its keys past n are whatever lies there, not the padding (digit 255, last), so they are counted and ranked among the tile's keys (every n that leaves a last tile over half full)
s/^    if (valid == ONESWEEP_TILE) {$/    if (valid > ONESWEEP_TILE \/ 2) {/
