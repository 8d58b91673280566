/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step9` gives graded hints. */
/* sample_sort.h - the multi-GPU sample sort's interface: its configuration,
 * the ranks a process drives, the phases' entry point, the checks that
 * scale, and the step's descriptor (its defaults and the options ./run
 * takes). One code serves both ways to run: a process owns an array of rank
 * contexts, G of them under `./run --gpus G`, one under `mpirun -np G ./run`;
 * every phase loops over the ranks its process owns and puts their NCCL
 * calls in one group. */
#ifndef SS_SAMPLE_SORT_H
#define SS_SAMPLE_SORT_H

#include <nccl.h>

#include "lab.h"
#include "options.h"
#include "plan.h"

LAB_BEGIN_C

#define NCCL_CHECK(call)                                                                                   \
    do {                                                                                                   \
        ncclResult_t ss_res_ = (call);                                                                     \
        if (ss_res_ != ncclSuccess) {                                                                      \
            fprintf(stderr, "NCCL error: %s failed at %s:%d: %s\n", #call, __FILE__, __LINE__,             \
                    ncclGetErrorString(ss_res_));                                                          \
            exit(LAB_EXIT_CUDA);                                                                           \
        }                                                                                                  \
    } while (0)

/* The local sort of each sub-bucket: step 7's single-pass radix sort, or
 * cub::DeviceRadixSort (the baseline). Both take the caller's second buffer. */
typedef enum { SS_LOCAL_ONESWEEP = 0, SS_LOCAL_CUB = 1 } ss_local;

/* What every rank of a run shares. */
typedef struct {
    int G;               /* ranks in all */
    int K;               /* sub-buckets (chunks) per rank */
    int S;               /* sample keys per rank */
    double first_weight; /* the first chunk's size against the others' */
    double slack;        /* each rank's buffers hold (1 + slack) N / G keys */
    ss_local local;      /* the local sort */
    int with_values;
    int64_t N;           /* keys in all */
} ss_config;

/* One rank's device, communicator, streams and buffers. */
typedef struct {
    int rank, device;
    ncclComm_t comm;
    cudaStream_t comm_stream; /* sample, partition and exchange (high priority: NCCL's blocks go first) */
    cudaStream_t sort_stream; /* the sorts of the sub-buckets, each after its round */
    int64_t start, n;         /* this rank's share of the input: positions [start, start + n) */
    int64_t cap;              /* keys of room in keys and in part */
    int64_t room;             /* the most keys one sub-bucket may hold (ss_chunk_room) */
    unsigned int *keys, *values;   /* the share, in; the received sub-buckets; the sorted run */
    unsigned int *part_k, *part_v; /* the partitioned share; the local sorts' second buffer */
    int64_t run_n;            /* after ss_sort: keys[0, run_n) (values) is this rank's part of the output */
    int64_t *sample_pos_d;    /* S positions in the share */
    unsigned int *sample_d;   /* G * S gathered sample keys */
    int sample_used;
    unsigned int *split_key_d;
    uint64_t *split_pos_d;
    int cols;                 /* blocks of the count and scatter kernels: the table's columns */
    int64_t chunk;            /* keys per block */
    unsigned int *table_d;    /* B x cols: keys of each block in each bucket */
    uint64_t *row_prefix_d;   /* B x cols: where each block's keys of a bucket start inside the bucket */
    uint64_t *counts_d;       /* G x B: every rank's bucket totals (this rank's row first) */
    int64_t *bucket_base_d;   /* B: part offsets of the buckets (the layout's send_off) */
    uint64_t *check_d;        /* the checks' sums */
    void *sort_temp;          /* the local sort's tables */
    size_t sort_temp_bytes;
    ss_layout *layout;        /* host: where everything lies on this rank */
    int chunks;               /* K, for the events */
    cudaEvent_t *ev_round;    /* K: round j's keys have arrived (and left) */
    cudaEvent_t ev_begin, ev_scatter_begin, ev_scatter_end, ev_rounds_end, ev_sort_end;
    cudaEvent_t *ev_sort_begin, *ev_sort_done; /* K each: one sort's device time */
    size_t bytes_allocated;   /* every device buffer above */
    size_t free_before;       /* cudaMemGetInfo before this rank's buffers */
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

/* 1 when step 7's sort is linked into this build (--local onesweep). */
int ss_have_onesweep(void);

/* Keys of room rank r's buffers get: (1 + slack) N / G, at least its share. */
int64_t ss_capacity(const ss_config *c, int r);

/* The most keys one sub-bucket of rank r may hold: 1.25 x the largest one
 * the plan aims at (sampling errs by a few percent), at most ss_capacity.
 * The local sort's tables are sized for it; a plan above it is refused. */
int64_t ss_chunk_room(const ss_config *c, int r);

/* Allocates rank R's buffers on its device; NULL, or why not. */
const char *ss_setup(ss_rank *R, const ss_config *c);
void ss_teardown(ss_rank *R);

/* A fresh input in place: key number p of N from gen.h's distribution, value p;
 * every buffer the sort writes poisoned (0xA5 bytes). */
void ss_generate(ss_rank *R, const ss_config *c, int dist, uint64_t seed);

/* The whole sort for the nlocal ranks this process owns. plan: set up for
 * the run (plan_init); filled in here. On return every rank's keys[0, run_n)
 * (values) hold its part of the sorted output. NULL, or why the run could
 * not finish (e.g. a bucket larger than its buffer). */
const char *ss_sort(ss_rank *R, int nlocal, const ss_config *c, ss_plan *plan, ss_times *t);

/* The checks that scale (verify.cuh), on the device, combined over all ranks
 * with NCCL: each run sorted (and stable, for pairs), inside its rank's
 * splitters, the runs in order across ranks, the count and an
 * order-independent hash of the keys (pairs) kept. in: ss_hash_input of each
 * owned rank before the sort. Returns the failures, each printed (naming
 * rank and index) by the rank that sees it. */
typedef struct {
    uint64_t keys, pairs, count;
} ss_hash;
ss_hash ss_hash_input(ss_rank *R, const ss_config *c);
int ss_check(ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, const ss_hash *in);

/* The CPU reference (reference.c), element by element: each owned rank's run
 * downloaded and compared with what the CPU makes of the same input. Pairs in
 * O(N): every value an input position seen once, its key the key at that
 * position, the items (key, position) rising; keys alone against the stable
 * CPU sort of all keys. Returns the failures, printing at most five a rank
 * (with quiet, none). */
int ss_check_reference(const ss_rank *R, int nlocal, const ss_config *c, const ss_plan *plan, int dist,
                       uint64_t seed, int quiet);

/* Where rank r's run starts in the whole output. */
int64_t ss_output_start(const ss_plan *plan, int r);

/* The step's descriptor: what ./run and the tests ask of it. */
typedef struct {
    ss_config defaults;      /* G, N and with_values are the run's; K = 0: plan_default_chunks(G) */
    int64_t default_n;       /* ./run's size when no -n is given */
    int64_t reference_max_n; /* up to this N, also the CPU reference (above: the checks that scale) */
    lab_opt_spec spec;       /* the options ./run takes beyond -n, --seed, --reps, --csv, -q */
} ss_step;

extern const ss_step sample_sort_step_info;

LAB_END_C

#endif
