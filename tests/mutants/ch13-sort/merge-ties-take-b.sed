# step: solutions/ch13-sort/step5-merge-sort
# file: sort.cu
# why: the pair merge breaks ties B first: keys still sorted, equal keys out of input order (unstable)
s/if (A\[i\] <= B\[j\]) {/if (A[i] < B[j]) {/
