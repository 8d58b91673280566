# step: solutions/ch13-sort/step9-sample-sort
# file: exchange.c
# why: exchange_messages receives rank p's piece at the offset of the piece from rank p in round 0 (recv_off[p], not recv_off[j * G + p]): chunks land over each other
s/.offset = L->recv_off\[j \* G + p\]/.offset = L->recv_off[p]/
