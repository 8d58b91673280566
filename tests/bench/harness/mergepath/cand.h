/* cand.h - tests/bench/harness/mergepath's candidates for ch13 step 8: what
 * one build of cand.cu (the step's sort.cu, included, with a tile shape and
 * register bounds given at compile time: candidates.mk) offers sortspeed.cu.
 * Every build exports one cand_build, cand_build_info_<build>. */
#ifndef MP_CAND_H
#define MP_CAND_H

#include <stddef.h>

#include "sort.h"

typedef struct {
    const char *name;      /* the build's name in candidates.mk */
    int threads, items;    /* MP_THREADS, MP_ITEMS */
    int tile;              /* MP_TILE: the merge passes' output tile */
    int sort_threads;      /* BLOCK_SORT_THREADS: the block sort's block (MP_THREADS, or 2^k times it) */
    int sort_tile;         /* BLOCK_SORT_TILE: the block sort's tile, sort_threads x items */
    int keys_blocks;       /* the keys merges' __launch_bounds__ min blocks (1: registers unbounded) */
    int pairs_blocks;      /* the pairs kernels' (0: the step's __launch_bounds__(threads) alone) */
    const sort_step *step; /* the build's own descriptor, as sort_run runs it */
    /* NULL once every kernel of the build can run (shared memory opted in), or why not */
    const char *(*fit)(int with_values);
    /* each kernel's registers, spilled bytes and resident blocks per SM, one line */
    void (*resources)(char *buf, size_t len);
    /* pass 0: tiles of `sort_tile` keys sorted (values NULL: keys only) */
    void (*block_sort)(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                       unsigned int *values_out, int n);
    /* part[t] for every output tile t of the pass over runs of `width`: the step's
     * partition_pass (one thread a tile), or warp = 1: a warp a tile, 32 probes a step */
    void (*partition)(const unsigned int *keys, int n, int width, int *part, int warp);
    /* one merge pass over runs of `width` (a multiple of tile): the step's merge_tile, or
     * one_tile = 1 (pairs): values held in registers and staged through the keys' shared tile */
    void (*merge)(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                  unsigned int *values_out, int n, int width, const int *part, int one_tile);
} cand_build;

#endif
