# step: solutions/ch13-sort/step6-sorting-networks
# file: sort.cu
# why: bitonic sort comparing keys alone: it is not stable, equal keys leave their input order
s/return key_a > key_b || (key_a == key_b \&\& idx_a > idx_b);/return key_a > key_b;/
