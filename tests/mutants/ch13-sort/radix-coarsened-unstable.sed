# step: solutions/ch13-sort/step4-radix-coarsened
# file: sort.cu
# why: an unstable coarsened split (split_tile_by_bit): the tile's ones land in reverse order
s/: (numZerosTotal + numOnesBefore);/: (tile - 1 - numOnesBefore);/
