/* sort_test.h - what chapter 13's suite (sort.c, built with every step) lends
 * each step's own tests (tests/ch13-sort/<step folder>.c). */
#ifndef LAB_SORT_TEST_H
#define LAB_SORT_TEST_H

#include "lab_test.h"
#include "sort_host.h"

/* The step under test: its descriptor (sort.h). */
#define STEP (&sort_step_info)

/* Fig 13.1's sixteen 4-bit keys. */
extern const unsigned int sort_book_keys[16];

/* The i-th of the fixed seeds, cycling. */
uint64_t seed_of(int i);

/* "block=... coarsen=... bits=... tile=... variant=... printed=..." for messages. */
const char *params_text(const sort_params *p, char *buf, size_t len);

/* Sorts n keys of `dist` (bits of `type`, through the transform) with or
 * without payload values (distinct per input position) on the GPU, and checks
 * every key and value against the stable reference (a value out of place is a
 * tie broken the wrong way), that no buffer is written past its end (devmem's
 * guards) and that the inputs are untouched. */
void check_sort(int64_t n, const char *dist, sort_type type, int with_values, uint64_t seed, const sort_params *p);

/* Both the pure-host check (./run's) and the launcher refuse p for n keys,
 * the launcher before it touches the GPU (it is handed pointers it must not use). */
void assert_refused(int64_t n, const sort_params *p, const char *what);

#endif
