# step: solutions/ch13-sort/step9-sample-sort
# file: plan.h
# why: the cut compares keys alone: every copy of a repeated key lands in one bucket (one GPU gets all of an all-equal input)
s/const int le = (sk < key) | ((sk == key) \& (split_pos\[mid\] <= pos));/const int le = sk <= key;/
