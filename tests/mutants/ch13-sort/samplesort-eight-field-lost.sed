# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: split_few.cuh
# why: add_field puts bucket 4 in neither packed word (> for >=): with 5 to 8 buckets, bucket 4's keys get no places of their own in the staged tile
s/        w\[1\] += b >= 4 ? add : 0;/        w[1] += b > 4 ? add : 0;/
