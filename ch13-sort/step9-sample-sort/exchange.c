/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step9` gives graded hints. */
/* exchange.c - ch13 step 9's exchange, host side: what each rank sends and
 * receives in each round (exchange_messages), the check that every pair of
 * ranks agrees on it before anything is sent (ss_exchange_agree), and the two
 * links that carry it: NCCL between GPUs, device copies between ranks that
 * share one GPU. The sample and the counts travel over the same links
 * (ss_all_gather, ss_all_sum). A sort that does not finish in time is
 * stopped, never left hanging (ss_wait). */
#include <stdlib.h>

#include "rank.h"
#include "sample_watch.h"

ss_round ss_round_alloc(int G)
{
    ss_round m;
    m.nsend = m.nrecv = 0;
    m.send = (ss_message *)lab_xmalloc(sizeof(ss_message) * (size_t)G);
    m.recv = (ss_message *)lab_xmalloc(sizeof(ss_message) * (size_t)G);
    return m;
}

void ss_round_free(ss_round *m)
{
    free(m->send), free(m->recv);
    m->send = m->recv = NULL;
}

void exchange_messages(const ss_plan *plan, const ss_layout *L, int r, int j, ss_round *m)
{
    const int G = plan->G, K = plan->K;
    m->nsend = m->nrecv = 0;
    /* TODO(6): exchange_messages(), the round's messages: for every rank p (r itself included),
       send p its bucket (p, j) of this rank's share, from part offset L->send_off[bucket], and
       receive rank p's piece of this rank's chunk j at recv offset L->recv_off[j * G + p] (the
       layout, ss_layout in plan.h); skip a message of 0 keys */
    (void)G, (void)K, (void)L, (void)r, (void)j;
}

const ss_message *ss_message_with(const ss_message *list, int n, int peer)
{
    for (int i = 0; i < n; i++)
        if (list[i].peer == peer)
            return &list[i];
    return NULL;
}

/* The count of the message with `peer` in a list (0: none). */
static int64_t count_for(const ss_message *list, int n, int peer)
{
    const ss_message *x = ss_message_with(list, n, peer);
    return x != NULL ? x->count : 0;
}

const char *ss_exchange_agree(const ss_plan *plan, const ss_layout *L)
{
    static __thread char why[240];
    const int G = plan->G;
    ss_round *m = (ss_round *)lab_xmalloc(sizeof(ss_round) * (size_t)G);
    const char *verdict = NULL;
    for (int r = 0; r < G; r++)
        m[r] = ss_round_alloc(G);
    for (int j = 0; j < plan->K && verdict == NULL; j++) {
        for (int r = 0; r < G; r++)
            exchange_messages(plan, &L[r], r, j, &m[r]);
        for (int s = 0; s < G && verdict == NULL; s++)
            for (int d = 0; d < G && verdict == NULL; d++) {
                const int64_t sent = count_for(m[s].send, m[s].nsend, d),
                              expected = count_for(m[d].recv, m[d].nrecv, s);
                if (sent != expected) {
                    snprintf(why, sizeof why,
                             "round %d: rank %d sends %lld keys to rank %d, which expects %lld from it: the ranks "
                             "disagree, nothing was sent",
                             j, s, (long long)sent, d, (long long)expected);
                    verdict = why;
                }
            }
    }
    for (int r = 0; r < G; r++)
        ss_round_free(&m[r]);
    free(m);
    return verdict;
}

/* ---- the links ------------------------------------------------------------------ */

void ss_copy_piece(const ss_rank *to, int64_t to_at, const ss_rank *from, int64_t from_at, int64_t count,
                   int with_values, cudaStream_t stream)
{
    const size_t bytes = sizeof(unsigned int) * (size_t)count;
    unsigned int *const dst[2] = {to->keys + to_at, with_values ? to->values + to_at : NULL};
    const unsigned int *const src[2] = {from->part_k + from_at, with_values ? from->part_v + from_at : NULL};
    for (int a = 0; a < (with_values ? 2 : 1); a++)
        if (to->device == from->device)
            CUDA_CHECK(cudaMemcpyAsync(dst[a], src[a], bytes, cudaMemcpyDeviceToDevice, stream));
        else
            CUDA_CHECK(cudaMemcpyPeerAsync(dst[a], to->device, src[a], from->device, bytes, stream));
}

/* A send to itself is a device copy on its comm stream (NCCL too pairs them otherwise). */
static void copy_own_piece(const ss_rank *r, const ss_config *c, const ss_round *m)
{
    const ss_message *out = ss_message_with(m->send, m->nsend, r->rank),
                     *in = ss_message_with(m->recv, m->nrecv, r->rank);
    if (out != NULL && in != NULL)
        ss_copy_piece(r, in->offset, r, out->offset, out->count, c->with_values, r->comm_stream);
}

/* NCCL: each owned rank's sends and receives of the round in one group (keys,
 * then values, in the same order on both sides: NCCL pairs them in order). */
static void round_over_nccl(ss_rank *R, int nlocal, const ss_config *c, const ss_round *m, int j)
{
    NCCL_CHECK(ncclGroupStart());
    for (int i = 0; i < nlocal; i++) {
        const ss_rank *r = &R[i];
        for (int k = 0; k < m[i].nsend; k++) {
            const ss_message *s = &m[i].send[k];
            if (s->peer == r->rank || sample_fault_lost_send(r->rank, j))
                continue;
            NCCL_CHECK(ncclSend(r->part_k + s->offset, (size_t)s->count, ncclUint32, s->peer, r->comm, r->comm_stream));
            if (c->with_values)
                NCCL_CHECK(
                    ncclSend(r->part_v + s->offset, (size_t)s->count, ncclUint32, s->peer, r->comm, r->comm_stream));
        }
        for (int k = 0; k < m[i].nrecv; k++) {
            const ss_message *v = &m[i].recv[k];
            if (v->peer == r->rank)
                continue;
            NCCL_CHECK(ncclRecv(r->keys + v->offset, (size_t)v->count, ncclUint32, v->peer, r->comm, r->comm_stream));
            if (c->with_values)
                NCCL_CHECK(
                    ncclRecv(r->values + v->offset, (size_t)v->count, ncclUint32, v->peer, r->comm, r->comm_stream));
        }
    }
    NCCL_CHECK(ncclGroupEnd());
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        copy_own_piece(&R[i], c, &m[i]);
    }
}

/* Copies: every rank is in this process, on one GPU; each receive is the
 * matching send copied across, on the one stream the ranks share. */
static void round_over_copies(ss_rank *R, int nlocal, const ss_config *c, const ss_round *m)
{
    for (int d = 0; d < nlocal; d++)
        for (int k = 0; k < m[d].nrecv; k++) {
            const ss_message *v = &m[d].recv[k];
            const ss_message *sent = ss_message_with(m[v->peer].send, m[v->peer].nsend, d);
            if (sent != NULL) /* ss_exchange_agree has made sure there is one */
                ss_copy_piece(&R[d], v->offset, &R[v->peer], sent->offset, v->count, c->with_values, R[d].comm_stream);
        }
}

void ss_exchange_round(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, int j)
{
    ss_round *m = (ss_round *)lab_xmalloc(sizeof(ss_round) * (size_t)nlocal);
    for (int i = 0; i < nlocal; i++) {
        m[i] = ss_round_alloc(plan->G);
        exchange_messages(plan, R[i].layout, R[i].rank, j, &m[i]);
    }
    for (int i = 0; i < nlocal; i++)
        sample_fault_stall(R[i].rank, j);
    if (c->link == SS_LINK_NCCL)
        round_over_nccl(R, nlocal, c, m, j);
    else
        round_over_copies(R, nlocal, c, m);
    for (int i = 0; i < nlocal; i++)
        ss_round_free(&m[i]);
    free(m);
}

void ss_all_gather(ss_rank *R, int nlocal, const ss_config *c, void *const *bufs, size_t bytes)
{
    if (c->G == 1) /* one rank holds every slot already */
        return;
    if (c->link == SS_LINK_NCCL) {
        NCCL_CHECK(ncclGroupStart());
        for (int i = 0; i < nlocal; i++)
            NCCL_CHECK(ncclAllGather((char *)bufs[i] + bytes * (size_t)R[i].rank, bufs[i], bytes, ncclUint8, R[i].comm,
                                     R[i].comm_stream));
        NCCL_CHECK(ncclGroupEnd());
        return;
    }
    for (int i = 0; i < nlocal; i++)
        for (int k = 0; k < nlocal; k++)
            if (k != i)
                CUDA_CHECK(cudaMemcpyAsync((char *)bufs[i] + bytes * (size_t)k,
                                           (const char *)bufs[k] + bytes * (size_t)k, bytes, cudaMemcpyDeviceToDevice,
                                           R[i].comm_stream));
}

void ss_all_sum(ss_rank *R, int nlocal, const ss_config *c, uint64_t *const *bufs, size_t count)
{
    if (c->G == 1)
        return;
    if (c->link == SS_LINK_NCCL) {
        NCCL_CHECK(ncclGroupStart());
        for (int i = 0; i < nlocal; i++)
            NCCL_CHECK(ncclAllReduce(bufs[i], bufs[i], count, ncclUint64, ncclSum, R[i].comm, R[i].comm_stream));
        NCCL_CHECK(ncclGroupEnd());
        return;
    }
    uint64_t *sum = (uint64_t *)calloc(count, sizeof(uint64_t)),
             *one = (uint64_t *)lab_xmalloc(sizeof(uint64_t) * count);
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaMemcpyAsync(one, bufs[i], sizeof(uint64_t) * count, cudaMemcpyDeviceToHost, R[i].comm_stream));
        CUDA_CHECK(cudaStreamSynchronize(R[i].comm_stream));
        for (size_t k = 0; k < count; k++)
            sum[k] += one[k];
    }
    for (int i = 0; i < nlocal; i++) {
        CUDA_CHECK(cudaMemcpyAsync(bufs[i], sum, sizeof(uint64_t) * count, cudaMemcpyHostToDevice, R[i].comm_stream));
        CUDA_CHECK(cudaStreamSynchronize(R[i].comm_stream));
    }
    free(sum), free(one);
}

void ss_wait(ss_rank *R, int nlocal, const ss_config *c)
{
    sample_watched *w = (sample_watched *)lab_xmalloc(sizeof(sample_watched) * (size_t)nlocal);
    for (int i = 0; i < nlocal; i++)
        w[i] = (sample_watched){.rank = R[i].rank,
                                .device = R[i].device,
                                .stream = {R[i].comm_stream, R[i].sort_stream},
                                .comm = c->link == SS_LINK_NCCL ? R[i].comm : NULL};
    sample_watch(w, nlocal, sample_watch_limit(c->timeout_s, c->N, c->G, c->with_values));
    free(w);
}
