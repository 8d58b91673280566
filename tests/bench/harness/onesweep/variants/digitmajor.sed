# digitmajor: the status words laid out [digit][tile] (one digit's tiles together) instead of
# [tile][digit]: a block's 256 threads of a digit (of its 384) then write and read 256 words
# 4*tiles bytes apart.
s/status\[(size_t)tile \* ONESWEEP_RADIX + d\]/status[(size_t)d * gridDim.x + tile]/g
