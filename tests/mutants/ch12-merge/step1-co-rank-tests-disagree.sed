# step: solutions/ch12-merge/step1-co-rank
# file: co_rank.h
# why: co_rank's two tests disagree on ties: both move (A[i-1] >= B[j], B[j-1] >= A[i]), so a tie loops
s/MERGE_KEY(A\[i - 1\]) > MERGE_KEY(B\[j\])/MERGE_KEY(A[i - 1]) >= MERGE_KEY(B[j])/
