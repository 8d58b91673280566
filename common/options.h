/* options.h - the options every ./run understands. Each chapter's driver sets
 * its defaults, then parses; options a step does not use are ignored. */
#ifndef LAB_OPTIONS_H
#define LAB_OPTIONS_H

#include "lab.h"

LAB_BEGIN_C

#define LAB_MAX_SIZES 64

typedef struct {
    int64_t size;     /* -n/--size: total elements (accepts 2^24, 16M, 1000); the first of sizes */
    int64_t sizes[LAB_MAX_SIZES]; /* -n 2^10:2^28 (every power of two between) or -n 1000,4096 */
    int nsizes;
    int64_t m;        /* --m: merge, elements of A (-1: half of size) */
    uint64_t seed;    /* --seed */
    const char *dist; /* --dist: input distribution */
    int block;        /* --block: threads per block */
    int grid;         /* --grid: blocks (0: derived from the size) */
    int tile;         /* --tile: elements per shared-memory tile */
    int coarsen;      /* --coarsen: elements per thread */
    int radix_bits;   /* --bits: radix sort digit width */
    const char *op;   /* --op: reduction operator (sum, max, min) */
    const char *type; /* --type: element type (int, float, ...) */
    const char *variant; /* --variant: a step's alternative form */
    int reps;         /* --reps: timed repetitions */
    int csv;          /* --csv: one machine-readable line */
    int example;      /* --example: replay the book's worked example */
    int analyze;      /* --analyze: instrumented counts beside the book's */
    int printed;      /* --printed: run the printed (buggy) code path */
    int quiet;        /* -q: no per-mismatch lines */
} lab_opts;

/* Defaults shared by every chapter; drivers change what they need. */
lab_opts lab_opts_defaults(void);

/* Parses argv into o. --help prints the common options plus the driver's
 * extra text and exits 0; a bad option prints why and exits LAB_EXIT_USAGE. */
void lab_parse_opts(int argc, char **argv, lab_opts *o, const char *step, const char *extra_help);

/* "2^24", "16M", "1000", "3k" -> value; -1 on a malformed number. */
int64_t lab_parse_size(const char *s);

/* "2^10:2^28" (powers of two), "1000,4096,2^20" or one size -> sizes[];
 * returns how many, or -1 when malformed or more than max. */
int lab_parse_sizes(const char *s, int64_t *sizes, int max);

LAB_END_C

#endif
