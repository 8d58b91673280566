# step: solutions/ch12-merge/step6-merge-path
# file: merge_path.cuh
# why: merge_path_search counts a tie as B's (B[j] <= A[i] puts B first): tiles and threads split runs of ties the wrong way
s/if (key_less(B\[diag - 1 - mid\], A\[mid\], key_type))/if (!key_less(A[mid], B[diag - 1 - mid], key_type))/
