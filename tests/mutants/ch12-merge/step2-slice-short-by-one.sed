# step: solutions/ch12-merge/step2-basic
# file: merge.cu
# why: off-by-one thread slice: k_next one short, so each slice's last output is never written
s|const int k_next = (int)min((int64_t)(tid + 1) \* elementsPerThread, (int64_t)(m + n));|const int k_next = (int)min((int64_t)(tid + 1) * elementsPerThread - 1, (int64_t)(m + n));|
