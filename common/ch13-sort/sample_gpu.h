/* sample_gpu.h - the GPU side of the sort across GPUs' inputs and checks
 * (steps 9 and 10), and CUB's sort of a chunk: a rank's share of gen.h's
 * input made in place, and the checks that scale of one rank's run: sorted (and stable, when the values
 * are input positions), every item inside its rank's splitters, its first
 * and last items for the order across ranks, and an order-independent hash
 * of its keys and pairs against the input's. A step adds the ranks' sums and
 * gathers their edges over its own link, then asks sample_check_report. */
#ifndef LAB_SAMPLE_GPU_H
#define LAB_SAMPLE_GPU_H

#include "lab.h"

LAB_BEGIN_C

/* A rank's check words (uint64 each, sample_check_bytes(G) in all): */
enum {
    SG_INVERSIONS,      /* keys below the one before them, */
    SG_FIRST_INVERSION, /* the first such index */
    SG_UNSTABLE,        /* equal keys out of input order, */
    SG_FIRST_UNSTABLE,
    SG_OUTSIDE, /* items outside the rank's splitters, */
    SG_FIRST_OUTSIDE,
    SG_IN_KEYS, /* from here six sums the step adds over every rank: the input's hashes and count, */
    SG_IN_PAIRS,
    SG_IN_COUNT,
    SG_OUT_KEYS, /* and the output's */
    SG_OUT_PAIRS,
    SG_OUT_COUNT,
    SG_EDGE,               /* 5 words: n, first key, first value, last key, last value */
    SG_SLOTS = SG_EDGE + 5 /* then G x 5: every rank's edge, at 5 x its rank (the step gathers them) */
};
size_t sample_check_bytes(int G);

/* keys[0, n) (values) = the input's keys (values) at positions start on. */
void sample_generate(unsigned int *keys, unsigned int *values, int64_t n, int64_t start, int64_t N, int dist,
                     uint64_t seed, cudaStream_t stream);

/* out[0..2] = the hashes of the keys and pairs (values NULL: keys alone) and the count. */
void sample_hash(const unsigned int *keys, const unsigned int *values, int64_t n, uint64_t *out_d, cudaStream_t stream);

/* A rank's run (k, v: NULL for keys alone; n of the N keys) checked into
 * check_d: it holds buckets [b_lo, b_hi) of the nsplit + 1 the splitters cut;
 * in[3]: its input's hashes and count. */
void sample_check_run(const unsigned int *k, const unsigned int *v, int64_t n, int64_t N, const unsigned int *split_key,
                      const uint64_t *split_pos, int nsplit, int b_lo, int b_hi, const uint64_t *in, uint64_t *check_d,
                      cudaStream_t stream);

/* What rank `rank`'s words h say, once the sums are added over the ranks and
 * the edges gathered: the failures, each printed. `sent`: the keys the plan
 * sent this rank. */
int sample_check_report(const uint64_t *h, int rank, int64_t N, int64_t sent, int with_values);

/* A rank's device memory: its buffers (own_bytes) against 2.25 x its share's
 * bytes + 256 MiB, and what the device lost since they were made (free_before;
 * ranks that share a GPU count their own) as x share, the largest into *peak.
 * 1 (and a line) when the buffers pass the bound, unless the local sort's
 * tables (temp_bytes) hold a second buffer of their own (a NOTE then). */
int sample_check_memory(int rank, int device, size_t own_bytes, size_t free_before, size_t temp_bytes, double share,
                        int shares_gpu, double *peak);

/* cub::DeviceRadixSort on m keys (values Av, Zv; pairs 0: keys alone)
 * between A and Z; *in_a: the result ended in A. temp NULL: *bytes = the
 * tables of any chunk up to m keys. */
cudaError_t sample_cub_sort(void *temp, size_t *bytes, unsigned int *A, unsigned int *Av, unsigned int *Z,
                            unsigned int *Zv, int64_t m, int pairs, int *in_a, cudaStream_t stream);

LAB_END_C

#endif
