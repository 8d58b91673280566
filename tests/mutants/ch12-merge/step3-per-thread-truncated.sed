# step: solutions/ch12-merge/step3-tiled
# file: tiled.h
# why: off-by-one tile bound: a tile share of tile_size/blockDim.x outputs drops the tile's tail
s|const int tile_share = ceil_div(tile_size, blockDim.x);|const int tile_share = tile_size / blockDim.x;|
