# step: solutions/ch12-merge/step4-circular
# file: circular.h
# why: co_rank_circular's circular index without its wrap (A_S_start + i % tile_size): the search reads past its tile and never ends (issue 37 item 1)
0,/const int i_cir = (A_S_start + i) % tile_size;/s//const int i_cir = A_S_start + i % tile_size;/
