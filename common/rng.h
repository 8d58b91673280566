/* rng.h - a small seeded generator (splitmix64) so every input is fresh,
 * reproducible from its printed seed, and the same on every machine. */
#ifndef LAB_RNG_H
#define LAB_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t state;
} lab_rng;

static inline lab_rng lab_rng_seeded(uint64_t seed)
{
    lab_rng r = {seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull};
    return r;
}

static inline uint64_t lab_rng_next(lab_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, bound); bound > 0. */
static inline uint32_t lab_rng_below(lab_rng *r, uint32_t bound)
{
    return (uint32_t)(((lab_rng_next(r) >> 32) * (uint64_t)bound) >> 32);
}

/* Uniform in [0, 1). */
static inline double lab_rng_unit(lab_rng *r)
{
    return (double)(lab_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
