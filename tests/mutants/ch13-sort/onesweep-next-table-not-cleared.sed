# step: solutions/ch13-sort/step7-onesweep
# file: onesweep.cuh
# why: a pass does not clear its tile's words of the other status table, so the pass after next finds the words of two passes before it (ready, and wrong) and adds them up
s|^        a.status\[(pass + 1) % 2 \* ONESWEEP_LOOKBACK_WORDS(a.tiles) + (size_t)at.tile \* ONESWEEP_RADIX + d\] = 0;|        (void)0; /* the other table left as it is */|
