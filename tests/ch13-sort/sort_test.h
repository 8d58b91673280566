/* sort_test.h - what chapter 13's suite (sort.c and its parts sort_cpu.c and
 * sort_step.c, built with every step) lends each step's own tests
 * (tests/ch13-sort/<step folder>.c). */
#ifndef LAB_SORT_TEST_H
#define LAB_SORT_TEST_H

#include "lab_test.h"
#include "sort_host.h"

/* The step under test: its descriptor (sort.h). */
#define STEP (&sort_step_info)

/* Fig 13.1's sixteen 4-bit keys. */
extern const unsigned int sort_book_keys[16];

/* The values the tests sort with their keys: a distinct payload per input
 * position i, i * MUL + ADD (MUL odd: a bijection of 32-bit words), so a value
 * says exactly which input it came with. */
#define SORT_TEST_PAYLOAD_MUL 0x9E3779B1u
#define SORT_TEST_PAYLOAD_ADD 0x1234567u
unsigned int sort_test_payload(int64_t i);

/* "block=... coarsen=... bits=... tile=... variant=... printed=..." for messages. */
const char *params_text(const sort_params *p, char *buf, size_t len);

/* Fails at the first key or value (got_v NULL: keys only) that differs from
 * the reference, saying what a wrong value means (a tie broken the wrong
 * way) and what a marker means; context names the run. */
void check_output(const unsigned int *got_k, const unsigned int *got_v, const unsigned int *want_k,
                  const unsigned int *want_v, int64_t n, const char *context);

/* Sorts n keys of `dist` (bits of `type`, through the transform) with or
 * without payload values on the GPU (sort_run), and checks every key and
 * value against the stable reference, that no buffer is written past its end
 * (devmem's guards) and that the inputs are untouched. */
void check_sort(int64_t n, const char *dist, sort_type type, int with_values, uint64_t seed, const sort_params *p);

/* A race (a missing barrier or fence) shows as a wrong result now and then:
 * sorts the same n uniform keys (never zeros; a stale read changes the
 * output), with payload values or without, `launches` times with p, outputs
 * and workspace poisoned before each launch, and fails at the first launch
 * whose keys or values differ from the stable reference, naming it. */
void check_sort_repeatedly(int64_t n, int with_values, int launches, uint64_t seed, const sort_params *p);

/* Both the pure-host check (./run's) and sort_run refuse p for n keys,
 * sort_run before it touches the GPU (it is handed pointers it must not use). */
void assert_refused(int64_t n, const sort_params *p, const char *what);

#endif
