/* gen.h - the inputs of the sort across GPUs (steps 9 and 10): key number
 * `pos` of N drawn from a distribution, as a pure function of (distribution,
 * seed, pos, N), so each GPU makes its own share in place (2^33 keys never
 * pass through one host), the CPU reference (sample_ref.h) makes the same
 * keys, and the plan's tests make them for simulated ranks. Never zero
 * (zeros never count as data). Values are the global input position (mod
 * 2^32): distinct for N <= 2^32, so a value out of place shows a tie broken
 * the wrong way. */
#ifndef LAB_GEN_H
#define LAB_GEN_H

#include "lab.h"

typedef enum {
    GEN_UNIFORM = 0, /* every bit random */
    GEN_SORTED,      /* rising (ties when N > 2^32) */
    GEN_REVERSE,     /* falling */
    GEN_EQUAL,       /* one key N times */
    GEN_FEW,         /* 8 distinct keys */
    GEN_ZIPF,        /* skewed: P(rank k) = 1/(k(k+1)): half the keys are one key, a sixth the next, ... */
    GEN_COUNT
} gen_dist;

LAB_BEGIN_C

/* splitmix64's finalizer: the keys here, the sample's jitter and the checks' hashes. */
static inline __host__ __device__ uint64_t gen_mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static inline __host__ __device__ unsigned int gen_key(int dist, uint64_t seed, uint64_t pos, uint64_t N)
{
    const uint64_t s = gen_mix64(seed * 0x2545F4914F6CDD1Dull + (uint64_t)dist);
    unsigned int k;
    switch (dist) {
    case GEN_SORTED:
        k = 1u + (unsigned int)((double)pos / (double)N * 4294967294.0);
        break;
    case GEN_REVERSE:
        k = 1u + (unsigned int)((double)(N - 1 - pos) / (double)N * 4294967294.0);
        break;
    case GEN_EQUAL:
        k = (unsigned int)(s >> 32) | 1u;
        break;
    case GEN_FEW:
        k = (unsigned int)(gen_mix64(s + (gen_mix64(s ^ pos) & 7)) >> 32) | 1u;
        break;
    case GEN_ZIPF: {
        const double u = (double)(gen_mix64(s ^ pos) >> 11) * (1.0 / 9007199254740992.0); /* [0, 1) */
        const double rank = 1.0 / (1.0 - u);                                              /* >= 1 */
        const unsigned int kr = rank >= 4294967295.0 ? 0xFFFFFFFFu : (unsigned int)rank;
        k = kr * 2654435761u; /* odd multiplier: a bijection, so the heavy keys land all over the key space */
        break;
    }
    default:
        k = (unsigned int)(gen_mix64(s ^ pos) >> 32);
        break;
    }
    return k != 0 ? k : 1u;
}

static inline __host__ __device__ unsigned int gen_value(uint64_t pos)
{
    return (unsigned int)pos;
}

LAB_END_C

/* "uniform" ... "zipf" for a gen_dist; gen_dist_of: the reverse, -1 when unknown. */
static inline const char *gen_dist_name(int dist)
{
    static const char *const names[GEN_COUNT] = {"uniform", "sorted", "reverse", "equal", "few", "zipf"};
    return dist >= 0 && dist < GEN_COUNT ? names[dist] : "?";
}

static inline int gen_dist_of(const char *name)
{
    for (int d = 0; d < GEN_COUNT; d++) {
        const char *a = gen_dist_name(d), *b = name;
        while (*a != 0 && *a == *b)
            a++, b++;
        if (*a == 0 && *b == 0)
            return d;
    }
    return -1;
}

#endif
