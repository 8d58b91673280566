# step: solutions/ch12-merge/step6-merge-path
# file: merge_path.cuh
# why: missing __syncthreads after staging the outputs: the copy out reads S before other warps have staged theirs
/the whole tile is staged \*\//d
