/* harness.h - what the files of the onesweep harness share: the run's name,
 * the poison and the seed, and each file's functions the others call. Only
 * harness.cu includes the step's onesweep.cuh (its kernels, compiled once per
 * variant); the others reach the step through its onesweep.h. */
#ifndef ONESWEEP_HARNESS_H
#define ONESWEEP_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onesweep.h" /* the step's (a variant's copy of it) */
#include "rng.h"
#ifndef NO_CUB
#include "cub_bench.h"
#endif

#ifndef HARNESS_NAME
#define HARNESS_NAME "real"
#endif
#ifndef HARNESS_WHAT
#define HARNESS_WHAT "the step as it is"
#endif

#define POISON_WORD 0xA5A5A5A5u
#define BASE_SEED 20250612ull

/* inputs.cu: the host helpers, the CPU reference, the inputs */
double now_s(void);
unsigned int *host_words(int64_t n);
void *dev_alloc(size_t bytes);
void ref_sort(unsigned int *keys, unsigned int *values, int64_t n);
extern const char *const dists[];
void make_keys(const char *dist, uint64_t seed, unsigned int *k, int64_t n);
void make_values(unsigned int *v, int64_t n);

/* check.cu: the correctness modes; each returns 1 when every result was right */
int mode_check(int full, int stop);
int mode_repeat(int reps);

/* speed.cu: the timed modes; 1 when every output was right (profile: when it ran) */
int mode_speed(int pairs_only);
int mode_profile(int64_t n, int pairs, int with_cub);

/* harness.cu: what only the step's kernels can answer */
void print_occupancy_row(void);

#endif
