# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: split_few.cuh
# why: key_cuts forgets that a splitter whose position lies past the tile puts every item of its key below it: the stage by keys sends a run of equal keys cut by position to the wrong side (keys right in count, runs out of their splitters)
s/        cut\[t\] = x == 0 ? key : key + 1u;/        cut[t] = key;/
