/* merge_ref.h - chapter 12's CPU-only reference: the input distributions and
 * generators, the stable merge and the co-ranks on the CPU, and the check of
 * a merged result that says what each wrong element is. Nothing here needs a
 * GPU; the tests run all of it under AddressSanitizer. */
#ifndef LAB_MERGE_REF_H
#define LAB_MERGE_REF_H

#include "merge.h"
#include "report.h"
#include "rng.h"

LAB_BEGIN_C

/* How int keys are tagged (merge.h, MERGE_KEY): the key in bits 8 on, and in
 * the low 8 bits
 *   MERGE_TAG_NONE    nothing: the value is the key (./run);
 *   MERGE_TAG_ORIGIN  bit 0 says where the value came from (0: A, 1: B), bits
 *                     1-7 hold a hash of its position: equal keys' raw values
 *                     are in scrambled order, so a raw comparison breaks ties
 *                     wrongly and a wrong tie rule moves a tag;
 *   MERGE_TAG_ZERO    0: raw values tie exactly when keys do (the co-rank tests
 *                     check each co-rank on such real ties). */
enum { MERGE_TAG_NONE = 0, MERGE_TAG_ORIGIN = 1, MERGE_TAG_ZERO = 2 };

/* Fills sorted int keys A[0, m) and B[0, n) for a distribution: uniform (random
 * keys with ties), equal (every key the same), a-below / a-above (A entirely
 * below / above B), interleaved (A odd, B even), dups (twelve distinct keys: long
 * runs of ties across tiles and blocks). Keys start at 1 (never zero) and stay
 * below 2^23 when tagged (MERGE_TAG_*), 2^30 otherwise. Returns 0, or -1 for an
 * unknown distribution. */
int merge_make_inputs(const char *dist, lab_rng *rng, int *A, int m, int *B, int n, int tagged);

/* Tags keys X[0, len) of A (from_B 0) or B (1) in place: X[i] << 8 and the
 * tag `tagged` asks for. merge_make_inputs does it; tests with keys of their
 * own call it. */
void merge_tag(int *X, int64_t len, int from_B, int tagged);

/* Fresh inputs for one merge in *in (allocated; merge_inputs_free frees them):
 * keys of a distribution from seed, as floats when is_float (keys drawn as above,
 * then mapped in order onto floats of both signs: never NaN, never all zero;
 * B's zeros are -0.0, which ties with A's +0.0), tagged as `tagged` says (int
 * keys only), and with values when with_values: a distinct payload per input
 * position (A[i]: i + 1, B[j]: m + j + 1), so the order of equal keys shows in
 * the values. Returns 0, or -1 for an unknown distribution. */
int merge_inputs_make(merge_inputs *in, const char *dist, uint64_t seed, int64_t m, int64_t n, int is_float,
                      int with_values, int tagged);
void merge_inputs_free(merge_inputs *in);

/* 1 when x's key is at most y's: floats by value, tagged ints by x >> 8. */
int merge_key_le(const merge_inputs *in, int x, int y);

/* The stable merge (ties take A first): C[0, m+n) and, when the inputs have
 * values and C_values is not NULL, C_values. */
void merge_ref(const merge_inputs *in, int *C, int *C_values);

/* want[k] = the co-rank of output rank k: how many of C[0,k) come from A in
 * the stable merge, for k = 0..m+n (m + n + 1 entries). */
void merge_co_rank_ref(const merge_inputs *in, int *want);

/* What an output word is, in words: "key 7 from B[3]" (tagged), "2.5" (float),
 * and what a marker means ("never written"). */
const char *merge_describe_key(const merge_inputs *in, int word, char *buf, size_t len);

/* What a value is: "A[4]" or "B[0]" (values name their input position). */
const char *merge_describe_value(const merge_inputs *in, int value, char *buf, size_t len);

/* Compares got with want (and got_values with want_values, when the inputs
 * have values) element by element: prints up to max_report mismatches, each
 * described (where it came from, and "a tie taken in the wrong order" when
 * the keys are equal), and writes the first, described, to first (when not
 * NULL). */
lab_mismatch merge_compare(const merge_inputs *in, const int *got, const int *got_values, const int *want,
                           const int *want_values, int max_report, char *first, size_t first_len);

LAB_END_C

#endif
