# load-streaming: a full tile's keys and values loaded with __ldcs (ld.global.cs: read once, evicted
# first), so L2 keeps the status words and the scatter's partly written sectors, not the input
s|^            x\[u\] = from\[u \* 32\];$|            x[u] = __ldcs(from + u * 32);|
