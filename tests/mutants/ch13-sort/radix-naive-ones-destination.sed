# step: solutions/ch13-sort/step1-radix-naive
# file: sort.cu
# why: Fig 13.4 line 15 as printed: a one goes to N - ones in total - ones before
s/(N - numOnesTotal + numOnesBefore)/(N - numOnesTotal - numOnesBefore)/
