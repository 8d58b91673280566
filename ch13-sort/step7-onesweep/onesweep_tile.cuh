/* Exercise: fill in each TODO; `make hint STEP=ch13-sort/step7` gives graded hints. */
/* onesweep_tile.cuh - ch13 step 7: the tile and what one block does with it in
 * a pass: its shape (the compile-time parameters), then, in the order
 * onesweep_pass (onesweep.cuh) calls them, load it warp-striped, count each
 * digit, find where each digit starts, rank every key in the tile sorted by
 * digit (the warp-level multisplit; by arrival in the first pass of keys
 * alone), and scatter the sorted tile, digit run by digit run. Between the
 * rank and the scatter the block learns where its runs go from the tiles
 * before it (onesweep_look_back.cuh).
 *
 * Every name this header defines starts with onesweep_ or ONESWEEP_: step 9
 * includes it (through onesweep.cuh) and keeps its own names free. */
#ifndef ONESWEEP_TILE_CUH
#define ONESWEEP_TILE_CUH

#include "lab.h"

/* ---- the tile's shape (tests/bench/harness/onesweep measures it) ---------- */
#ifndef ONESWEEP_THREADS
#define ONESWEEP_THREADS 384 /* 12 warps; at least one thread per digit */
#endif
#ifndef ONESWEEP_KEYS_PER_THREAD
#define ONESWEEP_KEYS_PER_THREAD 19 /* odd, as CUB's own tile for this sort on sm_90 */
#endif
#define ONESWEEP_DIGIT_BITS 8
#define ONESWEEP_RADIX      256 /* 2^ONESWEEP_DIGIT_BITS digits */
#define ONESWEEP_PASSES     4   /* 32-bit keys */
#define ONESWEEP_WARPS      (ONESWEEP_THREADS / 32)
#define ONESWEEP_TILE       (ONESWEEP_THREADS * ONESWEEP_KEYS_PER_THREAD)
#define ONESWEEP_FULL_WARP  0xffffffffu

#if ONESWEEP_THREADS % 32 != 0 || ONESWEEP_THREADS < ONESWEEP_RADIX || ONESWEEP_THREADS > 1024
#error "ONESWEEP_THREADS: a multiple of 32 from 256 (one thread per digit) to 1024"
#endif

/* The key's 8-bit digit at bit `shift`. */
static __device__ __forceinline__ unsigned int onesweep_digit(unsigned int key, unsigned int shift)
{
    return (key >> shift) & (ONESWEEP_RADIX - 1);
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

/* Warp-striped: warp w holds the 32*K consecutive keys from w*32*K, lane l the
 * keys l, l+32, ...: this thread's key u is the tile's key
 * onesweep_first_key() + 32 u. */
static __device__ __forceinline__ unsigned int onesweep_first_key(void)
{
    return threadIdx.x / 32 * 32 * ONESWEEP_KEYS_PER_THREAD + threadIdx.x % 32;
}

/* The tile warp-striped: coalesced loads, and (warp, u, lane) is the input
 * order onesweep_rank_tile keeps. Past the end of the last tile: `pad`.
 * Every tile but the last is full: one test for the block, none per key (a
 * test per key, its answers kept as bits of a register through the pass,
 * cost about 12 instructions a key: docs/ch13-onesweep.md). */
static __device__ __forceinline__ void onesweep_load_tile(const unsigned int *in, unsigned int base, unsigned int valid,
                                                          unsigned int *x, unsigned int pad)
{
    const unsigned int first = onesweep_first_key();
    const unsigned int *from = in + base + first;
    if (valid == ONESWEEP_TILE) {
#pragma unroll
        for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)
            x[u] = from[u * 32];
    } else {
#pragma unroll
        for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)
            x[u] = first + u * 32 < valid ? from[u * 32] : pad;
    }
}

/* This warp counts its keys per digit in its row of s_warp, no barrier
 * (step 10's split counts a warp whose keys share one digit its own way).
 * With `arrival` (not NULL), each of the tile's `valid` keys also learns
 * from its atomicAdd how many of its warp's keys of its digit came before it,
 * in the order the hardware took them (onesweep_rank_arrivals), and the
 * padding is not counted. */
static __device__ __forceinline__ void onesweep_count_warp(const unsigned int *key, unsigned int shift,
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
}

/* Once every warp has counted: thread d turns column d of s_warp into the
 * count of d in the warps before each one, and returns the tile's count of
 * digit d. */
static __device__ __forceinline__ unsigned int onesweep_sum_warps(unsigned int *s_warp)
{
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

/* Each warp counts its keys per digit (row `warp` of s_warp; arrival as
 * onesweep_count_warp), then the warps' counts are summed per digit:
 * returns the tile's count of digit d to thread d. */
static __device__ __forceinline__ unsigned int onesweep_count_digits(const unsigned int *key, unsigned int shift,
                                                                     unsigned int *s_warp, unsigned int *arrival,
                                                                     unsigned int valid)
{
    onesweep_count_warp(key, shift, s_warp, arrival, valid);
    return onesweep_sum_warps(s_warp);
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
    /* TODO(2): onesweep_rank_tile(), the paper's warp-level multisplit: for each u, rank[u] = the
       place of key[u] in the tile sorted by digit: find the peers (onesweep_peers_of(digit): the
       lanes whose key[u] has this digit), let one of them (the last: 31 - __clz(peers)) take
       __popc(peers) places from s_next[digit] with one atomicAdd, share the first place from lane
       last with __shfl_sync, whose mask is ONESWEEP_FULL_WARP (every lane of the warp calls it,
       even one that took nothing), and rank this key after the peers in lanes before this one */
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)
        rank[u] = 0;
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

/* Every key's place in the tile sorted by digit: stable (onesweep_rank_tile),
 * or with any_order by arrival (onesweep_rank_arrivals: rank holds the
 * count's arrivals; the padding gets no place). s_warp: onesweep_place_digits'. */
static __device__ __forceinline__ void onesweep_rank_keys(const unsigned int *key, unsigned int *rank,
                                                          unsigned int shift, unsigned int *s_warp, unsigned int valid,
                                                          const int any_order)
{
    unsigned int *s_next = s_warp + threadIdx.x / 32 * ONESWEEP_RADIX; /* this warp's row */
    if (any_order)
        onesweep_rank_arrivals(key, rank, shift, s_next, valid);
    else
        onesweep_rank_tile(key, rank, shift, s_next);
}

/* Each of this thread's keys (or values) to its rank in s_sorted, the tile
 * sorted by digit; with any_order the padding (ranked ONESWEEP_TILE) stays out. */
static __device__ __forceinline__ void onesweep_stage(unsigned int *s_sorted, const unsigned int *x,
                                                      const unsigned int *rank, const int any_order)
{
#pragma unroll
    for (int u = 0; u < ONESWEEP_KEYS_PER_THREAD; u++)
        if (!any_order || rank[u] < ONESWEEP_TILE)
            s_sorted[rank[u]] = x[u];
}

/* The tile sorted by digit is in shared memory: key i of it goes to
 * s_offset[its digit] + i. Consecutive threads take consecutive keys, so each
 * digit's run is written to consecutive addresses. */
static __device__ __forceinline__ void onesweep_scatter_tile(const unsigned int *s_keys, const unsigned int *s_values,
                                                             const unsigned int *s_offset, unsigned int shift,
                                                             unsigned int valid, unsigned int n, unsigned int *keys_out,
                                                             unsigned int *values_out, const int has_values)
{
    /* TODO(3): onesweep_scatter_tile(): for each of this thread's keys i = u * ONESWEEP_THREADS +
       threadIdx.x of the sorted tile (i < valid), write it (and, with has_values, s_values[i]) to
       keys_out[s_offset[its digit] + i] (values_out likewise); n is the number of keys: skip a
       place >= n (never after a right look-back; a wrong one then fails the check instead of
       faulting) */
}

#endif
