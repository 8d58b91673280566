/* onesweep.cuh - ch13 step 7 (beyond the book): step 4's three launches per
 * digit (local sort, table scan, scatter) become one, because each block finds
 * where its digit runs go by looking back at the blocks before it while it
 * runs, so every pass reads and writes each key once.
 *
 * Adinets and Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort
 * for GPUs" (2022), on the chained scan with decoupled look-back of Merrill and
 * Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back" (2016).
 * Our own code, in the lab's style:
 *
 *   onesweep_digit_histograms  one read of the keys counts all four 8-bit digits
 *   onesweep_plan_passes       one block: each digit's first output place per
 *                              pass, and which passes run (not those whose
 *                              digit is the same for every key)
 *   onesweep_pass              one launch per digit; each block, phase by phase:
 *     onesweep_take_tile         its tile comes from an atomic counter, not blockIdx.x
 *     onesweep_load_tile         warp w holds keys [w*32*K, (w+1)*32*K) of the tile
 *     onesweep_count_digits      the tile's count of each digit
 *     onesweep_publish           posts it (an aggregate) for the blocks after this one
 *     onesweep_place_digits      where each warp's keys of each digit start in the tile
 *     onesweep_rank_tile         each key's place in the tile sorted by digit (stable), or
 *     onesweep_rank_arrivals     in the first pass over keys alone, in any order inside a digit
 *     onesweep_look_back         the keys of each digit in every earlier tile
 *     onesweep_scatter_tile      the sorted tile to its places, digit run by digit run
 *
 * Every name this header defines starts with onesweep_ or ONESWEEP_: another
 * step includes it (step 9, for its local sort) and keeps its own names free.
 *
 * The look-back's state of one (tile, digit) is ONE aligned 32-bit word, its
 * flag and its count together (status words, below). A store or load of an
 * aligned word is single-copy atomic: another SM sees the whole old word or
 * the whole new one, never a new flag with an old count. So no fence is needed
 * between flag and count (the paper's pseudo-code keeps them apart, and then
 * each side needs one: docs/ch13-sort.md).
 *
 * The host entry points are declared in onesweep.h: onesweep_sort (input
 * kept, result in keys_out; the step's launcher in sort.cu) and
 * onesweep_sort_buffers (two buffers of the caller's, sorted in place).
 */
#ifndef ONESWEEP_CUH
#define ONESWEEP_CUH

#include "launch.h"
#include "onesweep.h"

/* Indices and counts are unsigned int: n up to 2^31 - 1 (the inclusive prefix
 * in a status word has 31 bits). 32-bit keys only. */
#define ONESWEEP_MAX_N     2147483647LL
#define ONESWEEP_RANGE_WHY "n must be 0 to 2^31 - 1 (unsigned int indices; a status word holds a 31-bit prefix)"

/* ---- compile-time parameters (tests/bench/harness/onesweep measures them) --------------- */
#ifndef ONESWEEP_THREADS
#define ONESWEEP_THREADS 384 /* 12 warps; at least one thread per digit */
#endif
#ifndef ONESWEEP_KEYS_PER_THREAD
#define ONESWEEP_KEYS_PER_THREAD 19 /* odd, as CUB's own tile for this sort on sm_90 */
#endif
#ifndef ONESWEEP_MIN_BLOCKS /* keys: blocks per SM the registers must allow: 3 (7 % faster than 2 on an H200), */
#define ONESWEEP_MIN_BLOCKS /* or as many as the SM holds (sm_75: 2) */ \
    (LAB_SM_THREADS / ONESWEEP_THREADS < 3 ? LAB_SM_THREADS / ONESWEEP_THREADS : 3)
#endif
#ifndef ONESWEEP_MIN_BLOCKS_PAIRS
#define ONESWEEP_MIN_BLOCKS_PAIRS 2 /* pairs: their tile of keys and values is twice the shared memory */
#endif
#ifndef ONESWEEP_LOOKBACK_WINDOW
#define ONESWEEP_LOOKBACK_WINDOW 4 /* earlier tiles the look-back reads per round trip (1: one at a time) */
#endif
#define ONESWEEP_DIGIT_BITS                8
#define ONESWEEP_RADIX                     256 /* 2^ONESWEEP_DIGIT_BITS digits */
#define ONESWEEP_PASSES                    4   /* 32-bit keys */
#define ONESWEEP_WARPS                     (ONESWEEP_THREADS / 32)
#define ONESWEEP_TILE                      (ONESWEEP_THREADS * ONESWEEP_KEYS_PER_THREAD)
#define ONESWEEP_HISTOGRAM_THREADS         256
#define ONESWEEP_HISTOGRAM_KEYS_PER_THREAD 16
#define ONESWEEP_HISTOGRAM_BLOCKS_PER_SM   4 /* one wave of blocks, each striding over the keys */
#define ONESWEEP_FULL_WARP                 0xffffffffu

#if ONESWEEP_THREADS % 32 != 0 || ONESWEEP_THREADS < ONESWEEP_RADIX || ONESWEEP_THREADS > 1024
#error "ONESWEEP_THREADS: a multiple of 32 from 256 (one thread per digit) to 1024"
#endif

/* ---- status words: the look-back's state of one (tile, digit) -------------
 *   0                              not ready (the memset before the sort)
 *   ONESWEEP_STATUS_AGGREGATE | c  c = the tile's own keys of the digit (c <= ONESWEEP_TILE < 2^30)
 *   ONESWEEP_STATUS_INCLUSIVE | c  c = the digit's keys in tiles 0 .. this one (c <= n < 2^31)
 * Tile-major: the 256 threads of a block write and read one tile's 256 words
 * at once, coalesced. Two tables, the passes taking them in turn: while pass p
 * runs on table p % 2, each of its blocks clears its tile's words of the other
 * table, which pass p - 1 left full and pass p + 1 will find zeroed (so the
 * tables take half the memory of one per pass, and no launch clears them). */
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

typedef struct {
    const unsigned int *keys_in, *values_in; /* values_in NULL: keys only */
    unsigned int *keys_out, *values_out, *keys_alt, *values_alt;
    const unsigned int *bucket_start; /* [ONESWEEP_PASSES][ONESWEEP_RADIX]: digit d's first output place in pass p */
    const unsigned int *run;          /* bit p: pass p runs (onesweep_plan_passes) */
    unsigned int *tile_counter;       /* [ONESWEEP_PASSES] */
    unsigned int *status;             /* [ONESWEEP_STATUS_TABLES][ONESWEEP_LOOKBACK_WORDS(tiles)] */
    unsigned int n, tiles;
} onesweep_args;

/* The key's 8-bit digit at bit `shift`. */
static __device__ __forceinline__ unsigned int onesweep_digit(unsigned int key, unsigned int shift)
{
    return (key >> shift) & (ONESWEEP_RADIX - 1);
}

/* ---- the histogram pass --------------------------------------------------- */

/* All four digit histograms in one read of the keys: shared-memory counters
 * per block, added to the global ones at the end (grid-stride over tiles). */
__global__ __launch_bounds__(ONESWEEP_HISTOGRAM_THREADS,
                             ONESWEEP_HISTOGRAM_BLOCKS_PER_SM) void onesweep_digit_histograms(const unsigned int *keys,
                                                                                              int64_t n,
                                                                                              unsigned int *histogram)
{
    __shared__ unsigned int s_count[ONESWEEP_PASSES * ONESWEEP_RADIX];
    for (int i = threadIdx.x; i < ONESWEEP_PASSES * ONESWEEP_RADIX; i += ONESWEEP_HISTOGRAM_THREADS)
        s_count[i] = 0;
    __syncthreads();
    const int64_t tile = (int64_t)ONESWEEP_HISTOGRAM_THREADS * ONESWEEP_HISTOGRAM_KEYS_PER_THREAD;
    for (int64_t base = (int64_t)blockIdx.x * tile; base < n; base += (int64_t)gridDim.x * tile) {
        unsigned int key[ONESWEEP_HISTOGRAM_KEYS_PER_THREAD];
#pragma unroll
        for (int u = 0; u < ONESWEEP_HISTOGRAM_KEYS_PER_THREAD; u++) { /* all loads first: many in flight */
            const int64_t i = base + u * ONESWEEP_HISTOGRAM_THREADS + threadIdx.x;
            key[u] = i < n ? keys[i] : 0;
        }
#pragma unroll
        for (int u = 0; u < ONESWEEP_HISTOGRAM_KEYS_PER_THREAD; u++)
            if (base + u * ONESWEEP_HISTOGRAM_THREADS + threadIdx.x < n)
#pragma unroll
                for (int p = 0; p < ONESWEEP_PASSES; p++)
                    atomicAdd(&s_count[p * ONESWEEP_RADIX + onesweep_digit(key[u], p * ONESWEEP_DIGIT_BITS)], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < ONESWEEP_PASSES * ONESWEEP_RADIX; i += ONESWEEP_HISTOGRAM_THREADS)
        if (s_count[i] != 0)
            atomicAdd(&histogram[i], s_count[i]);
}

/* Exclusive scan of one value per digit over threads 0 .. ONESWEEP_RADIX-1
 * (other threads pass 0 and only take part in the barriers). */
static __device__ __forceinline__ unsigned int onesweep_scan_digits(unsigned int x, unsigned int *s_scan)
{
    const unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned int inclusive = x;
#pragma unroll
    for (unsigned int k = 1; k < 32; k *= 2) {
        const unsigned int y = __shfl_up_sync(ONESWEEP_FULL_WARP, inclusive, k);
        if (lane >= k)
            inclusive += y;
    }
    if (lane == 31 && warp < ONESWEEP_RADIX / 32)
        s_scan[warp] = inclusive;
    __syncthreads();
    unsigned int before = 0;
    for (unsigned int w = 0; w < warp && w < ONESWEEP_RADIX / 32; w++)
        before += s_scan[w];
    __syncthreads(); /* s_scan is free for the next scan */
    return before + inclusive - x;
}

/* One block of ONESWEEP_RADIX threads, after onesweep_digit_histograms: each
 * pass's bucket starts (a scan of its histogram) and which passes run. A pass
 * whose digit is the same for every key (one bin holds all n) would only move
 * the keys, so it is skipped; sorting in place (keys_in == keys_out), the
 * passes that run must be even in number to end where they began, so one
 * skipped pass runs. */
__global__ __launch_bounds__(ONESWEEP_RADIX) void onesweep_plan_passes(const unsigned int *histogram, unsigned int n,
                                                                       int in_place, unsigned int *bucket_start,
                                                                       unsigned int *run)
{
    __shared__ unsigned int s_scan[ONESWEEP_RADIX / 32];
    unsigned int passes = 0;
    for (unsigned int p = 0; p < ONESWEEP_PASSES; p++) {
        const unsigned int count = histogram[p * ONESWEEP_RADIX + threadIdx.x];
        bucket_start[p * ONESWEEP_RADIX + threadIdx.x] = onesweep_scan_digits(count, s_scan);
        if (!__syncthreads_or(count == n))
            passes |= 1u << p;
    }
    if (in_place && __popc(passes) % 2 == 1)
        passes |= ~passes & (passes + 1); /* the lowest skipped pass */
    if (threadIdx.x == 0)
        *run = passes;
}

/* ---- one pass: the block's phases, in order ------------------------------- */

typedef struct {
    const unsigned int *keys_in, *values_in;
    unsigned int *keys_out, *values_out;
} onesweep_buffers;

/* The passes that run ping-pong between keys_alt and keys_out so that the last
 * one writes keys_out; the first reads keys_in. */
static __device__ __forceinline__ onesweep_buffers onesweep_pick_buffers(const onesweep_args *a, unsigned int run,
                                                                         unsigned int pass)
{
    const int before = __popc(run & ((1u << pass) - 1)), after = __popc(run >> pass >> 1);
    onesweep_buffers b;
    b.keys_out = after % 2 == 0 ? a->keys_out : a->keys_alt;
    b.values_out = after % 2 == 0 ? a->values_out : a->values_alt;
    b.keys_in = before == 0 ? a->keys_in : after % 2 == 1 ? a->keys_out : a->keys_alt; /* the last pass's output */
    b.values_in = before == 0 ? a->values_in : after % 2 == 1 ? a->values_out : a->values_alt;
    return b;
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

/* Warp-striped: warp w holds the 32*K consecutive keys from w*32*K, lane l the
 * keys l, l+32, ...: this thread's key u is the tile's key
 * onesweep_first_key() + 32 u. */
static __device__ __forceinline__ unsigned int onesweep_first_key(void)
{
    return threadIdx.x / 32 * 32 * ONESWEEP_KEYS_PER_THREAD + threadIdx.x % 32;
}

/* The tile warp-striped: coalesced loads, and (warp, u, lane) is the input
 * order onesweep_rank_tile keeps. Past the end of the last tile: `pad`. */
static __device__ __forceinline__ void onesweep_load_tile(const unsigned int *in, unsigned int base, unsigned int valid,
                                                          unsigned int *x, unsigned int pad)
{
    const unsigned int first = onesweep_first_key();
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++) {
        const unsigned int i = first + u * 32;
        x[u] = i < valid ? in[base + i] : pad;
    }
}

/* Each warp counts its keys per digit (row `warp` of s_warp); then thread d
 * turns column d into the count of d in the warps before each one, and
 * returns the tile's count of digit d. With `arrival` (not NULL), each of
 * the tile's `valid` keys also learns from its atomicAdd how many of its
 * warp's keys of its digit came before it, in the order the hardware took
 * them (onesweep_rank_arrivals), and the padding is not counted. */
static __device__ __forceinline__ unsigned int onesweep_count_digits(const unsigned int *key, unsigned int shift,
                                                                     unsigned int *s_warp, unsigned int *arrival,
                                                                     unsigned int valid)
{
    unsigned int *row = s_warp + threadIdx.x / 32 * ONESWEEP_RADIX;
    const unsigned int first = onesweep_first_key();
    for (unsigned int d = threadIdx.x % 32; d < ONESWEEP_RADIX; d += 32)
        row[d] = 0;
    __syncwarp();
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++) {
        unsigned int *counter = &row[onesweep_digit(key[u], shift)];
        if (arrival == NULL)
            atomicAdd(counter, 1u);
        else if (first + u * 32 < valid)
            arrival[u] = atomicAdd(counter, 1u);
    }
    __syncthreads();
    unsigned int total = 0;
    if (threadIdx.x < ONESWEEP_RADIX)
        for (int w = 0; w < ONESWEEP_WARPS; w++) {
            const unsigned int c = s_warp[w * ONESWEEP_RADIX + threadIdx.x];
            s_warp[w * ONESWEEP_RADIX + threadIdx.x] = total;
            total += c;
        }
    return total;
}

/* Where each digit starts in the sorted tile (a scan of the counts), added to
 * each warp's offsets: s_warp[w][d] = where warp w's first key of digit d
 * goes. Returns digit d's start. */
static __device__ __forceinline__ unsigned int onesweep_place_digits(unsigned int count, unsigned int *s_warp,
                                                                     unsigned int *s_scan)
{
    const unsigned int start = onesweep_scan_digits(threadIdx.x < ONESWEEP_RADIX ? count : 0, s_scan);
    if (threadIdx.x < ONESWEEP_RADIX)
        for (int w = 0; w < ONESWEEP_WARPS; w++)
            s_warp[w * ONESWEEP_RADIX + threadIdx.x] += start;
    __syncthreads();
    return start;
}

/* The lanes of this warp whose bit b of x is this lane's: one vote. In C:
 *     ones = __ballot_sync(ONESWEEP_FULL_WARP, (x >> b) & 1);
 *     return (x >> b) & 1 ? ones : ~ones;
 * written in PTX because nvcc makes about six instructions of that and three
 * of this (a vote, a not under the bit's predicate, an and). Step 9's
 * partition votes with it too. */
static __device__ __forceinline__ unsigned int onesweep_agree_on_bit(unsigned int x, int b)
{
    unsigned int agree;
    asm("{\n\t.reg .pred one;\n\t"
        "and.b32 %0, %1, %2;\n\t"
        "setp.ne.u32 one, %0, 0;\n\t"
        "vote.sync.ballot.b32 %0, one, 0xffffffff;\n\t"
        "@!one not.b32 %0, %0;\n\t}"
        : "=r"(agree)
        : "r"(x), "r"(1u << b));
    return agree;
}

/* The lanes of this warp whose digit is this lane's: one vote per bit of the
 * digit, and a lane keeps the voters that agree with it on every bit. Eight
 * votes beat one __match_any_sync(ONESWEEP_FULL_WARP, digit) here
 * (tests/bench/harness/onesweep measures both). */
static __device__ __forceinline__ unsigned int onesweep_peers_of(unsigned int digit)
{
    unsigned int peers = ONESWEEP_FULL_WARP;
#pragma unroll
    for (int b = 0; b < ONESWEEP_DIGIT_BITS; b++)
        peers &= onesweep_agree_on_bit(digit, b);
    return peers;
}

/* Multisplit, one step u at a time (32 keys of the warp): the lanes holding
 * the same digit find each other (onesweep_peers_of); the last of them claims
 * places for all of them in s_next[digit], the warp's next free place for that digit;
 * each goes after the same-digit lanes before it. Stable: (warp, u, lane) is
 * the input order. */
static __device__ __forceinline__ void onesweep_rank_tile(const unsigned int *key, unsigned int *rank,
                                                          unsigned int shift, unsigned int *s_next)
{
    const unsigned int lane = threadIdx.x % 32, lanes_before = (1u << lane) - 1;
    /* exercise: onesweep_rank_tile(), the paper's warp-level multisplit: for each u, rank[u] = the place of key[u] in the tile sorted by digit: find the peers (onesweep_peers_of(digit): the lanes whose key[u] has this digit), let one of them (the last: 31 - __clz(peers)) take __popc(peers) places from s_next[digit] with one atomicAdd, share the first place with __shfl_sync, and rank this key after the peers in lanes before this one */
    /* hint: s_next is this warp's row of onesweep_place_digits' table: s_next[digit] is where the warp's next key of that digit goes, so every rank is a place in the whole tile; one atomic per digit and step u keeps the warp's steps in order */
    /* hint: the atomicAdd returns the first of the places it takes, in the last peer only; every lane must then call __shfl_sync(ONESWEEP_FULL_WARP, ...) from that lane, even a lane that took nothing */
    /* hint: the peers in lanes below this one go first (lanes_before masks them): counting them keeps equal digits in their input order (stable) */
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++) {
        const unsigned int digit = onesweep_digit(key[u], shift);
        const unsigned int peers = onesweep_peers_of(digit);
        const int last = 31 - __clz(peers);
        unsigned int first = 0;
        if (lane == last) /* one lane per digit: one atomic reads s_next and moves it on */
            first = atomicAdd(&s_next[digit], __popc(peers));
        rank[u] = __shfl_sync(ONESWEEP_FULL_WARP, first, last) + __popc(peers & lanes_before);
    }
    /* exercise stub:
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)
        rank[u] = 0;
    */
    /* end exercise */
}

/* The tile ranked in any order inside a digit: key u goes after the keys of
 * its digit that reached its warp's counter first (arrival[u], from
 * onesweep_count_digits), from s_next[digit], the warp's first place of that
 * digit. No votes; not stable. The padding gets no place (ONESWEEP_TILE). */
static __device__ __forceinline__ void onesweep_rank_arrivals(const unsigned int *key, unsigned int *rank,
                                                              unsigned int shift, const unsigned int *s_next,
                                                              unsigned int valid)
{
    const unsigned int first = onesweep_first_key();
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)
        rank[u] = first + u * 32 < valid ? rank[u] + s_next[onesweep_digit(key[u], shift)] : ONESWEEP_TILE;
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

/* The tile sorted by digit is in shared memory: key i of it goes to
 * s_offset[its digit] + i. Consecutive threads take consecutive keys, so each
 * digit's run is written to consecutive addresses. */
static __device__ __forceinline__ void onesweep_scatter_tile(const unsigned int *s_keys, const unsigned int *s_values,
                                                             const unsigned int *s_offset, unsigned int shift,
                                                             unsigned int valid, unsigned int n, unsigned int *keys_out,
                                                             unsigned int *values_out, const int has_values)
{
    /* exercise: onesweep_scatter_tile(): for each of this thread's keys i = u * ONESWEEP_THREADS + threadIdx.x of the sorted tile (i < valid), write it (and, with has_values, s_values[i]) to keys_out[s_offset[its digit] + i] (values_out likewise); n is the number of keys: skip a place >= n (never after a right look-back; a wrong one then fails the check instead of faulting) */
    /* hint: s_offset[d] is the global place of the tile's first key of digit d minus that key's place in the tile, so one addition gives any key's place */
    /* hint: consecutive threads take consecutive i, so the keys of one digit's run go to consecutive addresses: the writes are coalesced */
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++) {
        const unsigned int i = u * ONESWEEP_THREADS + threadIdx.x;
        if (i < valid) {
            const unsigned int key = s_keys[i], at = s_offset[onesweep_digit(key, shift)] + i;
            if (at >= n) /* never, after a correct look-back; a wrong one then fails the check, not the GPU */
                continue;
            keys_out[at] = key;
            if (has_values)
                values_out[at] = s_values[i];
        }
    }
    /* end exercise */
}

/* Every pass skipped (all keys equal, or n == 1) and the output elsewhere:
 * the last launch copies. */
static __device__ __forceinline__ void onesweep_copy_tile(const onesweep_args *a, unsigned int tile,
                                                          const int has_values)
{
    const unsigned int base = tile * ONESWEEP_TILE;
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++) {
        const unsigned int i = base + u * ONESWEEP_THREADS + threadIdx.x;
        if (i < a->n) {
            a->keys_out[i] = a->keys_in[i];
            if (has_values)
                a->values_out[i] = a->values_in[i];
        }
    }
}

/* has_values and any_order are literals: each kernel below carries only its own code. */
static __device__ __forceinline__ void onesweep_pass(const onesweep_args a, const unsigned int pass,
                                                     const int has_values, const int any_order)
{
    extern __shared__ unsigned int s_tile[]; /* the tile sorted by digit: keys [ONESWEEP_TILE], then values */
    __shared__ unsigned int s_warp[ONESWEEP_WARPS * ONESWEEP_RADIX]; /* [warp][digit]: counts, then where its keys go */
    __shared__ unsigned int s_offset[ONESWEEP_RADIX], s_scan[ONESWEEP_RADIX / 32], s_tile_id;
    const unsigned int shift = pass * ONESWEEP_DIGIT_BITS, d = threadIdx.x; /* this thread's digit, if < RADIX */
    const unsigned int run = *a.run; /* these loads are in flight while thread 0 takes the tile */
    const unsigned int bucket = d < ONESWEEP_RADIX ? a.bucket_start[pass * ONESWEEP_RADIX + d] : 0; /* d's start */
    const unsigned int tile = onesweep_take_tile(a.tile_counter + pass, &s_tile_id);
    const unsigned int base = tile * ONESWEEP_TILE;
    unsigned int *status = a.status + pass % 2 * ONESWEEP_LOOKBACK_WORDS(a.tiles);
    if (d < ONESWEEP_RADIX) /* the next pass's table: pass p - 1 is done with it; zeroed for pass p + 1 */
        a.status[(pass + 1) % 2 * ONESWEEP_LOOKBACK_WORDS(a.tiles) + (size_t)tile * ONESWEEP_RADIX + d] = 0;
    if (!(run >> pass & 1)) { /* the digit is the same for every key */
        if (run == 0 && pass == ONESWEEP_PASSES - 1 && a.keys_in != a.keys_out)
            onesweep_copy_tile(&a, blockIdx.x, has_values);
        return;
    }
    const unsigned int valid = min((unsigned int)ONESWEEP_TILE, a.n - base);
    const onesweep_buffers io = onesweep_pick_buffers(&a, run, pass);
    unsigned int key[ONESWEEP_KEYS_PER_THREAD], rank[ONESWEEP_KEYS_PER_THREAD];
    onesweep_load_tile(io.keys_in, base, valid, key, 0xffffffffu); /* the last tile's padding: digit 255, last */
    const unsigned int count = onesweep_count_digits(key, shift, s_warp, any_order ? rank : NULL, valid);
    if (d < ONESWEEP_RADIX) /* at once: the tiles after this one may be waiting; tile 0's count is already a prefix */
        onesweep_publish(status, tile, d, (tile == 0 ? ONESWEEP_STATUS_INCLUSIVE : ONESWEEP_STATUS_AGGREGATE) | count);
    const unsigned int start = onesweep_place_digits(count, s_warp, s_scan);
    if (any_order)
        onesweep_rank_arrivals(key, rank, shift, s_warp + threadIdx.x / 32 * ONESWEEP_RADIX, valid);
    else
        onesweep_rank_tile(key, rank, shift, s_warp + threadIdx.x / 32 * ONESWEEP_RADIX);
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)
        if (!any_order || rank[u] < ONESWEEP_TILE) /* any order: the padding is not staged */
            s_tile[rank[u]] = key[u];
    if (has_values) {
        unsigned int value[ONESWEEP_KEYS_PER_THREAD];
        onesweep_load_tile(io.values_in, base, valid, value, 0);
#pragma unroll
        for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)
            s_tile[ONESWEEP_TILE + rank[u]] = value[u];
    }
    if (d < ONESWEEP_RADIX) /* the global place of the tile's key i of digit d: s_offset[d] + i */
        s_offset[d] = bucket + onesweep_look_back(status, tile, d, count) - start;
    __syncthreads();
    onesweep_scatter_tile(s_tile, s_tile + ONESWEEP_TILE, s_offset, shift, valid, a.n, io.keys_out, io.values_out,
                          has_values);
}

/* Keys only and pairs: one body, has_values a literal, so keys only carries no value code. */
__global__ __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS) void onesweep_keys(const onesweep_args a,
                                                                                       const unsigned int pass)
{
    onesweep_pass(a, pass, 0, 0);
}

/* Keys alone, pass 0: it reads the caller's keys, in an order no later pass keeps (equal keys cannot
 * be told apart), so the keys of a digit may take their places in any order: the count's atomics rank
 * them (onesweep_rank_arrivals), with no votes. Pass 0 is the first that runs, or skipped (then pass
 * 1, stable, is first: right, only slower). Pairs and the later passes rank stably. */
__global__ __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS) void onesweep_keys_first(const onesweep_args a,
                                                                                             const unsigned int pass)
{
    onesweep_pass(a, pass, 0, 1);
}

__global__ __launch_bounds__(ONESWEEP_THREADS, ONESWEEP_MIN_BLOCKS_PAIRS) void onesweep_pairs(const onesweep_args a,
                                                                                              const unsigned int pass)
{
    onesweep_pass(a, pass, 1, 0);
}

/* ---- host side ------------------------------------------------------------ */

/* The tables in tables_temp: one zeroed block (the tile counters, then the
 * histograms, then the two status tables: one memset per sort), and the
 * plan (bucket starts, then the mask of passes that run). */
#define ONESWEEP_ZEROED_COUNTERS 64 /* words for the tile counters: the histograms start 256-byte aligned */

typedef struct {
    unsigned int *zeroed, *histogram, *status, *plan;
    size_t zeroed_bytes;
    unsigned int tiles;
} onesweep_tables;

static onesweep_tables onesweep_layout(uintptr_t at, int64_t n, size_t *bytes)
{
    lab_ws ws = {at};
    onesweep_tables t;
    t.tiles = (unsigned int)((n + ONESWEEP_TILE - 1) / ONESWEEP_TILE);
    t.zeroed_bytes = sizeof(unsigned int) * (ONESWEEP_ZEROED_COUNTERS + ONESWEEP_PASSES * ONESWEEP_RADIX +
                                             ONESWEEP_STATUS_TABLES * ONESWEEP_LOOKBACK_WORDS(t.tiles));
    t.zeroed = (unsigned int *)lab_ws_take(&ws, t.zeroed_bytes);
    t.histogram = t.zeroed + ONESWEEP_ZEROED_COUNTERS;
    t.status = t.histogram + ONESWEEP_PASSES * ONESWEEP_RADIX;
    t.plan = (unsigned int *)lab_ws_take(&ws, sizeof(unsigned int) * (ONESWEEP_PASSES * ONESWEEP_RADIX + 1));
    *bytes = (size_t)(ws.at - at);
    return t;
}

LAB_BEGIN_C

size_t onesweep_tables_bytes(int64_t n)
{
    size_t bytes = 0;
    if (n < 0 || n > ONESWEEP_MAX_N)
        return 0;
    onesweep_layout(0, n, &bytes);
    return bytes;
}

int onesweep_tile_keys(void)
{
    return ONESWEEP_TILE;
}

/* The shared memory of one block: the sorted tile's keys (and values). */
static size_t onesweep_shared_bytes(int with_values)
{
    return sizeof(unsigned int) * (size_t)ONESWEEP_TILE * (with_values ? 2 : 1);
}

const char *onesweep_fit(int with_values)
{
    const void *kernel = with_values ? (const void *)onesweep_pairs : (const void *)onesweep_keys;
    return lab_fit_kernel(kernel, ONESWEEP_THREADS, onesweep_shared_bytes(with_values));
}

const char *onesweep_sort(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                          unsigned int *values_out, unsigned int *keys_alt, unsigned int *values_alt, int64_t n,
                          void *tables, cudaStream_t stream)
{
    if (n < 0 || n > ONESWEEP_MAX_N)
        return ONESWEEP_RANGE_WHY;
    if (n == 0)
        return NULL;
    const int pairs = values_in != NULL;
    size_t bytes = 0;
    const onesweep_tables t = onesweep_layout((uintptr_t)tables, n, &bytes);
    onesweep_args a;
    a.keys_in = keys_in, a.values_in = values_in, a.keys_out = keys_out, a.values_out = values_out;
    a.keys_alt = keys_alt, a.values_alt = values_alt;
    a.bucket_start = t.plan, a.run = t.plan + ONESWEEP_PASSES * ONESWEEP_RADIX;
    a.tile_counter = t.zeroed, a.status = t.status;
    a.n = (unsigned int)n, a.tiles = t.tiles;

    /* the histogram pass: as many blocks as the GPU runs at once (no more: a second wave would
     * start late and end late), each striding over the keys */
    int dev = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const int64_t chunk = (int64_t)ONESWEEP_HISTOGRAM_THREADS * ONESWEEP_HISTOGRAM_KEYS_PER_THREAD;
    const int64_t chunks = (n + chunk - 1) / chunk;
    const int64_t resident = (int64_t)sms * ONESWEEP_HISTOGRAM_BLOCKS_PER_SM;
    const unsigned int histogram_blocks = (unsigned int)(chunks < resident ? chunks : resident);

    CUDA_CHECK(cudaMemsetAsync(t.zeroed, 0, t.zeroed_bytes, stream));
    onesweep_digit_histograms<<<histogram_blocks, ONESWEEP_HISTOGRAM_THREADS, 0, stream>>>(keys_in, n, t.histogram);
    CUDA_CHECK_LAUNCH();
    onesweep_plan_passes<<<1, ONESWEEP_RADIX, 0, stream>>>(t.histogram, a.n, keys_in == keys_out, t.plan,
                                                           t.plan + ONESWEEP_PASSES * ONESWEEP_RADIX);
    CUDA_CHECK_LAUNCH();
    for (unsigned int pass = 0; pass < ONESWEEP_PASSES; pass++) {
        if (pairs)
            onesweep_pairs<<<t.tiles, ONESWEEP_THREADS, onesweep_shared_bytes(1), stream>>>(a, pass);
        else if (pass == 0)
            onesweep_keys_first<<<t.tiles, ONESWEEP_THREADS, onesweep_shared_bytes(0), stream>>>(a, pass);
        else
            onesweep_keys<<<t.tiles, ONESWEEP_THREADS, onesweep_shared_bytes(0), stream>>>(a, pass);
        CUDA_CHECK_LAUNCH();
    }
    return NULL;
}

/* Sorting in place ends where it began: onesweep_plan_passes runs an even number of passes. */
const char *onesweep_sort_buffers(unsigned int *keys, unsigned int *keys_alt, unsigned int *values,
                                  unsigned int *values_alt, int64_t n, void *tables_temp, cudaStream_t stream,
                                  int *result_in_alt)
{
    *result_in_alt = 0;
    if (n < 0 || n > ONESWEEP_MAX_N)
        return ONESWEEP_RANGE_WHY;
    const char *why = n > 0 ? onesweep_fit(values != NULL) : NULL;
    if (why != NULL)
        return why;
    return onesweep_sort(keys, values, keys, values, keys_alt, values_alt, n, tables_temp, stream);
}

LAB_END_C

#endif
