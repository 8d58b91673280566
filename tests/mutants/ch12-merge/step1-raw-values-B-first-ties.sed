# step: solutions/ch12-merge/step1-co-rank
# file: co_rank.h
# why: issue 10's student: raw values, B first on ties, in both (A[i] < B[j]; B[j-1] > A[i])
s/if (MERGE_KEY(A\[i\]) <= MERGE_KEY(B\[j\]))/if (A[i] < B[j])/
s/MERGE_KEY(A\[i - 1\]) > MERGE_KEY(B\[j\])/A[i - 1] > B[j]/
s/MERGE_KEY(B\[j - 1\]) >= MERGE_KEY(A\[i\])/B[j - 1] > A[i]/
