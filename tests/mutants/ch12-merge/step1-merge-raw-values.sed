# step: solutions/ch12-merge/step1-co-rank
# file: co_rank.h
# why: merge_sequential compares raw values (A[i] <= B[j]), not keys: the tags' scrambled order breaks ties
s/if (MERGE_KEY(A\[i\]) <= MERGE_KEY(B\[j\]))/if (A[i] <= B[j])/
