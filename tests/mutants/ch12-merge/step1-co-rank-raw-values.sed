# step: solutions/ch12-merge/step1-co-rank
# file: co_rank.h
# why: co_rank compares raw values with the right tie rule (A[i-1] > B[j], B[j-1] >= A[i]), not keys
s/MERGE_KEY(A\[i - 1\]) > MERGE_KEY(B\[j\])/A[i - 1] > B[j]/
s/MERGE_KEY(B\[j - 1\]) >= MERGE_KEY(A\[i\])/B[j - 1] >= A[i]/
