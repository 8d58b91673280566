/* tuned.h - what ch13 step 10 adds to step 9's sort: its policy, decided
 * once per sort (as CUB's agents take a policy), the splitters at the edges
 * of the keys' top bits (bins.c), and the exchange by the GPUs' copy engines,
 * with round 0 written straight into its receivers (peers.c). */
#ifndef SS_TUNED_H
#define SS_TUNED_H

#include "rank.h" /* step 9's */

LAB_BEGIN_C

/* ---- the policy (policy.c) ----------------------------------------------------- */

/* How the keys cross between the ranks of one process. */
typedef enum {
    SS_EXCHANGE_LINK = 0,  /* step 9's: NCCL's kernels between GPUs, device copies on one GPU */
    SS_EXCHANGE_COPY = 1,  /* the copy engines: every piece on a stream of its own, the SMs left to the sorts */
    SS_EXCHANGE_DIRECT = 2 /* round 0 written by the scatter into its receivers' memory; then the copy engines */
} ss_exchange;

#define SS_FEW_BUCKETS 8 /* the split in registers: at most 8 buckets, 7 splitters held (held.cuh) */

/* What runs, each choice an idea of step 10 with its row in the README's ablation table. */
typedef struct {
    int bins;             /* the splitters at bin edges of every key's top bits, where they split evenly */
    int held;             /* the splitters held in registers: 0 (step 9's tables), 3 (B <= 4) or 7 (B <= 8) */
    ss_exchange exchange; /* how the keys cross */
    double first;         /* the first chunk's size against each other chunk's */
    int digit;            /* the split by the top byte, and each chunk sorted in three passes */
} ss_policy;

/* 1 when c asks for a split other than the top byte's (--split table or held). */
int policy_asked_split(const ss_config *c);

/* The chunks a rank takes when --chunks is not asked, where the split by the top byte may run:
 * 4 for keys on two GPUs, 3 from four; else 0 (the plan's default). */
int policy_chunks(const ss_config *c);

/* NULL when what c asks can run (on the host, before a GPU is looked for), or why not. */
const char *policy_check(const ss_config *c);

/* The policy for c, this process's nlocal ranks, whose GPUs reach each other
 * (peers: ss_peers_reach; under mpirun on one node, c->node, ss_ipc_reach) or not: what c asks, and where it says auto, the
 * fastest measured (the README's ablation table). A sort may still fall back
 * (bins that split unevenly, a chunk 0 that does not fit): ss_sort says so in
 * the policy it ran. */
ss_policy policy_choose(const ss_config *c, int nlocal, int peers);

/* The policy as result-line tokens: " splitters=bins split=held3 exchange=direct first=20". */
void policy_text(const ss_policy *p, const ss_config *c, char *buf, size_t len);

/* ---- splitters from bins (bins.c) -------------------------------------------------------- */

/* The bins: a key's top PLAN_BIN_BITS bits. Every rank counts its keys per
 * bin (one read of the share); where the keys are spread thinly over the
 * bins, as uniform keys are, the splitters can sit on bin edges, and then
 * every count the plan needs is a sum of bins: no sample, no count pass. */
#define PLAN_BIN_BITS    12
#define PLAN_BINS        (1 << PLAN_BIN_BITS)
#define PLAN_BIN_BUCKETS 64 /* at most this many buckets take their splitters from bins */
static inline __host__ __device__ unsigned int plan_bin_of(unsigned int key)
{
    return key >> (32 - PLAN_BIN_BITS);
}

/* From every rank's bin counts (G rows of PLAN_BINS, rank-major): splitter t
 * - 1 at the bin edge nearest boundary t's target, (edge's first key, 0), so
 * bucket b is the bins [first_bin[b], first_bin[b + 1]); and each rank's
 * counts per bucket set as plan_set_counts would. 1 when every boundary lands
 * within `slack` x N / G keys of its target; 0 (nothing set) when a bin is
 * too heavy for that: then the sample decides. */
int plan_bin_splitters(ss_plan *p, const unsigned int *bins, double slack, int *first_bin);

/* The splitters at the edges first_bin (B + 1 of them, first_bin[0] = 0,
 * first_bin[B] = PLAN_BINS), and each rank's counts per bucket from its bins. */
void plan_bins_apply(ss_plan *p, const unsigned int *bins, const int *first_bin);

/* ---- the split by the top byte (digit.c) --------------------------------------------------- */

/* With --split digit the scatter is the sort's first radix pass, on the keys'
 * top byte: every bucket is a run of whole top bytes, each sender's keys of
 * one top byte land together, and each chunk is sorted by its low three bytes
 * in three passes (segments.cuh), a top byte's keys among themselves. */
#define DIGIT_TOPS      256                      /* top-byte values */
#define DIGIT_PER_TOP   (PLAN_BINS / DIGIT_TOPS) /* bins of one top byte */
#define DIGIT_SLACK     0.01                     /* a GPU's boundary within 1 % of N / G of its target */
#define DIGIT_MAX_CHUNK 2147483647LL             /* a chunk: step 7's 31-bit prefixes, as its sort */
#define DIGIT_MAX_SHARE 4294901760LL             /* a share: 32-bit tile places (a top byte lies in one chunk) */

/* The splitters at top-byte edges, from the bins alone: each GPU's boundary
 * at the top-byte edge nearest its target in keys, each chunk's boundary
 * likewise between its GPU's two (any distance: a chunk's size shapes only
 * the pipeline). first_bin: output, B + 1 bin edges (multiples of
 * DIGIT_PER_TOP, 0 to PLAN_BINS), applied by plan_bins_apply: 1. 0, nothing
 * changed, when a GPU's boundary lies more than `slack` x N / G keys from its
 * target (a top byte heavier than that, one key many times): another split runs. */
int digit_edges(ss_plan *p, const unsigned int *bins, double slack, int *first_bin);

/* 1 when the plan's every chunk holds at most DIGIT_MAX_CHUNK keys and every
 * share at most DIGIT_MAX_SHARE: the split's and the passes' places fit. */
int digit_fits(const ss_plan *p);

/* Sender s's place for its keys of each top byte (DIGIT_TOPS entries), as
 * offsets from its part: bucket b's keys at send_off[b], top byte by top byte. */
void digit_split_offsets(const ss_plan *p, const unsigned int *bins, int s, const int *first_bin,
                         const int64_t *send_off, int64_t *dst);

/* The tiles of one pass of a chunk's sort: a range is keys of one top byte
 * (a segment) that lie together; its tiles (step 7's, the last one short)
 * look back only at the tiles of its segment's ranges before them. */
typedef struct {
    int ranges;            /* R */
    unsigned int tiles;    /* tile_at[R] */
    unsigned int *in_at;   /* [R] where range r's keys start (from the chunk's start) */
    unsigned int *len;     /* [R] its keys */
    unsigned int *tile_at; /* [R + 1] its first tile */
    unsigned int *first;   /* [R] the first tile of its segment */
    unsigned int *seg;     /* [R] its segment (top byte - the chunk's first) */
    unsigned int *words;   /* the five above, one block: 5 R + 1 words */
} digit_ranges;

/* Room for up to `ranges` ranges (digit_ranges_free frees it). */
digit_ranges digit_ranges_alloc(int ranges);
void digit_ranges_free(digit_ranges *A);

/* Chunk of rank d holding the top bytes [t_lo, t_hi), sender s's piece at
 * piece_at[s] (from the chunk's start), in top-byte order: A, the first
 * pass's ranges (a range a top byte and sender, top-byte-major); B, the later
 * passes' (a range a top byte, where the first pass put it); seg_out[t -
 * t_lo], where top byte t starts in the sorted chunk (t_hi - t_lo + 1). */
void digit_chunk_ranges(const unsigned int *bins, int G, int t_lo, int t_hi, const int64_t *piece_at, unsigned int tile,
                        digit_ranges *A, digit_ranges *B, unsigned int *seg_out);

/* ---- the copy engines (peers.c) ---------------------------------------------------------- */

/* What a rank needs beyond step 9's: the bins' tables, and its copy streams. */
typedef struct {
    unsigned int *bins_d;       /* G x PLAN_BINS: every rank's keys per bin (its own row, or gathered) */
    unsigned int *block_bins_d; /* cols x PLAN_BINS: each block's keys per bin */
    int *first_bin_d;           /* B + 1: bucket b's bins from first_bin[b] */
    cudaStream_t *push;         /* G: a stream a destination, so a round's pieces run side by side */
    cudaEvent_t *ev_pushed;     /* G: push k of the round is done */
    cudaEvent_t ev_ready;       /* the rank has reached the round: its receives may land */
    cudaEvent_t ev_sent;        /* its pushes of the round are done */
    int pushes;                 /* G, or 0 */
} ss_extra;

/* 1 when every GPU of this process's ranks reaches every other's memory
 * (each pair's peer access then enabled); ranks on one GPU always do. */
int ss_peers_reach(const ss_rank *R, int nlocal);

/* Rank R's copy streams and events (G pushes), or their teardown. */
void ss_peers_open(ss_extra *E, const ss_rank *R, int G);
void ss_peers_close(ss_extra *E, const ss_rank *R);

/* Round j by the copy engines: every sender pushes each piece on a stream
 * of its own, once it and the receiver have reached the round on their comm
 * streams; a receiver's comm stream goes on when every push of the round is
 * done, as after NCCL's grouped calls. */
void ss_peers_round(ss_rank *R, ss_extra *E, int nlocal, const ss_config *c, const ss_plan *plan, int j);

/* 1 when the scatters can write round 0 straight into its receivers: every
 * rank in this process, each rank's chunk 0 fits the front of its part that
 * its own scatter leaves alone, and one cap everywhere (one offset serves
 * part_k and part_v). */
int ss_direct_fits(const ss_rank *R, int nlocal, const ss_plan *plan);

/* Rank i's part offsets with round 0 direct: bucket (d, 0) goes to its place
 * in rank d's part (chunk 0 at part's front, in rank order), written as an
 * offset from rank i's own part; the other buckets where its layout says. */
void ss_direct_send_off(const ss_rank *R, int nlocal, const ss_plan *plan, int i, int64_t *send_off);

/* Sender s's pushes of round j (m: every rank's messages of the round), as ss_peers_round makes
 * them; R and E hold every rank as this process reaches it (ss_ipc's views under mpirun). */
void ss_peers_push(ss_rank *R, ss_extra *E, const ss_config *c, const ss_round *m, int s);

/* ---- the processes of one node joined by CUDA IPC (ipc.c) -------------------------------- */

/* Under mpirun on one node (c->node), each process's one rank as every other
 * process reaches it: its buffers opened by CUDA IPC, its events likewise, so
 * the copy engines and round 0 direct run across processes as in one. */
typedef struct {
    int G, self;            /* ranks, and this process's */
    ss_rank *view;          /* G: rank d's buffers mapped here (its device: ours, through which we reach them),
                              its cap and its layout; view[self] this process's rank */
    ss_extra *ev;           /* G: rank d's ev_ready and ev_sent, opened here; ev[self] ours */
    cudaEvent_t *scattered; /* G: rank d's scatter is done (round 0 direct is in) */
    ss_layout *layouts;     /* G: every rank's layout of the current sort */
} ss_ipc;

/* 1 when every process's GPU reaches every other's (agreed by every process). */
int ss_ipc_reach(const ss_rank *r, const ss_config *c);

/* This process's rank r (its extras E open) and the others' opened here. */
void ss_ipc_open(ss_ipc *P, ss_rank *r, ss_extra *E, const ss_config *c);

/* Every other rank's layout for the current plan (this process's rank laid out already). */
void ss_ipc_views(ss_ipc *P, const ss_plan *plan);

/* Round 0 direct across processes: r's comm stream goes on once every rank's scatter is done. */
void ss_ipc_scattered(ss_ipc *P, const ss_rank *r, const ss_config *c);

/* Round j by the copy engines across processes, as ss_peers_round in one. */
void ss_ipc_round(ss_ipc *P, const ss_config *c, const ss_plan *plan, int j);

/* Every mapping closed, once every process is done with them (before any frees its buffers). */
void ss_ipc_close(ss_ipc *P, const ss_config *c);

LAB_END_C

#endif
