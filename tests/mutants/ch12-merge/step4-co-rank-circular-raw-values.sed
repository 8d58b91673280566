# step: solutions/ch12-merge/step4-circular
# file: circular.h
# why: co_rank_circular compares raw values with the right tie rule, not keys
s/MERGE_KEY(A\[i_m_1_cir\]) > MERGE_KEY(B\[j_cir\])/A[i_m_1_cir] > B[j_cir]/
s/MERGE_KEY(B\[j_m_1_cir\]) >= MERGE_KEY(A\[i_cir\])/B[j_m_1_cir] >= A[i_cir]/
