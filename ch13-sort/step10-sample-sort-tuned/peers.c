/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step10` gives graded hints. */
/* peers.c - ch13 step 10's exchange by the GPUs' copy engines (tuned.h):
 * each piece a cudaMemcpyPeerAsync on a stream of its own, so the SMs stay
 * with the sorts while the keys cross, and round 0 written by the scatter
 * straight into its receivers' memory, so chunk 0 is in as soon as every
 * scatter is done. Host C over step 9's ranks and messages (exchange.c). */
#include <stdlib.h>

#include "tuned.h"

int ss_peers_reach(const ss_rank *R, int nlocal)
{
    int all = 1;
    for (int i = 0; i < nlocal; i++)
        for (int k = 0; k < nlocal; k++) {
            int can = 0;
            if (R[i].device == R[k].device)
                continue;
            CUDA_CHECK(cudaDeviceCanAccessPeer(&can, R[i].device, R[k].device));
            all &= can;
            if (!can)
                continue;
            CUDA_CHECK(cudaSetDevice(R[i].device));
            const cudaError_t e = cudaDeviceEnablePeerAccess(R[k].device, 0);
            if (e == cudaErrorPeerAccessAlreadyEnabled)
                cudaGetLastError(); /* NCCL may have enabled it */
            else
                CUDA_CHECK(e);
        }
    return all;
}

void ss_peers_open(ss_extra *E, const ss_rank *R, int G)
{
    int least, greatest;
    CUDA_CHECK(cudaSetDevice(R->device));
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    E->pushes = G;
    E->push = (cudaStream_t *)lab_xmalloc(sizeof(cudaStream_t) * (size_t)G);
    E->ev_pushed = (cudaEvent_t *)lab_xmalloc(sizeof(cudaEvent_t) * (size_t)G);
    for (int k = 0; k < G; k++) { /* the comm stream's priority: the pushes go before the sorts */
        CUDA_CHECK(cudaStreamCreateWithPriority(&E->push[k], cudaStreamNonBlocking, greatest));
        CUDA_CHECK(cudaEventCreateWithFlags(&E->ev_pushed[k], cudaEventDisableTiming));
    }
    CUDA_CHECK(cudaEventCreateWithFlags(&E->ev_ready, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&E->ev_sent, cudaEventDisableTiming));
}

void ss_peers_close(ss_extra *E, const ss_rank *R)
{
    CUDA_CHECK(cudaSetDevice(R->device));
    for (int k = 0; k < E->pushes; k++) {
        CUDA_CHECK(cudaStreamDestroy(E->push[k]));
        CUDA_CHECK(cudaEventDestroy(E->ev_pushed[k]));
    }
    if (E->pushes > 0) {
        CUDA_CHECK(cudaEventDestroy(E->ev_ready));
        CUDA_CHECK(cudaEventDestroy(E->ev_sent));
    }
    free(E->push), free(E->ev_pushed);
    E->push = NULL, E->ev_pushed = NULL, E->pushes = 0;
}

/* Sender s's pushes of round j (its messages m[s]; every rank's in m). */
static void push_round(ss_rank *R, ss_extra *E, const ss_config *c, const ss_round *m, int s)
{
    ss_rank *from = &R[s];
    CUDA_CHECK(cudaSetDevice(from->device));
    for (int k = 0; k < m[s].nsend; k++) { /* nsend <= G = pushes */
        const ss_message *out = &m[s].send[k];
        const ss_message *in = ss_message_with(m[out->peer].recv, m[out->peer].nrecv, s);
        if (in == NULL) /* ss_exchange_agree has made sure there is one */
            continue;
        /* TODO(3): push_round(), a piece by the copy engines: on push stream k of the sender
           (E[s].push[k]), wait until both the sender and the receiver have reached this round
           (their ev_ready events), copy the piece (ss_copy_piece: to the receiver's recv at
           in->offset, from the sender's part at out->offset, out->count keys), record ev_pushed[k]
           on it, and make the sender's comm stream wait for that event */
        (void)c, (void)in, (void)from;
    }
    CUDA_CHECK(cudaEventRecord(E[s].ev_sent, from->comm_stream));
}

void ss_peers_push(ss_rank *R, ss_extra *E, const ss_config *c, const ss_round *m, int s)
{
    push_round(R, E, c, m, s);
}

void ss_peers_round(ss_rank *R, ss_extra *E, int nlocal, const ss_config *c, const ss_plan *plan, int j)
{
    ss_round *m = (ss_round *)lab_xmalloc(sizeof(ss_round) * (size_t)nlocal);
    for (int i = 0; i < nlocal; i++) { /* every rank is in this process: R[i].rank == i */
        m[i] = ss_round_alloc(plan->G);
        exchange_messages(plan, R[i].layout, R[i].rank, j, &m[i]);
        CUDA_CHECK(cudaSetDevice(R[i].device));
        CUDA_CHECK(cudaEventRecord(E[i].ev_ready, R[i].comm_stream));
    }
    for (int s = 0; s < nlocal; s++)
        push_round(R, E, c, m, s);
    for (int d = 0; d < nlocal; d++) {
        CUDA_CHECK(cudaSetDevice(R[d].device));
        for (int s = 0; s < nlocal; s++)
            CUDA_CHECK(cudaStreamWaitEvent(R[d].comm_stream, E[s].ev_sent, 0));
    }
    for (int i = 0; i < nlocal; i++)
        ss_round_free(&m[i]);
    free(m);
}

int ss_direct_fits(const ss_rank *R, int nlocal, const ss_plan *plan)
{
    if (nlocal != plan->G || plan->B < 2)
        return 0;
    for (int d = 0; d < nlocal; d++)
        if (R[d].layout->sub_start[1] > R[d].layout->round_end[0] || R[d].cap != R[0].cap)
            return 0;
    return 1;
}

void ss_direct_send_off(const ss_rank *R, int nlocal, const ss_plan *plan, int i, int64_t *send_off)
{
    const intptr_t mine = (intptr_t)R[i].part_k;
    for (int b = 0; b < plan->B; b++)
        send_off[b] = R[i].layout->send_off[b];
    for (int d = 0; d < nlocal; d++) {
        /* TODO(4): ss_direct_send_off(), round 0 straight in: bucket (d, 0) of rank i goes to rank
           d's part, at the place rank d's layout gives rank i's piece of chunk 0
           (R[d].layout->recv_off[i], in rank order); the scatter adds send_off to rank i's own
           part_k, so write it as an offset from there, in keys */
        (void)mine;
    }
}
