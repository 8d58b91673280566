/* onesweep_look_back.cuh - ch13 step 7: how a block learns, while the blocks
 * before it still run, how many keys of each digit all the earlier tiles hold:
 * the status words each tile publishes, tile numbers handed out in the order
 * blocks start, and the decoupled look-back over the earlier tiles' words
 * (Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled
 * Look-back", 2016).
 *
 * The look-back's state of one (tile, digit) is ONE aligned 32-bit word, its
 * flag and its count together (status words, below). A store or load of an
 * aligned word is single-copy atomic: another SM sees the whole old word or
 * the whole new one, never a new flag with an old count. So no fence is needed
 * between flag and count (the paper's pseudo-code keeps them apart, and then
 * each side needs one: docs/ch13-onesweep.md).
 *
 * Every name this header defines starts with onesweep_ or ONESWEEP_, as in
 * onesweep_tile.cuh, whose digits and tile it counts. */
#ifndef ONESWEEP_LOOK_BACK_CUH
#define ONESWEEP_LOOK_BACK_CUH

#include "onesweep_tile.cuh"

#ifndef ONESWEEP_LOOKBACK_WINDOW
#define ONESWEEP_LOOKBACK_WINDOW 4 /* earlier tiles the look-back reads per round trip (1: one at a time) */
#endif

/* ---- status words: the look-back's state of one (tile, digit) -------------
 *   0                              not ready (the memset before the sort)
 *   ONESWEEP_STATUS_AGGREGATE | c  c = the tile's own keys of the digit (c <= ONESWEEP_TILE < 2^30)
 *   ONESWEEP_STATUS_INCLUSIVE | c  c = the digit's keys in tiles 0 .. this one (c <= n < 2^31)
 * Tile-major: a block's first 256 threads (thread d for digit d, of its
 * ONESWEEP_THREADS) write and read one tile's 256 words at once, coalesced.
 * Two tables, the passes taking them in turn: while pass p runs on table
 * p % 2, each of its blocks clears its tile's words of the other table, which
 * pass p - 1 left full and pass p + 1 will find zeroed (so the tables take
 * half the memory of one per pass, and no launch clears them). */
#define ONESWEEP_STATUS_AGGREGATE      0x40000000u
#define ONESWEEP_STATUS_INCLUSIVE      0x80000000u
#define ONESWEEP_LOOKBACK_WORDS(tiles) ((size_t)(tiles)*ONESWEEP_RADIX) /* one pass's table */
#define ONESWEEP_STATUS_TABLES         2

/* The count in a status word (the flag bits cleared). */
static __device__ __forceinline__ unsigned int onesweep_count_of(unsigned int word)
{
    return word & (word & ONESWEEP_STATUS_INCLUSIVE ? ~ONESWEEP_STATUS_INCLUSIVE : ~ONESWEEP_STATUS_AGGREGATE);
}

/* One store of the whole word: no SM can see its flag without its count.
 * Volatile: it goes to L2, where the other SMs read. */
static __device__ __forceinline__ void onesweep_publish(unsigned int *status, unsigned int tile, unsigned int d,
                                                        unsigned int word)
{
    *(volatile unsigned int *)&status[(size_t)tile * ONESWEEP_RADIX + d] = word;
}

/* One load of the whole word, from L2 (volatile: never a copy this SM's L1 kept). */
static __device__ __forceinline__ unsigned int onesweep_read_status(const unsigned int *status, unsigned int tile,
                                                                    unsigned int d)
{
    return *(const volatile unsigned int *)&status[(size_t)tile * ONESWEEP_RADIX + d];
}

/* Forward progress: a block waits in onesweep_look_back only for tiles with
 * smaller numbers. Numbers are handed out in the order blocks start, so those
 * tiles belong to blocks already running (or done), which will publish. With
 * blockIdx.x instead, block 5 could be resident and spinning while block 4
 * waits for a free SM that block 5 holds: the grid would never finish. */
static __device__ __forceinline__ unsigned int onesweep_take_tile(unsigned int *counter, unsigned int *s_tile_id)
{
    if (threadIdx.x == 0)
        *s_tile_id = atomicAdd(counter, 1u);
    __syncthreads();
    return *s_tile_id;
}

/* Tiles j, j-1, ..., j-ONESWEEP_LOOKBACK_WINDOW+1 of digit d: their status
 * words into word[0], word[1], ..., the loads independent, so all are in
 * flight at once. A tile before 0 reads as "inclusive, 0". */
static __device__ __forceinline__ void onesweep_read_window(const unsigned int *status, int j, unsigned int d,
                                                            unsigned int *word)
{
#pragma unroll
    for (int k = 0; k < ONESWEEP_LOOKBACK_WINDOW; k++)
        word[k] = j - k >= 0 ? onesweep_read_status(status, (unsigned int)(j - k), d) : ONESWEEP_STATUS_INCLUSIVE;
}

/* Thread d: the keys of digit d in tiles 0 .. tile-1, walking back from
 * tile-1: an aggregate is added and the walk goes on, an inclusive prefix is
 * added and ends it, a tile not ready yet is read again. Then this tile's
 * inclusive prefix is published for the tiles after it. */
static __device__ __forceinline__ unsigned int onesweep_look_back(unsigned int *status, unsigned int tile,
                                                                  unsigned int d, unsigned int count)
{
    /* exercise: onesweep_look_back(), the decoupled look-back: walk back from j = tile - 1, a window at a time (onesweep_read_window(status, j, d, word): word[k] is tile j - k's status word), adding each word's count (onesweep_count_of) to before, in order, until a word is ONESWEEP_STATUS_INCLUSIVE; at a word still 0 (not ready) stop the round: drop it and the rest of the window and read the window again from that tile. Then publish this tile's inclusive prefix, onesweep_publish(status, tile, d, ONESWEEP_STATUS_INCLUSIVE | (before + count)), and return before */
    /* hint: an aggregate (ONESWEEP_STATUS_AGGREGATE) is one tile's own count: add it and go on to the tile before; an inclusive prefix already holds every tile before it: add it and stop. A ready word past a not-ready one must wait: adding it would skip the not-ready tile's count */
    /* hint: wait only for tiles before yours: their blocks are running (onesweep_take_tile) and publish their aggregates without waiting for anyone; onesweep_read_window gives "inclusive, 0" for tiles before 0, so the walk always ends */
    /* hint: keep j as the next tile to add (one down per word added) and walk the window with #pragma unroll and two flags, ready and done, instead of a break: an index into word[] that is not a constant moves the array to local memory */
    unsigned int before = 0;
    int done = 0;
    for (int j = (int)tile - 1; !done;) { /* j: the next tile to add */
        unsigned int word[ONESWEEP_LOOKBACK_WINDOW];
        onesweep_read_window(status, j, d, word);
        int ready = 1;
#pragma unroll
        for (int k = 0; k < ONESWEEP_LOOKBACK_WINDOW; k++) {
            ready = ready && !done && word[k] != 0; /* stop at the first tile not ready: read it again */
            if (ready) {
                before += onesweep_count_of(word[k]);
                done = (word[k] & ONESWEEP_STATUS_INCLUSIVE) != 0; /* a prefix covers every tile before it */
                j--;
            }
        }
    }
    onesweep_publish(status, tile, d, ONESWEEP_STATUS_INCLUSIVE | (before + count));
    return before;
    /* exercise stub:
    onesweep_publish(status, tile, d, ONESWEEP_STATUS_INCLUSIVE | count);
    return 0;
    */
    /* end exercise */
}

#endif
