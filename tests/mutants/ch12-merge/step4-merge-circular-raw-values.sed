# step: solutions/ch12-merge/step4-circular
# file: circular.h
# why: merge_sequential_circular compares raw values (A[i_cir] <= B[j_cir]), not keys
s/if (MERGE_KEY(A\[i_cir\]) <= MERGE_KEY(B\[j_cir\]))/if (A[i_cir] <= B[j_cir])/
