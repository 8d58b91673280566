/* sample_sort.h - chapter 13's interface for the sort across GPUs (section
 * 13.8; steps 9 and 10, kernel file sample_sort.cu): what ./run
 * (sample_sort_driver.c) and the suite ask of such a step. A process drives
 * some of the G ranks (all of them under `./run --gpus G` or `--ranks G`, one
 * under `mpirun -np G ./run`); the step sets its ranks up once for a
 * configuration (an ss_run), then sorts a fresh input as often as it is asked
 * and checks the last sort. The inputs are gen.h's, the CPU reference
 * sample_ref.h's. */
#ifndef LAB_SAMPLE_SORT_H
#define LAB_SAMPLE_SORT_H

#include <nccl.h>

#include "lab.h"
#include "step.h"

#define SS_MAX_RANKS 1024 /* ranks in all (the plan's buckets are G x chunks, at most 1024) */

#define NCCL_CHECK(call)                                                                       \
    do {                                                                                       \
        ncclResult_t ss_res_ = (call);                                                         \
        if (ss_res_ != ncclSuccess) {                                                          \
            fprintf(stderr, "NCCL error: %s failed at %s:%d: %s\n", #call, __FILE__, __LINE__, \
                    ncclGetErrorString(ss_res_));                                              \
            exit(LAB_EXIT_CUDA);                                                               \
        }                                                                                      \
    } while (0)

LAB_BEGIN_C

/* Each chunk's local sort: step 7's single-pass radix sort or cub::DeviceRadixSort,
 * on the whole chunk; AUTO is resolved by the step before a run (--local). */
typedef enum { SS_LOCAL_ONESWEEP = 0, SS_LOCAL_CUB = 1, SS_LOCAL_AUTO = 2 } ss_local;

/* --local's names, in ss_local's order, NULL-terminated. */
static inline const char *const *ss_local_names(void)
{
    static const char *const names[] = {"onesweep", "cub", "auto", NULL};
    return names;
}

/* How the ranks talk: NCCL, one GPU per rank (./run --gpus G, mpirun), or
 * device copies between ranks that share one GPU in this process (./run
 * --ranks G: every phase, the exchange included, on the GPU a student has). */
typedef enum { SS_LINK_NCCL = 0, SS_LINK_COPIES = 1 } ss_link;

/* The options beyond the ones every step of the sort takes (--gpus, --ranks,
 * --chunks, --local, --dist, --keys-only, --timeout): a step takes the ones
 * its descriptor's `takes` names, and ./run refuses the others by name. */
enum {
    SS_TAKES_SPLITTERS = 1u << 0, /* --splitters: from the sample, or at the edges of the keys' top bits */
    SS_TAKES_SPLIT = 1u << 1,     /* --split: the partition in shared-memory tables, or in registers */
    SS_TAKES_EXCHANGE = 1u << 2,  /* --exchange: NCCL's kernels, the copy engines, round 0 by the scatter */
    SS_TAKES_FIRST = 1u << 3      /* --first: the first chunk's size */
};

/* What the command line asked of those ("auto", or 0: the step's policy decides). */
typedef struct {
    const char *splitters, *split, *exchange;
    int first; /* the first chunk's size, in % of each other chunk's */
} ss_asked;

/* The processes of `mpirun -np G ./run` on one node, one rank each, as a step
 * may join them (step 10: by CUDA IPC): what they do together on the host.
 * NULL in ss_config under one process, across nodes, or with several ranks a
 * process. */
typedef struct {
    int (*meet)(double limit_s); /* every process has come here (a barrier) within limit_s: 1; else 0 */
    /* each process's `bytes` at mine to every process, in all[rank * bytes] */
    void (*gather)(const void *mine, void *all, size_t bytes);
} ss_node;

/* What every rank of a run shares. */
typedef struct {
    int G;          /* ranks in all */
    int K;          /* chunks per rank: rounds of the exchange (0: the step's default) */
    int S;          /* sample keys per rank */
    double slack;   /* each rank's buffers hold (1 + slack) N / G keys */
    ss_local local; /* each chunk's sort */
    ss_link link;
    int with_values;
    int64_t N;        /* keys in all */
    double timeout_s; /* the watchdog's limit for one sort (0: 5 s plus 1 s per GB of a share) */
    ss_asked asked;
    const ss_node *node; /* mpirun on one node, one rank a process; else NULL */
} ss_config;

/* Where one of this process's ranks runs. */
typedef struct {
    int rank, device;
    ncclComm_t comm; /* SS_LINK_NCCL: its communicator; SS_LINK_COPIES: NULL */
} ss_place;

/* A step's ranks of this process, set up for one configuration (the step's own). */
typedef struct ss_run ss_run;

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

/* What the checks of a sort found beside its failures. */
typedef struct {
    double bucket; /* the largest bucket / (N / G) */
    double peak;   /* the largest device memory used / the share's bytes */
} ss_shape;

/* A step's facts and its ways, each a function of the step's kernel file. */
typedef struct {
    lab_step lab;            /* about, default_n, max_n */
    unsigned takes;          /* SS_TAKES_* */
    ss_config defaults;      /* G, N, link and with_values are the run's */
    int64_t reference_max_n; /* up to this N, also the CPU reference (above: the checks that scale) */
    /* c's derived values filled in (its chunks, its local sort), or why it cannot run: on the
     * host alone, before a GPU is looked for */
    const char *(*configure)(ss_config *c);
    /* this process's nlocal ranks (at[]) set up for c, or NULL and why not */
    ss_run *(*open)(const ss_config *c, const ss_place *at, int nlocal, const char **why);
    /* a fresh input (dist, seed) on every owned rank, made in place */
    void (*fresh)(ss_run *run, int dist, uint64_t seed);
    /* that input sorted: NULL, or why the sort could not run */
    const char *(*sort)(ss_run *run, ss_times *t);
    /* the last sort checked (the checks that scale; with reference, the CPU's too): the
     * failures, each printed (none with quiet) */
    int (*check)(ss_run *run, int dist, uint64_t seed, int reference, int quiet, ss_shape *shape);
    /* what the run's policy chose, as result-line tokens (" splitters=bins ..."; "" none) */
    void (*describe)(const ss_run *run, char *buf, size_t len);
    void (*close)(ss_run *run);
} ss_step;

/* The step's descriptor, defined at the end of its kernel file. */
extern const ss_step sample_sort_step_info;

LAB_END_C

#endif
