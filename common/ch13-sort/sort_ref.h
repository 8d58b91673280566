/* sort_ref.h - chapter 13's key types and CPU-only reference: the
 * order-preserving key transform and a key's digit (host and device), the
 * input distributions, the stable CPU sort, one iteration of Fig 13.4 on the
 * CPU (the rows of the book's example) and the checks of a sorted result.
 * Nothing here needs a GPU. */
#ifndef LAB_SORT_REF_H
#define LAB_SORT_REF_H

#include "lab.h"
#include "rng.h"

/* ---- the order-preserving transform (section 13.7: radix sort needs keys whose
 * bit patterns order like their values) ------------------------------------
 * sort_key_encode maps the bits of a 32-bit int or float to an unsigned key
 * with the same order; sort_key_decode undoes it:
 *   uint:  the identity.
 *   int:   flip the sign bit, so -2^31 -> 0 and 2^31-1 -> 2^32-1.
 *   float: flip the sign bit of a positive float (it goes above every negative);
 *          flip every bit of a negative one (a larger magnitude then sorts lower).
 *          -0.0 sorts just below +0.0; NaNs land beyond the infinities.
 * Merge sort (step 5) uses it backwards: sort_key_decode(k, SORT_INT) is an int
 * whose signed order is k's unsigned order, which chapter 12's int co_rank needs. */
typedef enum { SORT_UINT = 0, SORT_INT = 1, SORT_FLOAT = 2 } sort_type;

static inline __host__ __device__ unsigned int sort_key_encode(unsigned int bits, sort_type type)
{
    if (type == SORT_INT)
        return bits ^ 0x80000000u;
    if (type == SORT_FLOAT)
        return (bits & 0x80000000u) ? ~bits : bits ^ 0x80000000u;
    return bits;
}

static inline __host__ __device__ unsigned int sort_key_decode(unsigned int key, sort_type type)
{
    if (type == SORT_INT)
        return key ^ 0x80000000u;
    if (type == SORT_FLOAT)
        return (key & 0x80000000u) ? key ^ 0x80000000u : ~key;
    return key;
}

/* The r-bit digit of a key at bit `shift` (section 13.5): the radix steps'
 * buckets and the CPU reference's. */
static inline __host__ __device__ unsigned int sort_digit(unsigned int key, unsigned int shift, unsigned int r)
{
    return (key >> shift) & ((1u << r) - 1);
}

LAB_BEGIN_C

/* Stable radix sort (8-bit digits) of keys[0,n), values (NULL: none)
 * moving with their keys: one pass on the top digit, then LSD passes within
 * each of its runs; O(n) per digit, so 2^28 keys take seconds. */
void sort_ref(unsigned int *keys, unsigned int *values, int64_t n);

/* One iteration of Fig 13.4 on the CPU, the rows of Figs 13.1-13.3: for bit
 * `iter` of keys[0,n), ones_before[i] = the ones among keys[0,i) (n + 1
 * entries: ones_before[n] is the total) and dest[i] = where the stable split
 * puts key i (zeros first, in order, then ones, in order). */
void sort_ref_radix_iter(const unsigned int *keys, int64_t n, unsigned int iter, unsigned int *ones_before,
                         unsigned int *dest);

/* The distributions sort_make_keys knows, NULL-terminated:
 * uniform, sorted, reverse, few (8 distinct), equal, high (only the top 8 bits vary). */
extern const char *const sort_dists[];

/* The key types ./run takes (--type), NULL-terminated: uint, int, float. */
extern const char *const sort_type_names[];

/* "uint" (or "unsigned"), "int", "float" -> the type; -1 when unknown. */
int sort_type_of(const char *name);
const char *sort_type_name(sort_type type);

/* Fills keys[0,n) with the raw bits of n values of `type` drawn from `dist`
 * (e.g. -3.5f's bits for float). The distribution is drawn in key order, so
 * "sorted" is sorted for every type. Never all zero; floats are never NaN.
 * Returns 0, or -1 for an unknown distribution. */
int sort_make_keys(const char *dist, lab_rng *rng, unsigned int *keys, int64_t n, sort_type type);

/* In place over an array: sort_key_encode / sort_key_decode. */
void sort_encode_keys(unsigned int *keys, int64_t n, sort_type type);
void sort_decode_keys(unsigned int *keys, int64_t n, sort_type type);

/* 1 if the raw bits keys[0,n) of `type` are in nondecreasing order by the
 * type's own comparison (not through the transform); else 0 and *where = the
 * first i with keys[i] < keys[i-1]. */
int sort_is_ordered(const unsigned int *keys, int64_t n, sort_type type, int64_t *where);

LAB_END_C

#endif
