# step: solutions/ch12-merge/step4-circular
# file: circular.h
# why: co_rank_circular's two tests disagree on ties: both move (A[i-1] >= B[j]), so a tie loops
s/MERGE_KEY(A\[i_m_1_cir\]) > MERGE_KEY(B\[j_cir\])/MERGE_KEY(A[i_m_1_cir]) >= MERGE_KEY(B[j_cir])/
