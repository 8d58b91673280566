/* rank.h - one rank of step 9's sort as its files share it: its device,
 * streams, buffers and events (ss_rank), the ranks this process owns with
 * their last sort (ss_ranks), and the exchange's functions (exchange.c): the
 * messages of a round, the check that the ranks agree on them, the links
 * that carry them, and the watchdog that stops a sort that never ends. */
#ifndef SS_RANK_H
#define SS_RANK_H

#include "plan.h"
#include "sample_sort.h"

LAB_BEGIN_C

/* One rank's device, communicator, streams and buffers. */
typedef struct {
    int rank, device;
    ncclComm_t comm;               /* SS_LINK_NCCL */
    cudaStream_t comm_stream;      /* sample, partition and exchange (high priority: NCCL's blocks go first);
                                      ranks that share a GPU share it, and the sort stream */
    cudaStream_t sort_stream;      /* the sorts of the chunks, each after its round */
    int owns_streams;              /* 0: rank 0's, shared */
    int64_t start, n;              /* this rank's share of the input: positions [start, start + n) */
    int64_t cap;                   /* keys of room in keys and in part */
    unsigned int *keys, *values;   /* the share, in; then the received chunks (recv); then, or part, the run */
    unsigned int *part_k, *part_v; /* the partitioned share; then the sorts' second buffer (part_v = part_k + cap) */
    unsigned int *run_k, *run_v;   /* after a sort: this rank's part of the output, run_n keys */
    int64_t run_n;
    int run_in_keys;            /* the sorts' runs lie in keys (1), in part (0), not yet known (-1) */
    int64_t *sample_pos_d;      /* S positions in the share */
    unsigned int *sample_d;     /* G * S gathered sample keys */
    int sample_used;            /* the positions that hold a key (fewer than S in a small share) */
    unsigned int *split_key_d;  /* the B - 1 splitters: keys, */
    uint64_t *split_pos_d;      /* and positions */
    int cols;                   /* blocks of the count and scatter kernels: the table's columns */
    int64_t chunk;              /* keys per block */
    unsigned int *table_d;      /* B x cols: keys of each block in each bucket */
    uint64_t *row_prefix_d;     /* B x cols: where each block's keys of a bucket start in it */
    uint64_t *counts_d;         /* G x B: every rank's bucket totals (gathered) */
    int64_t *send_off_d;        /* B: part offsets of the buckets (the layout's send_off) */
    uint64_t *check_d;          /* the checks' sums */
    void *sort_temp;            /* the local sort's tables, */
    size_t sort_temp_bytes;     /* their bytes */
    ss_layout *layout;          /* host: where everything lies on this rank */
    int chunks;                 /* K, for the events */
    cudaEvent_t *ev_round;      /* K: round j's keys have arrived (and left) */
    cudaEvent_t *ev_sort_begin; /* K: chunk j's sort starts, */
    cudaEvent_t *ev_sort_done;  /* and ends (its device time) */
    cudaEvent_t ev_begin, ev_scatter_begin, ev_scatter_end, ev_rounds_end, ev_sort_end;
    size_t bytes_allocated; /* every device buffer above */
    size_t free_before;     /* cudaMemGetInfo before this rank's buffers */
} ss_rank;

/* An order-independent hash of a rank's input (or output) keys and pairs, and their count. */
typedef struct {
    uint64_t keys, pairs, count;
} ss_hash;

/* The ranks this process owns, set up for one configuration, and their last sort. */
typedef struct {
    ss_config c;
    int nlocal;
    ss_rank *R;
    ss_plan plan;              /* the last sort's */
    ss_hash *in;               /* each rank's input, before the last sort */
    unsigned int *host_sample; /* G x S: the gathered sample, on the host */
    uint64_t *host_counts;     /* G x B: every rank's counts, on the host */
} ss_ranks;

/* What steps 9 and 10 both say in their descriptors: the defaults of a run,
 * -n's default and limit, and up to where the CPU reference checks. */
#define SS_DEFAULTS                                                      \
    {                                                                    \
        .G = 1, .K = 0, .S = 4096, .slack = 0.10, .local = SS_LOCAL_AUTO \
    }
#define SS_DEFAULT_N       (1 << 24)
#define SS_MAX_N           (1LL << 40)
#define SS_MAX_N_WHY       "the keys of 1024 ranks at most"
#define SS_REFERENCE_MAX_N (1 << 28)

/* ---- the exchange (exchange.c) ----------------------------------------------- */

/* One message of a round: `count` keys to or from rank `peer`, at `offset`
 * of part (a send) or of recv (a receive). */
typedef struct {
    int peer;
    int64_t count, offset;
} ss_message;

/* What one rank sends and receives in one round, in the order it posts them. */
typedef struct {
    int nsend, nrecv;
    ss_message *send, *recv; /* G each */
} ss_round;

ss_round ss_round_alloc(int G);
void ss_round_free(ss_round *m);

/* Rank r's messages of round j, from the plan and its layout L. */
void exchange_messages(const ss_plan *plan, const ss_layout *L, int r, int j, ss_round *m);

/* The message with `peer` in a list of n (one at most: exchange_messages), or NULL. */
const ss_message *ss_message_with(const ss_message *list, int n, int peer);

/* Every rank's messages of every round, from the plan and every rank's
 * layout L[0..G) (each process computes them all): NULL when every send has a
 * receive of the same count and every receive a send, else one line naming
 * the pair, the round and both counts. Nothing is sent before this says NULL:
 * a disagreement would leave NCCL waiting for ever. */
const char *ss_exchange_agree(const ss_plan *plan, const ss_layout *L);

/* One piece on `stream`: `count` keys (and values) from `from`'s part at from_at to `to`'s
 * receive buffer at to_at (a device copy, or across GPUs their copy engines). */
void ss_copy_piece(const ss_rank *to, int64_t to_at, const ss_rank *from, int64_t from_at, int64_t count,
                   int with_values, cudaStream_t stream);

/* Round j of the exchange, on each owned rank's comm stream, over the run's link. */
void ss_exchange_round(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, int j);

/* The collectives of the other phases, over the same link: each owned rank's
 * bufs[i] holds G slots of `bytes`, its own at slot R[i].rank; afterwards
 * every slot everywhere (all_gather), or every slot the sum of every rank's
 * (all_sum, of `count` uint64). */
void ss_all_gather(ss_rank *R, int nlocal, const ss_config *c, void *const *bufs, size_t bytes);
void ss_all_sum(ss_rank *R, int nlocal, const ss_config *c, uint64_t *const *bufs, size_t count);

/* Waits for every owned rank's streams. Past the watchdog's limit it says so
 * in one line, aborts the communicators (ncclCommAbort) and exits with
 * LAB_EXIT_FAIL: a run never hangs. */
void ss_wait(ss_rank *R, int nlocal, const ss_config *c);

LAB_END_C

#endif
