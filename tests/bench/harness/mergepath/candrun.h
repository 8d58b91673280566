/* candrun.h - tests/bench/harness/mergepath: one candidate's sort of ch13
 * step 8 (sortspeed.cu), its passes as sort_run runs the step's: pass 0 the
 * block sort by one build, then a partition and a merge pass by another build
 * per doubling of the runs, alternating between the output and a second
 * buffer so that the last pass writes the output; and the split of its time
 * into block sort, partitions and merges. */
#ifndef MP_CANDRUN_H
#define MP_CANDRUN_H

#include "cand.h"
#include "timing.h"

#define CAND_MAX_EVENTS 64 /* around each kernel: 2 + 2 x 31 merge passes at most */

typedef struct {
    const cand_build *bs, *mg; /* the block sort's build, the merge passes' (its tile divides bs's sort_tile by 2^k) */
    int warp, one_tile;        /* the partition a warp a tile; the pairs merge through one shared tile */
    int64_t n;
    const unsigned int *keys, *values; /* values NULL: keys only */
    unsigned int *out, *out_v, *alt, *alt_v;
    int *part;       /* an entry per merge tile, and one */
    cudaEvent_t *ev; /* NULL, or CAND_MAX_EVENTS events recorded around each kernel */
} cand_sort;

/* The merge passes after the block sort: one per doubling until a run holds all n. */
static int cand_merges(const cand_sort *s)
{
    int m = 0;
    for (int64_t width = s->bs->sort_tile; width < s->n; width *= 2)
        m++;
    return m;
}

static void cand_mark(const cand_sort *s, int *e)
{
    if (s->ev != NULL)
        CUDA_CHECK(cudaEventRecord(s->ev[(*e)++]));
}

static void cand_sort_run(const cand_sort *s)
{
    const int merges = cand_merges(s), total = 1 + merges, n = (int)s->n;
    const int with_values = s->values != NULL;
    int e = 0;
    cand_mark(s, &e);
    /* pass k writes the output when an even number of passes follow it (sort_run's ping-pong) */
    unsigned int *dst = (total - 1) % 2 == 0 ? s->out : s->alt;
    unsigned int *dst_v = with_values ? (dst == s->out ? s->out_v : s->alt_v) : NULL;
    s->bs->block_sort(s->keys, s->values, dst, dst_v, n);
    cand_mark(s, &e);
    int width = s->bs->sort_tile;
    for (int k = 1; k <= merges; k++, width *= 2) {
        const unsigned int *src = dst, *src_v = dst_v;
        dst = (total - 1 - k) % 2 == 0 ? s->out : s->alt;
        dst_v = with_values ? (dst == s->out ? s->out_v : s->alt_v) : NULL;
        s->mg->partition(src, n, width, s->part, s->warp);
        cand_mark(s, &e);
        s->mg->merge(src, src_v, dst, dst_v, n, width, s->part, s->one_tile);
        cand_mark(s, &e);
    }
}

/* split = the medians of 5 sorts' block sort, partitions (summed) and merges (summed), ms. */
static void cand_breakdown(cand_sort *s, cudaEvent_t ev[CAND_MAX_EVENTS], double split[3])
{
    double ms[3][5];
    const int merges = cand_merges(s);
    s->ev = ev;
    for (int r = 0; r < 5; r++) {
        cand_sort_run(s);
        CUDA_CHECK(cudaDeviceSynchronize());
        float t;
        CUDA_CHECK(cudaEventElapsedTime(&t, ev[0], ev[1]));
        ms[0][r] = t, ms[1][r] = ms[2][r] = 0.0;
        for (int k = 0; k < merges; k++) {
            CUDA_CHECK(cudaEventElapsedTime(&t, ev[1 + 2 * k], ev[2 + 2 * k]));
            ms[1][r] += t;
            CUDA_CHECK(cudaEventElapsedTime(&t, ev[2 + 2 * k], ev[3 + 2 * k]));
            ms[2][r] += t;
        }
    }
    s->ev = NULL;
    for (int p = 0; p < 3; p++)
        split[p] = lab_timing_of(ms[p], 5).median_ms;
}

#endif
