# step: solutions/ch13-sort/step10-sample-sort-tuned
# file: peers.c
# why: ss_direct_send_off puts rank i's piece of chunk 0 at rank d's own piece's place (recv_off[d], not recv_off[i]): the scatters of round 0 land over each other in the receivers' part
s/            ((intptr_t)R\[d\].part_k - mine) \/ (intptr_t)sizeof(unsigned int) + R\[d\].layout->recv_off\[i\];/            ((intptr_t)R[d].part_k - mine) \/ (intptr_t)sizeof(unsigned int) + R[d].layout->recv_off[d];/
