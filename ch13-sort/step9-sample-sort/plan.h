/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step9` gives graded hints. */
/* plan.h - the sample sort's partition plan: which keys go where. Host C,
 * computed the same way on every rank from the same gathered data, and
 * tested on the CPU for 1 to 64 simulated ranks
 * (tests/ch13-sort/step9-sample-sort.c).
 *
 * The order the sort follows is the one of items (key, global position):
 * keys first, equal keys by where they stood in the whole input (the shares
 * of the ranks, one after the other). Splitters are items too, so a run of
 * equal keys, even one key repeated N times, is cut between buckets like any
 * other run, and each bucket is a range of that order: sorting each bucket
 * stably and putting the buckets side by side gives the stable global sort.
 *
 * Buckets: G ranks x K chunks. Rank d owns buckets d*K to d*K+K-1; chunk j
 * of every rank is exchanged in round j and sorted as soon as it has arrived,
 * while the next round is on the wire. */
#ifndef SS_PLAN_H
#define SS_PLAN_H

#include "lab.h"

#define PLAN_MAX_RANKS   1024
#define PLAN_MAX_BUCKETS 1024      /* G * K: the scatter ranks keys by bucket in shared memory */
#define PLAN_MAX_SAMPLE  (1 << 16) /* sample keys per rank */

LAB_BEGIN_C

/* Rank r's share of N keys is [plan_share_start(N, G, r), plan_share_start(N, G, r + 1)):
 * the first N % G ranks hold one key more. */
static inline __host__ __device__ int64_t plan_share_start(int64_t N, int G, int r)
{
    const int64_t extra = N % G;
    return (N / G) * r + (r < extra ? r : extra);
}

/* The cut: the bucket of item (key, pos) is how many of the nsplit sorted
 * splitters are <= it. The count kernel, the scatter kernel and the plan's
 * tests all call this one function. */
static inline __host__ __device__ int plan_bucket_of(unsigned int key, uint64_t pos, const unsigned int *split_key,
                                                     const uint64_t *split_pos, int nsplit)
{
    /* TODO(5): plan_bucket_of(), the cut: binary search for how many of the nsplit splitters are <=
       the item (key, pos); items compare by key, then by position */
    (void)key, (void)pos, (void)split_key, (void)split_pos, (void)nsplit;
    return 0;
}

/* The plan every rank holds: the splitters (after plan_choose_splitters)
 * and every rank's count per bucket (after plan_set_counts). */
typedef struct {
    int G, K, B;             /* ranks, chunks per rank, buckets (G * K) */
    int64_t N;               /* keys in all */
    int S;                   /* sample keys per rank */
    double first_weight;     /* the first chunk's size against each other's (1: all alike) */
    unsigned int *split_key; /* B - 1 splitters, items in increasing order */
    uint64_t *split_pos;
    uint64_t *counts; /* G x B: counts[s * B + b] = keys of rank s in bucket b */
} ss_plan;

/* NULL once p is set up for N keys on G ranks, or why not (nothing allocated then). */
const char *plan_init(ss_plan *p, int64_t N, int G, int K, int S, double first_weight);
void plan_free(ss_plan *p);

/* The default chunks per rank: 1 on one rank (nothing to overlap), else 2,
 * fewer when G * K would pass PLAN_MAX_BUCKETS. */
int plan_default_chunks(int G);

/* Keys of room rank r's buffers get for a run of N keys on G ranks, K chunks
 * each: (1 + slack) N / G, at least its share; one rank of one chunk, its
 * share exactly (its bucket is its share). */
int64_t plan_capacity(int64_t N, int G, int K, double slack, int r);

/* The part of a rank's bucket chunk j is meant to hold (the first one
 * first_weight / (first_weight + K - 1), the others 1 / (first_weight + K - 1)). */
double plan_sub_share(const ss_plan *p, int j);

/* Where boundary t (between buckets t - 1 and t) should fall, in keys from the start. */
double plan_boundary_target(const ss_plan *p, int t);

/* ---- sample and splitters ----------------------------------------------- */

/* Positions of rank r's sample in its share of n keys: one key from each of
 * S equal strata, at a jittered place in it (a regular sample that a
 * periodic input cannot fool). When n <= S every key is taken once, in order.
 * Writes S positions (the unused ones 0); returns how many are used. */
int plan_sample_positions(int64_t n, int S, int64_t *pos);

/* From the G * S gathered sample keys (rank-major, each rank's S keys at the
 * positions above): sorts the sample as items and takes the B - 1 splitters
 * at the quantiles where the buckets should end (rank d's bucket from
 * d * N / G, its chunks in between). Each sampled key stands for n_r / used_r
 * keys of its rank. */
void plan_choose_splitters(ss_plan *p, const unsigned int *gathered);

/* ---- counts and layout --------------------------------------------------- */

/* counts: G x B, as gathered from every rank's count kernel. */
void plan_set_counts(ss_plan *p, const uint64_t *counts);

/* Keys rank s has in bucket b. */
int64_t plan_bucket_count(const ss_plan *p, int s, int b);

/* Keys rank d receives (its K buckets from every rank). */
int64_t plan_received(const ss_plan *p, int d);

/* The largest bucket over ranks, in keys (and which rank holds it). */
int64_t plan_largest(const ss_plan *p, int *rank);

/* Where rank r's run starts in the whole output. */
int64_t plan_output_start(const ss_plan *p, int r);

/* Where everything lies on rank r, from the plan.
 *  part: the partition's output. The scatter writes rank r's share there,
 *    round by round (round j: buckets (0, j), (1, j), ..., (G-1, j)), from
 *    part_base = part_cap - n, so the front of the buffer is free from the
 *    start and each round frees its region once its keys are sent.
 *  recv: the buffer of the received chunks. Chunk j occupies [sub_start[j],
 *    sub_start[j+1]); in it the piece from rank s lands at recv_off[j*G+s], in
 *    rank order.
 *  The sort of chunk j sorts its region of recv, using the same region of
 *    part as its second buffer (the place it takes in the rank's run). It
 *    starts after round wait_round[j] (>= j), the first round after which
 *    that region of part holds no key still to be sent. */
typedef struct {
    int r;
    int64_t n;                               /* rank r's share */
    int64_t part_cap, part_base;             /* part's room and where the partition starts */
    int64_t send_off[PLAN_MAX_BUCKETS];      /* bucket b of rank r's share: part offset */
    int64_t round_end[PLAN_MAX_BUCKETS];     /* part offset where round j's region ends */
    int64_t recv_off[PLAN_MAX_BUCKETS];      /* [j * G + s]: recv offset of rank s's piece of chunk j */
    int64_t sub_start[PLAN_MAX_BUCKETS + 1]; /* [K]: keys received in all */
    int wait_round[PLAN_MAX_BUCKETS];
} ss_layout;

/* NULL once L is filled in for rank r, or why the plan cannot run there (a
 * share larger than part_cap, counts that do not add up to the share, a
 * bucket larger than recv_cap). */
const char *plan_layout(const ss_plan *p, int r, int64_t part_cap, int64_t recv_cap, ss_layout *L);

LAB_END_C

#endif
