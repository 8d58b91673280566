/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step9` gives graded hints. */
/* exchange.c - ch13 step 9's exchange, host side: what each rank sends and
 * receives in each round (exchange_messages), the check that every pair of
 * ranks agrees on it before anything is sent (ss_exchange_agree), and the two
 * links that carry it: NCCL between GPUs, device copies between ranks that
 * share one GPU. The sample and the counts travel over the same links
 * (ss_all_gather, ss_all_sum). A sort that does not finish in time is
 * stopped, never left hanging (ss_wait). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sample_sort.h"

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
    const int G = plan->G, K = plan->K, F = plan->F;
    m->nsend = m->nrecv = 0;
    /* TODO(4): exchange_messages(), the round's messages: for every rank p (r itself included),
       send p its bucket (p, j) of this rank's share, and receive rank p's piece of this rank's
       chunk j; skip a message of 0 keys */
    (void)G, (void)K, (void)F, (void)L, (void)r, (void)j;
}

/* The message with `peer` in a list of n (one at most: exchange_messages), or NULL. */
static const ss_message *message_with(const ss_message *list, int n, int peer)
{
    for (int i = 0; i < n; i++)
        if (list[i].peer == peer)
            return &list[i];
    return NULL;
}

/* The count of the message with `peer` in a list (0: none). */
static int64_t count_for(const ss_message *list, int n, int peer)
{
    const ss_message *x = message_with(list, n, peer);
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

/* One piece copied on `stream`: `count` keys (and values) from `from`'s part at from_at to
 * `to`'s receive buffer at to_at; across GPUs by their copy engines. */
static void copy_piece(const ss_rank *to, int64_t to_at, const ss_rank *from, int64_t from_at, int64_t count,
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
    const ss_message *out = message_with(m->send, m->nsend, r->rank), *in = message_with(m->recv, m->nrecv, r->rank);
    if (out != NULL && in != NULL)
        copy_piece(r, in->offset, r, out->offset, out->count, c->with_values, r->comm_stream);
}

/* A test's faults (tests/ch13-sort/sample_sort.c), named by LAB_SS_FAULT in the environment:
 * lose-send: rank 1 keeps its sends of round 0 back, as a lost message would;
 * stall: rank 1 stops for 30 s before round 0 of its second sort (its links made in the first),
 * as a hung peer would. Either way its peers' exchange waits on the GPU, and NCCL or the
 * watchdog (ss_wait) must stop the run. */
static int fault_is(const char *name)
{
    const char *f = getenv("LAB_SS_FAULT");
    return f != NULL && strcmp(f, name) == 0;
}

static int lost_send(int rank, int j)
{
    return fault_is("lose-send") && rank == 1 && j == 0;
}

static void stall_if_asked(const ss_rank *R, int nlocal, int j)
{
    static int first_rounds = 0;
    for (int i = 0; i < nlocal && j == 0 && fault_is("stall"); i++)
        if (R[i].rank == 1 && ++first_rounds == 2) {
            struct timespec stop = {30, 0};
            nanosleep(&stop, NULL);
        }
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
            if (s->peer == r->rank || lost_send(r->rank, j))
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
            const ss_message *sent = message_with(m[v->peer].send, m[v->peer].nsend, d);
            if (sent != NULL) /* ss_exchange_agree has made sure there is one */
                copy_piece(&R[d], v->offset, &R[v->peer], sent->offset, v->count, c->with_values, R[d].comm_stream);
        }
}

/* Copy engines: the ranks are GPUs of this process; each sender pushes each
 * piece (cudaMemcpyPeerAsync: the copy engines carry them over the link, and
 * the SMs stay with the sorts) on a stream of its own, once the sender and
 * that receiver have reached this round on their comm streams, and every
 * receiver's comm stream goes on only when every push of the round is done,
 * as after NCCL's grouped calls. */
static void round_over_peers(ss_rank *R, int nlocal, const ss_config *c, const ss_round *m)
{
    for (int d = 0; d < nlocal; d++) {
        CUDA_CHECK(cudaSetDevice(R[d].device));
        CUDA_CHECK(cudaEventRecord(R[d].ev_ready, R[d].comm_stream));
    }
    for (int s = 0; s < nlocal; s++) {
        ss_rank *from = &R[s];
        CUDA_CHECK(cudaSetDevice(from->device));
        for (int k = 0; k < m[s].nsend; k++) { /* nsend <= G = from->pushes */
            const ss_message *out = &m[s].send[k];
            const ss_message *in = message_with(m[out->peer].recv, m[out->peer].nrecv, s);
            if (in == NULL) /* ss_exchange_agree has made sure there is one */
                continue;
            cudaStream_t push = from->push[k];
            CUDA_CHECK(cudaStreamWaitEvent(push, from->ev_ready, 0));
            CUDA_CHECK(cudaStreamWaitEvent(push, R[out->peer].ev_ready, 0));
            copy_piece(&R[out->peer], in->offset, from, out->offset, out->count, c->with_values, push);
            CUDA_CHECK(cudaEventRecord(from->ev_pushed[k], push));
            CUDA_CHECK(cudaStreamWaitEvent(from->comm_stream, from->ev_pushed[k], 0));
        }
        CUDA_CHECK(cudaEventRecord(from->ev_sent, from->comm_stream));
    }
    for (int d = 0; d < nlocal; d++) {
        CUDA_CHECK(cudaSetDevice(R[d].device));
        for (int s = 0; s < nlocal; s++)
            CUDA_CHECK(cudaStreamWaitEvent(R[d].comm_stream, R[s].ev_sent, 0));
    }
}

void ss_link_peers(ss_rank *R, int nlocal)
{
    for (int i = 0; i < nlocal; i++)
        R[i].reaches_peers = 1;
    for (int i = 0; i < nlocal; i++)
        for (int k = 0; k < nlocal; k++) {
            int can = 0;
            if (R[i].device == R[k].device)
                continue;
            CUDA_CHECK(cudaDeviceCanAccessPeer(&can, R[i].device, R[k].device));
            R[i].reaches_peers &= can;
            if (!can)
                continue; /* cudaMemcpyPeerAsync still copies, through the host */
            CUDA_CHECK(cudaSetDevice(R[i].device));
            const cudaError_t e = cudaDeviceEnablePeerAccess(R[k].device, 0);
            if (e == cudaErrorPeerAccessAlreadyEnabled)
                cudaGetLastError(); /* NCCL may have enabled it */
            else
                CUDA_CHECK(e);
        }
}

void ss_exchange_round(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, int j)
{
    ss_round *m = (ss_round *)lab_xmalloc(sizeof(ss_round) * (size_t)nlocal);
    for (int i = 0; i < nlocal; i++) {
        m[i] = ss_round_alloc(plan->G);
        exchange_messages(plan, R[i].layout, R[i].rank, j, &m[i]);
    }
    stall_if_asked(R, nlocal, j);
    if (c->link == SS_LINK_NCCL && c->copy_engines)
        round_over_peers(R, nlocal, c, m);
    else if (c->link == SS_LINK_NCCL)
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

/* ---- the watchdog ------------------------------------------------------------------ */

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* 1 when both of rank r's streams are idle; a stream's error stops the run. */
static int streams_done(const ss_rank *r)
{
    const cudaStream_t s[2] = {r->comm_stream, r->sort_stream};
    for (int k = 0; k < 2; k++) {
        const cudaError_t e = cudaStreamQuery(s[k]);
        if (e == cudaErrorNotReady)
            return 0;
        CUDA_CHECK(e);
    }
    return 1;
}

void ss_wait(ss_rank *R, int nlocal, const ss_config *c)
{
    const double share_gb = (double)c->N / c->G * sizeof(unsigned int) * (c->with_values ? 2 : 1) * 1e-9;
    const double limit = c->timeout_s > 0 ? c->timeout_s : 5.0 + share_gb;
    const double start = seconds();
    for (int i = 0; i < nlocal;) {
        CUDA_CHECK(cudaSetDevice(R[i].device));
        if (streams_done(&R[i])) {
            i++;
            continue;
        }
        if (seconds() - start > limit) {
            fprintf(stderr,
                    "FAIL: rank %d's sort did not finish within %.1f s (an exchange that never completes?): "
                    "aborting%s and stopping\n",
                    R[i].rank, limit, c->link == SS_LINK_NCCL ? " its NCCL communicators" : "");
            fflush(stdout), fflush(stderr);
            for (int k = 0; k < nlocal && c->link == SS_LINK_NCCL; k++)
                ncclCommAbort(R[k].comm);
            _Exit(LAB_EXIT_FAIL);
        }
        struct timespec nap = {0, 50000}; /* 50 us between looks */
        nanosleep(&nap, NULL);
    }
}
