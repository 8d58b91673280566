# step: solutions/ch13-sort/step9-sample-sort
# file: partition.cuh
# why: rank_in_warp ranks a lane after the lanes above it: a bucket's keys leave their input order (keys right, values wrong)
s/before + __popc(peers \& ((1u << lane) - 1u))/before + __popc(peers \& ~((2u << lane) - 1u))/
