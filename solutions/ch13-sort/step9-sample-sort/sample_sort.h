/* sample_sort.h - the multi-GPU sample sort's interface: its configuration,
 * the ranks a process drives, the phases' entry point, the exchange and its
 * links, the checks that scale, and the step's descriptor. One code serves
 * every way to run: a process owns an array of rank contexts (G of them
 * under `./run --gpus G` or `./run --ranks G`, one under `mpirun -np G
 * ./run`); every phase loops over the ranks its process owns and puts their
 * NCCL calls in one group. */
#ifndef SS_SAMPLE_SORT_H
#define SS_SAMPLE_SORT_H

#include <nccl.h>

#include "plan.h"
#include "step.h"

LAB_BEGIN_C

#define NCCL_CHECK(call)                                                                       \
    do {                                                                                       \
        ncclResult_t ss_res_ = (call);                                                         \
        if (ss_res_ != ncclSuccess) {                                                          \
            fprintf(stderr, "NCCL error: %s failed at %s:%d: %s\n", #call, __FILE__, __LINE__, \
                    ncclGetErrorString(ss_res_));                                              \
            exit(LAB_EXIT_CUDA);                                                               \
        }                                                                                      \
    } while (0)

/* The local sort of each chunk: step 7's single-pass radix sort, on the whole
 * chunk or over its sub-buckets as segments (segsort.cuh), or
 * cub::DeviceRadixSort on the whole chunk (one sub-bucket per chunk). AUTO,
 * the default, is resolved before a run to the faster of the two for its
 * keys (ss_auto_local). */
typedef enum { SS_LOCAL_ONESWEEP = 0, SS_LOCAL_CUB = 1, SS_LOCAL_AUTO = 2 } ss_local;

/* How the ranks talk: NCCL, one GPU per rank (./run --gpus G, mpirun), or
 * device copies between ranks that share one GPU in this process
 * (./run --ranks G: every phase, the exchange included, on the GPU a
 * student has). */
typedef enum { SS_LINK_NCCL = 0, SS_LINK_COPIES = 1 } ss_link;

/* What every rank of a run shares. */
typedef struct {
    int G;               /* ranks in all */
    int K;               /* chunks per rank: rounds of the exchange */
    int F;               /* sub-buckets per chunk: segments of its sort (0: plan_default_fine) */
    int S;               /* sample keys per rank */
    double first_weight; /* the first chunk's size against the others' */
    double slack;        /* each rank's buffers hold (1 + slack) N / G keys */
    ss_local local;      /* the local sort */
    ss_link link;
    int copy_engines;  /* SS_LINK_NCCL in one process: the keys by the GPUs' copy engines, not NCCL's kernels */
    int direct_first;  /* copy_engines, and the scatter writes round 0 into the receivers' part (where it fits) */
    int bin_splitters; /* splitters at bin edges from every key's bin, where they split evenly (plan_bin_splitters) */
    int with_values;
    int64_t N;        /* keys in all */
    double timeout_s; /* the watchdog's limit for one sort (0: 5 s plus 1 s per GB of a share) */
} ss_config;

/* One sort's tables of the segmented local sort (segsort.cuh), per chunk. */
typedef struct ss_segsort ss_segsort;

/* One rank's device, communicator, streams and buffers. */
typedef struct {
    int rank, device;
    ncclComm_t comm;          /* SS_LINK_NCCL */
    cudaStream_t comm_stream; /* sample, partition and exchange (high priority: NCCL's blocks go first);
                                 SS_LINK_COPIES: one stream that every rank shares */
    cudaStream_t sort_stream; /* the sorts of the chunks, each after its round */
    int owns_streams;
    int64_t start, n;              /* this rank's share of the input: positions [start, start + n) */
    int64_t cap;                   /* keys of room in keys and in part */
    unsigned int *keys, *values;   /* the share, in; then the received chunks; then, or part, the sorted run */
    unsigned int *part_k, *part_v; /* the partitioned share; then the sorts' second buffer */
    unsigned int *run_k, *run_v;   /* after ss_sort: this rank's part of the output, run_n keys */
    int64_t run_n;
    int run_in_keys;        /* the sorts' runs lie in keys (1), in part (0), not yet known (-1) */
    int direct;             /* this sort's round 0 went straight into part's front (ss_config's direct_first) */
    int first_in_part;      /* direct: chunk 0's sorted run ended in part, and goes to keys beside the next sorts */
    int part_joined;        /* part_v is part_k + cap, one allocation (so a rank's offsets serve both) */
    int reaches_peers;      /* copy_engines: this GPU reaches every other rank's memory (ss_link_peers) */
    int64_t *sample_pos_d;  /* S positions in the share */
    unsigned int *sample_d; /* G * S gathered sample keys */
    int sample_used;
    unsigned int *split_key_d, *shift_d, *fine_base_d; /* the plan's cuts (B each) */
    uint64_t *split_pos_d;
    int cols;                   /* blocks of the count and scatter kernels: the table's columns */
    int64_t chunk;              /* keys per block */
    unsigned int *table_d;      /* BF x cols: keys of each block in each sub-bucket */
    uint64_t *row_prefix_d;     /* BF x cols: where each block's keys of a sub-bucket start in it */
    uint64_t *counts_d;         /* G x BF: every rank's sub-bucket totals (gathered) */
    unsigned int *bins_d;       /* G x PLAN_BINS: every rank's keys per bin (gathered), or NULL */
    unsigned int *block_bins_d; /* cols x PLAN_BINS: each count block's keys per bin */
    int *first_bin_d;           /* B + 1: bucket b's bins from first_bin[b] */
    char *cuts_h;               /* pinned: the cuts' block as uploaded (cuts_bytes), then send_off (BF) */
    size_t cuts_bytes;
    int64_t *send_off_d; /* BF: part offsets of the sub-buckets (the layout's send_off) */
    uint64_t *check_d;   /* the checks' sums */
    void *sort_temp;     /* the local sort's tables */
    size_t sort_temp_bytes;
    ss_segsort *segsort;   /* host and device tables of the segments and pieces */
    ss_layout *layout;     /* host: where everything lies on this rank */
    int chunks;            /* K, for the events */
    cudaEvent_t *ev_round; /* K: round j's keys have arrived (and left) */
    cudaEvent_t ev_begin, ev_scatter_begin, ev_scatter_end, ev_rounds_end, ev_sort_end;
    cudaEvent_t ev_ready, ev_sent;             /* copy_engines: a round's receives may land; its sends are done */
    cudaStream_t *push;                        /* copy_engines: G streams, so a round's pushes run side by side */
    cudaEvent_t *ev_pushed;                    /* G: push k of the round is done */
    int pushes;                                /* G, or 0 */
    cudaEvent_t *ev_sort_begin, *ev_sort_done; /* K each: one sort's device time */
    size_t bytes_allocated;                    /* every device buffer above */
    size_t free_before;                        /* cudaMemGetInfo before this rank's buffers */
} ss_rank;

/* Phase times of one sort (ms), the largest over this process's ranks. */
typedef struct {
    double splitters; /* sample, gather, choose and upload the splitters (host clock) */
    double count;     /* count kernel, table scan, counts gathered, plan and layout (host clock) */
    double scatter;   /* the partition kernel (device) */
    double exchange;  /* first send to last receive (device; overlaps the sorts) */
    double sort;      /* the sorts' device time, added up */
    double waited;    /* from the scatter's end to the last sort's end, minus the sorts: exchange not hidden */
    double total;     /* host clock, first phase to last sort done */
} ss_times;

/* NULL when c can run (pure host: ./run asks before it looks for a GPU), or why not. */
const char *ss_config_check(const ss_config *c);

/* Sub-buckets per chunk for a run: `asked` when given (> 0), else one with
 * CUB (it sorts chunks whole), else as many as the plan allows. */
int ss_fine_for(ss_local local, int G, int K, int asked);

/* The local sort --local auto picks for c (its F: 1 unless --fine says):
 * step 7 for keys, on whole chunks (or over the radix cut's segments, F > 1);
 * CUB for pairs, and for chunks above what step 7 sorts at once. */
ss_local ss_auto_local(const ss_config *c);

/* 1 when step 7's sort is linked into this build (--local onesweep). */
int ss_have_onesweep(void);

/* Keys of room rank r's buffers get: (1 + slack) N / G, at least its share. */
int64_t ss_capacity(const ss_config *c, int r);

/* Allocates rank R's buffers on its device; NULL, or why not. `shared`: the
 * rank whose streams R uses too (SS_LINK_COPIES), or NULL for its own. */
const char *ss_setup(ss_rank *R, const ss_config *c, const ss_rank *shared);
void ss_teardown(ss_rank *R);

/* A fresh input in place: key number p of N from gen.h's distribution, value p;
 * every buffer the sort writes poisoned (LAB_POISON_BYTE). */
void ss_generate(ss_rank *R, const ss_config *c, int dist, uint64_t seed);

/* The whole sort for the nlocal ranks this process owns. plan: set up for
 * the run (plan_init); filled in here. On return every rank's run_k[0, run_n)
 * (run_v) hold its part of the sorted output. NULL, or why the run could not
 * finish (a bucket larger than its buffer, ranks that disagree on the
 * exchange). A sort that does not finish within the watchdog's limit stops
 * the process (exchange.c, ss_wait). */
const char *ss_sort(ss_rank *R, int nlocal, const ss_config *c, ss_plan *plan, ss_times *t);

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

/* Every rank's messages of every round, from the plan and every rank's
 * layout L[0..G) (each process computes them all): NULL when every send has a
 * receive of the same count and every receive a send, else one line naming
 * the pair, the round and both counts. Nothing is sent before this says NULL:
 * a disagreement would leave NCCL waiting for ever. */
const char *ss_exchange_agree(const ss_plan *plan, const ss_layout *L);

/* Round j of the exchange, on each owned rank's comm stream (the link's way). */
void ss_exchange_round(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, int j);

/* copy_engines: each GPU of this process may reach the others' memory;
 * reaches_peers says where every other one could be reached. */
void ss_link_peers(ss_rank *R, int nlocal);

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

/* ---- the checks --------------------------------------------------------------- */

/* The checks that scale (verify.cuh), on the device, combined over all ranks:
 * each run sorted (and stable, for pairs), inside its rank's splitters, the
 * runs in order across ranks, the count and an order-independent hash of the
 * keys (pairs) kept. in: ss_hash_input of each owned rank before the sort.
 * Returns the failures, each printed (naming rank and index) by the rank that
 * sees it. */
typedef struct {
    uint64_t keys, pairs, count;
} ss_hash;
ss_hash ss_hash_input(ss_rank *R, const ss_config *c);
int ss_check(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, const ss_hash *in);

/* The CPU reference (reference.c), element by element: each owned rank's run
 * downloaded and compared with what the CPU makes of the same input. Returns
 * the failures, printing at most five a rank (with quiet, none). */
int ss_check_reference(const ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, int dist, uint64_t seed,
                       int quiet);

/* Where rank r's run starts in the whole output. */
int64_t ss_output_start(const ss_plan *plan, int r);

/* ---- the step's descriptor ----------------------------------------------------- */

typedef struct {
    lab_step lab;              /* about, default_n, max_n */
    ss_config defaults;        /* G, N and with_values are the run's; K = 0: plan_default_chunks(G) */
    double first_weight[2][2]; /* [more than two ranks][pairs]: the first chunk's weight, unless --first says */
    int64_t reference_max_n;   /* up to this N, also the CPU reference (above: the checks that scale) */
    const char *const *dists;  /* --dist names */
    const char *const *locals; /* --local names, in ss_local order */
} ss_step;

extern const ss_step sample_sort_step_info;

/* The first chunk's weight step s gives G ranks unless --first says: the exchange weighs more
 * against the sorts on more than two. */
static inline double ss_default_first(const ss_step *s, int G, int with_values)
{
    return s->first_weight[G > 2][with_values != 0];
}

LAB_END_C

#endif
