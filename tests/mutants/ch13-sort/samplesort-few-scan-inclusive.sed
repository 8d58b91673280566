# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: split_few.cuh
# why: split_few's block scan returns the packed counts up to and including this thread's own: each thread's keys land one run too far, over the next thread's
s/    return before + upto - mine;/    return before + upto;/
