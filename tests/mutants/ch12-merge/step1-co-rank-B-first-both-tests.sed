# step: solutions/ch12-merge/step1-co-rank
# file: co_rank.h
# why: co_rank's two tests agree on the wrong tie rule: B first (A[i-1] >= B[j], B[j-1] > A[i])
s/MERGE_KEY(A\[i - 1\]) > MERGE_KEY(B\[j\])/MERGE_KEY(A[i - 1]) >= MERGE_KEY(B[j])/
s/MERGE_KEY(B\[j - 1\]) >= MERGE_KEY(A\[i\])/MERGE_KEY(B[j - 1]) > MERGE_KEY(A[i])/
