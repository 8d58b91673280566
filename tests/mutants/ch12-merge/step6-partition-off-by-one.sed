# step: solutions/ch12-merge/step6-merge-path
# file: merge.cu
# why: partition_tiles co-ranks the previous tile's last output (t * MP_TILE - 1) at every inner tile edge
s/const int diag = (int)min((int64_t)t \* MP_TILE, (int64_t)m + n);/const int diag = (int)min((int64_t)t * MP_TILE - (t > 0 \&\& t < ntiles), (int64_t)m + n);/
