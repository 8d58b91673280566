/* sort.h - chapter 13's interface: what every sort step's launcher takes, the
 * order-preserving key transform, the CPU reference and the input generators. */
#ifndef LAB_SORT_H
#define LAB_SORT_H

#include "lab.h"
#include "rng.h"

/* Indices are unsigned int in the radix kernels (as in Fig 13.4) and int in
 * merge sort (chapter 12's co_rank): n must stay below 2^31. */
#define SORT_MAX_N 2147483647LL

/* Steps 3-4: digit width r in bits, 1 to 8 (2^r local buckets, a 2^r-row table). */
#define SORT_MAX_RADIX_BITS 8
/* Steps 4-5: keys per thread live in registers, so their arrays have this compile-time size. */
#define SORT_MAX_COARSEN 16
/* Step 6: odd-even transposition sorts in one block's shared memory (n phases). */
#define SORT_ODD_EVEN_MAX 4096
/* Step 6: bitonic sort pads to a power of two P; P at most 2^28. */
#define SORT_BITONIC_MAX (1LL << 28)

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

LAB_BEGIN_C

typedef struct {
    int block;          /* threads per block */
    int tile;           /* step 6 (bitonic): keys sorted in one block's shared memory, a power of two */
    int coarsen;        /* steps 4-5: keys per thread */
    int radix_bits;     /* steps 3-4: r, bits per radix iteration (1 to 8) */
    const char *variant; /* step 6: "bitonic" or "odd-even" */
    int printed;        /* step 1: the destination of a one as printed in Fig 13.4 (docs/errata.md) */
} sort_params;

/* Every step: keys_out[0,n) (and values_out, when values_in is not NULL) =
 * keys_in (values_in) sorted by key, stable: equal keys keep their input
 * order. The inputs are left unchanged. temp_d holds sort_temp_bytes(n, ...)
 * bytes of device memory the step may use (so a timed sort allocates nothing).
 * Returns NULL once the work is launched on the default stream, or why these
 * parameters cannot run (nothing launched). */
const char *sort_launch(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                        unsigned int *values_out, int64_t n, void *temp_d, const sort_params *p);

/* The device temporaries sort_launch needs for n keys, with or without values. */
size_t sort_temp_bytes(int64_t n, int with_values, const sort_params *p);

/* Step 1 only: one iteration of Fig 13.4 (bits, scan, scatter: three launches).
 * bits_d holds n + 1 entries: after the call, bits_d[i] = the number of ones
 * before key i and bits_d[n] = the ones in total. temp_d: scan_temp_bytes(n). */
const char *radix_sort_iter_launch(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                                   unsigned int *values_out, unsigned int *bits_d, int64_t n, unsigned int iter,
                                   void *temp_d, const sort_params *p);

/* ---- host helpers shared by the steps (sort_host.c) ---------------------- */

/* Each step's defaults (./run's and the tests'): step 1..6. */
sort_params sort_default_params(int step);

/* The step number in a step's path (".../ch13-sort/step4-radix-coarsened" -> 4), 0 if none. */
int sort_step_number(const char *step_name);

/* Refuses a block size the kernels cannot use: NULL if 1 <= block <= 1024 and,
 * when warps != 0, a multiple of 32 (the block scan works warp by warp). */
const char *sort_check_block(int block, int warps);

/* Before launching `kernel` with `block` threads and `shared_bytes` of dynamic
 * shared memory: NULL once it can run (above 48 KiB a kernel must opt in, which
 * this does), or why not (too many threads for its registers, too much shared
 * memory for the GPU). */
const char *sort_fit_kernel(const void *kernel, int block, size_t shared_bytes);

/* Device workspace carving: ws.at starts at the temp pointer (or at 0 to count
 * bytes); each take returns the current place and moves on, 256-byte aligned. */
typedef struct {
    uintptr_t at;
} sort_ws;
void *sort_ws_take(sort_ws *ws, size_t bytes);

/* ---- the CPU reference and the inputs (sort_ref.c) ------------------------ */

/* Stable LSD radix sort (8-bit digits) of keys[0,n), values (NULL: none)
 * moving with their keys: O(n) per digit, so 2^28 keys take seconds. */
void sort_ref(unsigned int *keys, unsigned int *values, int64_t n);

/* The distributions sort_make_keys knows, NULL-terminated:
 * uniform, sorted, reverse, few (8 distinct), equal, high (only the top 8 bits vary). */
extern const char *const sort_dists[];

/* "uint", "int", "float" -> the type; -1 when unknown. */
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
