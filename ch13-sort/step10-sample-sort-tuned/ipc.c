/* ipc.c - ch13 step 10's copy engines across processes (tuned.h): under
 * `mpirun -np G ./run` on one node, each process opens every other's buffers
 * and events by CUDA IPC, so round 0 goes straight into its receivers and
 * the later rounds by the copy engines, as between the GPUs of one process
 * (peers.c), where NCCL's kernels carried them before. One process cannot
 * wait on another's event before that one has recorded it, so the processes
 * meet on the host (c->node->meet) between a record and the waits on it: a
 * few microseconds a round, while the GPUs run ahead. A peer that never
 * comes stops the run as the watchdog does (sample_watch.h). Host C. */
#include <stdlib.h>
#include <string.h>

#include "sample_watch.h"
#include "tuned.h"

/* Every process of the node here, within the watchdog's limit; else one line and stop. */
static void meet(const ss_rank *r, const ss_config *c)
{
    const double limit = sample_watch_limit(c->timeout_s, c->N, c->G, c->with_values);
    if (!c->node->meet(limit)) {
        const sample_watched w = {r->rank, r->device, {r->comm_stream, r->sort_stream}, r->comm};
        sample_watch_stop(&w, 1, 0, limit);
    }
}

/* What a process tells the others about its rank. */
typedef struct {
    cudaIpcMemHandle_t keys, values, part;
    cudaIpcEventHandle_t ready, sent, scattered;
} ipc_card;

/* The ordinal here of the GPU whose UUID is u, or -1 where this process does not see it. */
static int ordinal_of(const cudaUUID_t *u)
{
    int n = 0;
    CUDA_CHECK(cudaGetDeviceCount(&n));
    for (int d = 0; d < n; d++) {
        struct cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, d));
        if (memcmp(&prop.uuid, u, sizeof *u) == 0)
            return d;
    }
    return -1;
}

int ss_ipc_reach(const ss_rank *r, const ss_config *c)
{
    /* by UUID, not ordinal: a process may see other GPUs, or only its own (CUDA_VISIBLE_DEVICES a process) */
    cudaUUID_t *uuid = (cudaUUID_t *)lab_xmalloc(sizeof(cudaUUID_t) * (size_t)c->G);
    int *reach = (int *)lab_xmalloc(sizeof(int) * (size_t)c->G);
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, r->device));
    c->node->gather(&prop.uuid, uuid, sizeof(cudaUUID_t));
    int mine = 1, all = 1;
    for (int d = 0; d < c->G; d++) {
        const int at = ordinal_of(&uuid[d]);
        int can = at >= 0; /* a GPU this process cannot see: no way to ask, so NCCL */
        if (at >= 0 && at != r->device)
            CUDA_CHECK(cudaDeviceCanAccessPeer(&can, r->device, at));
        mine &= can;
    }
    c->node->gather(&mine, reach, sizeof(int));
    for (int d = 0; d < c->G; d++)
        all &= reach[d];
    free(uuid), free(reach);
    return all;
}

/* An event other processes can wait on (interprocess events keep no time). */
static cudaEvent_t shared_event(void)
{
    cudaEvent_t e;
    CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming | cudaEventInterprocess));
    return e;
}

static void *opened(cudaIpcMemHandle_t h)
{
    void *p = NULL;
    CUDA_CHECK(cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess));
    return p;
}

void ss_ipc_open(ss_ipc *P, ss_rank *r, ss_extra *E, const ss_config *c)
{
    const int G = c->G;
    P->G = G, P->self = r->rank;
    P->view = (ss_rank *)calloc((size_t)G, sizeof(ss_rank));
    P->ev = (ss_extra *)calloc((size_t)G, sizeof(ss_extra));
    P->scattered = (cudaEvent_t *)calloc((size_t)G, sizeof(cudaEvent_t));
    P->layouts = (ss_layout *)calloc((size_t)G, sizeof(ss_layout));
    CUDA_CHECK(cudaSetDevice(r->device));
    CUDA_CHECK(cudaEventDestroy(E->ev_ready)); /* peers.c's, made so the other processes can wait on them */
    CUDA_CHECK(cudaEventDestroy(E->ev_sent));
    E->ev_ready = shared_event(), E->ev_sent = shared_event(), P->scattered[P->self] = shared_event();
    ipc_card mine, *all = (ipc_card *)lab_xmalloc(sizeof(ipc_card) * (size_t)G);
    memset(&mine, 0, sizeof mine);
    CUDA_CHECK(cudaIpcGetMemHandle(&mine.keys, r->keys));
    if (c->with_values)
        CUDA_CHECK(cudaIpcGetMemHandle(&mine.values, r->values));
    CUDA_CHECK(cudaIpcGetMemHandle(&mine.part, r->part_k)); /* part_v lies in the same buffer */
    CUDA_CHECK(cudaIpcGetEventHandle(&mine.ready, E->ev_ready));
    CUDA_CHECK(cudaIpcGetEventHandle(&mine.sent, E->ev_sent));
    CUDA_CHECK(cudaIpcGetEventHandle(&mine.scattered, P->scattered[P->self]));
    c->node->gather(&mine, all, sizeof(ipc_card));
    for (int d = 0; d < G; d++) {
        ss_rank *v = &P->view[d];
        if (d == P->self)
            continue;
        v->rank = d, v->device = r->device; /* a mapped buffer is reached through this process's GPU */
        v->cap = plan_capacity(c->N, G, c->K, c->slack, d);
        v->keys = (unsigned int *)opened(all[d].keys);
        v->values = c->with_values ? (unsigned int *)opened(all[d].values) : NULL;
        v->part_k = (unsigned int *)opened(all[d].part);
        v->part_v = c->with_values ? v->part_k + v->cap : NULL;
        v->layout = &P->layouts[d];
        CUDA_CHECK(cudaIpcOpenEventHandle(&P->ev[d].ev_ready, all[d].ready));
        CUDA_CHECK(cudaIpcOpenEventHandle(&P->ev[d].ev_sent, all[d].sent));
        CUDA_CHECK(cudaIpcOpenEventHandle(&P->scattered[d], all[d].scattered));
    }
    free(all);
    P->view[P->self] = *r, P->ev[P->self] = *E; /* its buffers, streams and layout stay as set up */
}

void ss_ipc_views(ss_ipc *P, const ss_plan *plan)
{
    for (int d = 0; d < P->G; d++) /* view[self] points at this rank's own layout, set by lay_out */
        if (d != P->self)
            plan_layout(plan, d, P->view[d].cap, P->view[d].cap, P->view[d].layout); /* as lay_out found it */
}

void ss_ipc_scattered(ss_ipc *P, const ss_rank *r, const ss_config *c)
{
    CUDA_CHECK(cudaSetDevice(r->device));
    sample_fault_stall(r->rank, 0); /* a test's hung peer (LAB_SS_FAULT=stall) */
    CUDA_CHECK(cudaEventRecord(P->scattered[P->self], r->comm_stream));
    meet(r, c); /* every scatter's event recorded before any process waits on it */
    for (int s = 0; s < P->G; s++)
        CUDA_CHECK(cudaStreamWaitEvent(r->comm_stream, P->scattered[s], 0));
}

void ss_ipc_round(ss_ipc *P, const ss_config *c, const ss_plan *plan, int j)
{
    ss_round *m = (ss_round *)lab_xmalloc(sizeof(ss_round) * (size_t)P->G);
    for (int d = 0; d < P->G; d++) { /* every rank's messages: a push looks up its receive */
        m[d] = ss_round_alloc(plan->G);
        exchange_messages(plan, P->view[d].layout, d, j, &m[d]);
    }
    const ss_rank *r = &P->view[P->self];
    CUDA_CHECK(cudaSetDevice(r->device));
    CUDA_CHECK(cudaEventRecord(P->ev[P->self].ev_ready, r->comm_stream));
    meet(r, c); /* every rank's ev_ready of this round recorded */
    ss_peers_push(P->view, P->ev, c, m, P->self);
    meet(r, c); /* every rank's ev_sent of this round recorded */
    for (int s = 0; s < P->G; s++)
        CUDA_CHECK(cudaStreamWaitEvent(r->comm_stream, P->ev[s].ev_sent, 0));
    for (int d = 0; d < P->G; d++)
        ss_round_free(&m[d]);
    free(m);
}

void ss_ipc_close(ss_ipc *P, const ss_config *c)
{
    if (P->view == NULL)
        return;
    meet(&P->view[P->self], c); /* no process uses another's buffers or events any more */
    for (int d = 0; d < P->G; d++) {
        if (d == P->self) {
            CUDA_CHECK(cudaEventDestroy(P->scattered[d]));
            continue;
        }
        CUDA_CHECK(cudaIpcCloseMemHandle(P->view[d].keys));
        if (P->view[d].values != NULL)
            CUDA_CHECK(cudaIpcCloseMemHandle(P->view[d].values));
        CUDA_CHECK(cudaIpcCloseMemHandle(P->view[d].part_k));
        CUDA_CHECK(cudaEventDestroy(P->ev[d].ev_ready));
        CUDA_CHECK(cudaEventDestroy(P->ev[d].ev_sent));
        CUDA_CHECK(cudaEventDestroy(P->scattered[d]));
    }
    meet(&P->view[P->self], c); /* every mapping closed before any process frees what it maps */
    free(P->view), free(P->ev), free(P->scattered), free(P->layouts);
    memset(P, 0, sizeof *P);
}
