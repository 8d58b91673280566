# step: solutions/ch12-merge/step3-tiled
# file: merge.cu
# why: off-by-one tile bound: tile_size/blockDim.x outputs per thread drop the tile's tail
s|const int per_thread = ceil_div(tile_size, blockDim.x);|const int per_thread = tile_size / blockDim.x;|
