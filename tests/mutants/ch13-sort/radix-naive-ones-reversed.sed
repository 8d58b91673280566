# step: solutions/ch13-sort/step1-radix-naive
# file: sort.cu
# why: an unstable split (destination): the ones land in reverse order at the end, so the next bit's split undoes this one's
s/: (N - numOnesTotal + numOnesBefore);/: (N - 1 - numOnesBefore);/
