# step: solutions/ch12-merge/step4-circular
# file: circular.h
# why: merge_sequential_circular takes B first on ties (< instead of <=)
s/if (MERGE_KEY(A\[i_cir\]) <= MERGE_KEY(B\[j_cir\]))/if (MERGE_KEY(A[i_cir]) < MERGE_KEY(B[j_cir]))/
