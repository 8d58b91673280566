# step: solutions/ch13-sort/step9-sample-sort
# file: exchange.c
# why: exchange_messages takes a receive's count from the send side (this rank's bucket (p, j), not rank p's bucket (r, j)): the ranks disagree on the exchange (over NCCL it would never finish)
s/in = plan_bucket_count(plan, p, r \* K + j)/in = plan_bucket_count(plan, r, p * K + j)/
