# step: solutions/ch12-merge/step1-co-rank
# file: co_rank.h
# why: B-first tie in co_rank (B[j-1] > A[i] instead of >=)
s/MERGE_KEY(B\[j - 1\]) >= MERGE_KEY(A\[i\])/MERGE_KEY(B[j - 1]) > MERGE_KEY(A[i])/
