/* reduce_ref.h - chapter 10's CPU reference: the input distributions, the
 * reference reduction, the float error bound and the check of one result. */
#ifndef LAB_REDUCE_REF_H
#define LAB_REDUCE_REF_H

#include "reduce.h"
#include "rng.h"

LAB_BEGIN_C

/* The kinds' names, NULL-terminated: --op sum, max, min; --type int, float. */
extern const char *const reduce_all_ops[], *const reduce_all_types[];
/* "sum"/"max"/"min" and "int"/"float" -> k; 0, or -1 when either is unknown. */
int reduce_parse_kind(const char *op, const char *type, reduce_kind *k);
const char *reduce_op_name(reduce_op op);
const char *reduce_type_name(reduce_type type);

/* The distributions reduce_make_input knows (--dist), NULL-terminated:
 *   digits    integers 1..9 (the default: sums are exact while they stay below 2^24)
 *   negative  integers -9..-1 (a max that pads with 0 instead of the identity shows)
 *   mixed     integers -9..-1 and 1..9
 *   uniform   floats in [-1, 1); for int, integers +-1..1000
 * Never a zero, so no output can pass by being all zeros. */
extern const char *const reduce_dists[];

/* Fills x[0, n) (float bits for REDUCE_FLOAT). Returns 0, or -1 for an unknown
 * distribution. */
int reduce_make_input(const char *dist, reduce_type type, lab_rng *rng, reduce_t *x, int64_t n);

/* What the CPU computes from the input, for reduce_check. */
typedef struct {
    reduce_t want;  /* the exact result: ints, max, min, and float sums that are exact */
    double sum;     /* float sums: the sum in double precision */
    double sum_abs; /* float sums: sum of |x_i| (at most N x the largest |x|) */
    int exact;      /* 1: the GPU must return want bit for bit */
} reduce_ref_result;

/* The reduction of x[0, n) as the kind says; n == 0 gives the identity. A
 * float sum is exact when every input is an integer and sum|x_i| < 2^24:
 * every partial sum, in any order, is then an integer a float holds exactly. */
void reduce_ref(reduce_kind k, const reduce_t *x, int64_t n, reduce_ref_result *r);

/* |float sum - exact sum| <= bound, for any order whose additions form a tree
 * of the given height (the most roundings any one element goes through):
 * gamma_h x sum|x_i|, gamma_h = h u / (1 - h u), u = 2^-24 (Higham, Accuracy
 * and Stability of Numerical Algorithms, 2nd ed., section 4.2). */
double reduce_float_bound(double sum_abs, int64_t height);

/* The height of a step's summation tree from how it ran: per_thread
 * sequential adds, at most 10 tree levels in a block of at most 1024 threads
 * (or 5 + 5 for two warp levels), then one atomic add per block, one after
 * another. p: as the step's check left it. */
int64_t reduce_tree_height(const reduce_params *p);

/* 1 when got is right: bit for bit when r->exact, else within the bound for
 * the height. Otherwise 0, with a one-line reason in why (which says so when
 * got is the poison: *output never written). */
int reduce_check(reduce_kind k, reduce_t got, const reduce_ref_result *r, int64_t height, char *why, size_t len);

/* A value as text: "%d" for ints, "%.9g" for floats. */
void reduce_format(reduce_type type, reduce_t v, char *buf, size_t len);

LAB_END_C

#endif
