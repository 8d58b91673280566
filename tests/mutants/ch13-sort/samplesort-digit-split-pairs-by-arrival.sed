# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: digit_split.cuh
# why: digit_split ranks pairs by arrival at their warp's counter, as keys alone (not onesweep_rank_tile): equal keys in one warp's 32-key row may leave input order, which the later passes keep, so a tie's values (input positions) come out of order; only ties show it, and the split sees ties only in digit_run's --dist few --seed 77 run on two ranks of one chunk (uniform keys almost never repeat within a row), and only where the GPU takes a row's conflicting shared atomics out of lane order
s/onesweep_count_digits(key, DIGIT_SHIFT, s_warp, has_values ? NULL : rank, valid)/onesweep_count_digits(key, DIGIT_SHIFT, s_warp, rank, valid)/
s|        onesweep_rank_tile(key, rank, DIGIT_SHIFT, s_warp + threadIdx.x / 32 \* ONESWEEP_RADIX);|        onesweep_rank_arrivals(key, rank, DIGIT_SHIFT, s_warp + threadIdx.x / 32 * ONESWEEP_RADIX, valid);|
s/if (has_values || rank\[u\] < ONESWEEP_TILE)/if (rank[u] < ONESWEEP_TILE)/
s/^            s_tile\[ONESWEEP_TILE + rank\[u\]\] = value\[u\];/            if (rank[u] < ONESWEEP_TILE) \/* the padding has no place *\/\n                s_tile[ONESWEEP_TILE + rank[u]] = value[u];/
