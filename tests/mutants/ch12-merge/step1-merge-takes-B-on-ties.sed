# step: solutions/ch12-merge/step1-co-rank
# file: co_rank.h
# why: B-first tie in merge_sequential (A[i] < B[j] instead of <=)
s/if (MERGE_KEY(A\[i\]) <= MERGE_KEY(B\[j\]))/if (MERGE_KEY(A[i]) < MERGE_KEY(B[j]))/
