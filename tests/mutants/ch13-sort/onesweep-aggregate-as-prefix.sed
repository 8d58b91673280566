# step: solutions/ch13-sort/step7-onesweep
# file: onesweep_look_back.cuh
# why: onesweep_look_back stops at the first word published, taking an aggregate (one tile's count) for an inclusive prefix (every tile before)
s|done = (word\[k\] \& ONESWEEP_STATUS_INCLUSIVE) != 0; /\* a prefix covers every tile before it \*/|done = 1; /* any published word ends the walk */|
