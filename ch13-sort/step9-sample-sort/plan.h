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
 * while the next round is on the wire. Each bucket is cut once more, by key
 * value, into F sub-buckets (the radix cut, plan_fine_of): the keys of one
 * sub-bucket agree on every bit above the bucket's `shift`, so a chunk sorts
 * only on its low `shift` bits, each sub-bucket on its own (the segments of
 * the local sort), as RMG sort does after its radix partition. */
#ifndef SS_PLAN_H
#define SS_PLAN_H

#include "lab.h"

#define PLAN_MAX_RANKS   1024
#define PLAN_MAX_BUCKETS 1024      /* G * K */
#define PLAN_MAX_SUBS    1024      /* G * K * F: the scatter ranks keys by sub-bucket in shared memory */
#define PLAN_MAX_FINE    64        /* F: sub-buckets per bucket */
#define PLAN_MAX_SAMPLE  (1 << 16) /* sample keys per rank */

LAB_BEGIN_C

/* splitmix64's finalizer: the sample's jitter and the inputs (gen.h). */
static inline __host__ __device__ uint64_t plan_mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

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
    /* TODO(3): plan_bucket_of(), the cut: binary search for how many of the nsplit splitters are <=
       the item (key, pos); items compare by key, then by position */
    (void)key, (void)pos, (void)split_key, (void)split_pos, (void)nsplit;
    return 0;
}

/* The radix cut inside bucket b: the sub-bucket of a key of b is its bits
 * from shift[b] up, less those of the bucket's lowest key (fine_base[b]). */
static inline __host__ __device__ int plan_fine_of(unsigned int key, unsigned int shift, unsigned int fine_base)
{
    return (int)((unsigned int)((uint64_t)key >> shift) - fine_base);
}

/* The plan every rank holds: splitters and sub-bucket cuts (after
 * plan_choose_splitters) and every rank's count per sub-bucket (after
 * plan_set_counts). Sub-bucket x = b * F + f: sub-bucket f of bucket b. */
typedef struct {
    int G, K, B, F, BF;      /* ranks, chunks per rank, buckets (G * K), sub-buckets per bucket, in all */
    int64_t N;               /* keys in all */
    int S;                   /* sample keys per rank */
    double first_weight;     /* the first chunk's size against the others' 1: small, so the pipeline fills fast */
    unsigned int *split_key; /* B - 1 splitters, items in increasing order */
    uint64_t *split_pos;
    unsigned int *shift;     /* [B]: the keys of a sub-bucket of b agree on their bits from shift[b] up */
    unsigned int *fine_base; /* [B]: the lowest key of bucket b, >> shift[b] */
    uint64_t *counts;        /* G x BF: counts[s * BF + x] = keys of rank s in sub-bucket x */
} ss_plan;

/* NULL once p is set up for N keys on G ranks, or why not (nothing allocated then). */
const char *plan_init(ss_plan *p, int64_t N, int G, int K, int F, int S, double first_weight);
void plan_free(ss_plan *p);

/* The default chunks per rank: 1 on one rank (nothing to overlap), else 2,
 * fewer when G * K would pass PLAN_MAX_BUCKETS. */
int plan_default_chunks(int G);

/* The default sub-buckets per bucket: as many as PLAN_MAX_SUBS allows, at
 * most PLAN_MAX_FINE; 1 when there is one bucket (the share, sorted whole). */
int plan_default_fine(int G, int K);

/* The part of a rank's bucket chunk j is meant to hold (the first one
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
 * d * N / G, its chunks in between); then each bucket's radix cut (shift,
 * fine_base). Each sampled key stands for n_r / used_r keys of its rank. */
void plan_choose_splitters(ss_plan *p, const unsigned int *gathered);

/* ---- splitters at bin edges, from exact counts ---------------------------- */

/* The bins: a key's top PLAN_BIN_BITS bits. Every rank counts its keys per
 * bin (a histogram, one read of the share); where the keys are spread thinly
 * over the bins, as uniform keys are, the splitters can sit on bin edges, and
 * then every count the plan needs is a sum of bins: no sample, no count pass
 * (plan_bin_splitters). */
#define PLAN_BIN_BITS 12
#define PLAN_BINS     (1 << PLAN_BIN_BITS)
static inline __host__ __device__ unsigned int plan_bin_of(unsigned int key)
{
    return key >> (32 - PLAN_BIN_BITS);
}

/* From every rank's bin counts (G rows of PLAN_BINS, rank-major): splitter t
 * - 1 at the bin edge nearest boundary t's target, (edge's first key, 0), so
 * bucket b is the bins [first_bin[b], first_bin[b + 1]); each rank's counts
 * per bucket set as plan_set_counts would (F must be 1), and the radix cuts.
 * 1 when every boundary lands within `slack` x N / G keys of its target; 0
 * (nothing set) when a bin is too heavy for that: then the sample decides. */
int plan_bin_splitters(ss_plan *p, const unsigned int *bins, double slack, int *first_bin);

/* ---- counts and layout --------------------------------------------------- */

/* counts: G x BF, as gathered from every rank's count kernel. */
void plan_set_counts(ss_plan *p, const uint64_t *counts);

/* Keys rank s has in bucket b (its F sub-buckets). */
int64_t plan_bucket_count(const ss_plan *p, int s, int b);

/* Keys rank d receives (its K buckets from every rank). */
int64_t plan_received(const ss_plan *p, int d);

/* The largest bucket over ranks, in keys (and which rank holds it). */
int64_t plan_largest(const ss_plan *p, int *rank);

/* The bits chunk j of rank r sorts on: shift[r * K + j]. */
unsigned int plan_chunk_bits(const ss_plan *p, int r, int j);

/* Where everything lies on rank r, from the plan.
 *  part: the partition's output, then the sorted run. The scatter writes rank
 *    r's share there, round by round (round j: buckets (0, j), (1, j), ...,
 *    (G-1, j), each sub-bucket by sub-bucket), from part_base = part_cap - n,
 *    so the front of the buffer is free from the start and each round frees
 *    its region once its keys are sent.
 *  recv: the buffer of the received chunks. Chunk j occupies [sub_start[j],
 *    sub_start[j+1]); in it the piece from rank s lands at recv_off[j*G+s], in
 *    rank order, and sub-bucket f of that piece at piece_off[(j*G+s)*F+f].
 *  The sort of chunk j reads its pieces in recv and writes sub-bucket by
 *    sub-bucket (segment f from seg_start[j*F+f]) into part's [sub_start[j],
 *    sub_start[j+1]), its place in the rank's sorted run, using the chunk's
 *    own region of recv as its second buffer. It starts after round
 *    wait_round[j] (>= j), the first round after which that region of part
 *    holds no key still to be sent. */
typedef struct {
    int r;
    int64_t n;                               /* rank r's share */
    int64_t part_cap, part_base;             /* part's room and where the partition starts */
    int64_t send_off[PLAN_MAX_SUBS];         /* sub-bucket x of rank r's share: part offset */
    int64_t round_end[PLAN_MAX_BUCKETS];     /* part offset where round j's region ends */
    int64_t recv_off[PLAN_MAX_BUCKETS];      /* [j * G + s]: recv offset of rank s's piece of chunk j */
    int64_t piece_off[PLAN_MAX_SUBS];        /* [(j * G + s) * F + f]: sub-bucket f of that piece */
    int64_t sub_start[PLAN_MAX_BUCKETS + 1]; /* [K]: keys received in all */
    int64_t seg_start[PLAN_MAX_SUBS + 1];    /* [j * F + f]: segment f of chunk j in the sorted run */
    int wait_round[PLAN_MAX_BUCKETS];
} ss_layout;

/* NULL once L is filled in for rank r, or why the plan cannot run there (a
 * share larger than part_cap, counts that do not add up to the share, a
 * bucket larger than recv_cap). */
const char *plan_layout(const ss_plan *p, int r, int64_t part_cap, int64_t recv_cap, ss_layout *L);

LAB_END_C

#endif
