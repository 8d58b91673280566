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
 * Buckets: G ranks x K sub-buckets (chunks). Rank d owns buckets d*K to
 * d*K+K-1; each sub-bucket is exchanged in its own round and sorted as soon
 * as it has arrived, while the next round is on the wire (plan_layout). */
#ifndef SS_PLAN_H
#define SS_PLAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define PLAN_HD __host__ __device__
#else
#define PLAN_HD
#endif

#define PLAN_MAX_RANKS 1024
#define PLAN_MAX_BUCKETS 1024     /* G * K; the scatter kernel ranks keys by bucket in shared memory */
#define PLAN_MAX_SAMPLE (1 << 16) /* sample keys per rank */

#ifdef __cplusplus
extern "C" {
#endif

/* splitmix64's finalizer: the sample's jitter and the inputs (gen.h). */
static inline PLAN_HD uint64_t plan_mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Rank r's share of N keys is [plan_share_start(N, G, r), plan_share_start(N, G, r + 1)):
 * the first N % G ranks hold one key more. */
static inline PLAN_HD int64_t plan_share_start(int64_t N, int G, int r)
{
    const int64_t extra = N % G;
    return (N / G) * r + (r < extra ? r : extra);
}

/* The cut: the bucket of item (key, pos) is how many of the nsplit sorted
 * splitters are <= it. The count kernel, the scatter kernel and the plan's
 * tests all call this one function. */
static inline PLAN_HD int plan_bucket_of(unsigned int key, uint64_t pos, const unsigned int *split_key,
                                         const uint64_t *split_pos, int nsplit)
{
    /* TODO(1): plan_bucket_of(), the cut: binary search for how many splitters are <= the item
       (key, pos); items compare by key, then by position */
    (void)key, (void)pos, (void)split_key, (void)split_pos, (void)nsplit;
    return 0;
}

/* The plan every rank holds: splitters (after plan_choose_splitters) and
 * every rank's count per bucket (after plan_set_counts). */
typedef struct {
    int G, K, B;             /* ranks, sub-buckets per rank, buckets (G * K) */
    int64_t N;               /* keys in all */
    int S;                   /* sample keys per rank */
    double first_weight;     /* the first sub-bucket's size against the others' 1: small, so the pipeline fills fast */
    unsigned int *split_key; /* B - 1 splitters, items in increasing order */
    uint64_t *split_pos;
    uint64_t *counts;        /* G x B: counts[s * B + b] = keys of rank s in bucket b */
} ss_plan;

/* NULL once p is set up for N keys on G ranks, or why not (nothing allocated then). */
const char *plan_init(ss_plan *p, int64_t N, int G, int K, int S, double first_weight);
void plan_free(ss_plan *p);

/* The default sub-buckets per rank: 1 on one rank (nothing to overlap),
 * else 4, fewer when G * K would pass PLAN_MAX_BUCKETS. */
int plan_default_chunks(int G);

/* The part of a rank's bucket sub-bucket j is meant to hold (the first one
 * first_weight / (first_weight + K - 1), the others 1 / (first_weight + K - 1)). */
double plan_sub_share(const ss_plan *p, int j);

/* ---- sample and splitters ----------------------------------------------- */

/* Positions of rank r's sample in its share of n keys: one key from each of
 * S equal strata, at a jittered place in it (a regular sample that a
 * periodic input cannot fool). When n <= S every key is taken once, in order.
 * Writes S positions (the unused ones 0); returns how many are used. */
int plan_sample_positions(int64_t n, int S, int64_t *pos);

/* From the G * S gathered sample keys (rank-major, each rank's S keys at the
 * positions above): sorts the sample as items and takes the B - 1 splitters
 * at the quantiles where the buckets should end (rank d's bucket from
 * d * N / G, its sub-buckets in between). Each sampled key stands for
 * n_r / used_r keys of its rank, so a sample that holds every key splits
 * exactly. */
void plan_choose_splitters(ss_plan *p, const unsigned int *gathered);

/* ---- counts and layout --------------------------------------------------- */

/* counts: G x B, as gathered from every rank's count kernel. */
void plan_set_counts(ss_plan *p, const uint64_t *counts);

/* Keys rank d receives (its bucket: the sum of its K sub-buckets). */
int64_t plan_received(const ss_plan *p, int d);

/* The largest bucket over ranks, in keys (and which rank holds it). */
int64_t plan_largest(const ss_plan *p, int *rank);

/* Where everything lies on rank r, from the plan.
 *  part: the partition's output. The scatter writes rank r's share there,
 *    bucket by bucket in round order (round j: bucket (0, j), (1, j), ...,
 *    (G-1, j)), starting at part_base = part_cap - n, so the front of the
 *    buffer is free from the start and each round frees its region once its
 *    keys are sent.
 *  recv: the buffer of the received keys, and of the sorted run. Sub-bucket j
 *    occupies [sub_start[j], sub_start[j+1]); in it the piece from rank s
 *    lands at recv_off[j*G+s], in rank order, so a stable sort of the
 *    sub-bucket keeps equal keys in global input order.
 *  The local sort of sub-bucket j (m_j keys) takes [0, m_j) of part as its
 *    second buffer. It starts after round wait_round[j] (>= j), the first
 *    round after which that region holds no key still to be sent. */
typedef struct {
    int r;
    int64_t n;                                /* rank r's share */
    int64_t part_cap, part_base;              /* part's room and where the partition starts */
    int64_t send_off[PLAN_MAX_BUCKETS];       /* bucket b of rank r's share: part offset */
    int64_t round_end[PLAN_MAX_BUCKETS];      /* part offset where round j's region ends */
    int64_t recv_off[PLAN_MAX_BUCKETS];       /* [j * G + s]: recv offset of rank s's piece of sub-bucket j */
    int64_t sub_start[PLAN_MAX_BUCKETS + 1];  /* [K]: keys received in all */
    int wait_round[PLAN_MAX_BUCKETS];
} ss_layout;

/* NULL once L is filled in for rank r, or why the plan cannot run there (a
 * share larger than part_cap, counts that do not add up to the share, a
 * bucket larger than recv_cap). */
const char *plan_layout(const ss_plan *p, int r, int64_t part_cap, int64_t recv_cap, ss_layout *L);

#ifdef __cplusplus
}
#endif

#endif
