# step: solutions/ch13-sort/step9-sample-sort
# file: phases.cuh
# why: sort_chunks does not wait for its round: a chunk is sorted before its keys have arrived (and while the scatter still reads them)
/cudaStreamWaitEvent(r->sort_stream, r->ev_round\[L->wait_round\[j\]\], 0)/d
