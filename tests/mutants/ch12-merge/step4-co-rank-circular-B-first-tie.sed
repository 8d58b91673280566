# step: solutions/ch12-merge/step4-circular
# file: circular.h
# why: co_rank_circular's second test takes B first on ties (B[j-1] > A[i] instead of >=)
s/MERGE_KEY(B\[j_m_1_cir\]) >= MERGE_KEY(A\[i_cir\])/MERGE_KEY(B[j_m_1_cir]) > MERGE_KEY(A[i_cir])/
