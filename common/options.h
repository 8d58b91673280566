/* options.h - ./run's options. Every step takes -n, --seed, --reps, --csv, -q
 * and -h; a step names the others it takes in its lab_opt_spec, and the
 * parser refuses the rest. Every value is checked here, before anything
 * looks for a GPU: a bad option is exit 2 with one line saying what is
 * wrong and what is allowed, on any machine. */
#ifndef LAB_OPTIONS_H
#define LAB_OPTIONS_H

#include "lab.h"

LAB_BEGIN_C

#define LAB_MAX_SIZES 64

/* The options a step may take beyond the ones every step takes. */
enum {
    LAB_OPT_M = 1u << 0,         /* --m M: merge, elements of A */
    LAB_OPT_DIST = 1u << 1,      /* --dist D */
    LAB_OPT_BLOCK = 1u << 2,     /* --block B */
    LAB_OPT_GRID = 1u << 3,      /* --grid G */
    LAB_OPT_TILE = 1u << 4,      /* --tile T */
    LAB_OPT_COARSEN = 1u << 5,   /* --coarsen C */
    LAB_OPT_BITS = 1u << 6,      /* --bits R */
    LAB_OPT_OP = 1u << 7,        /* --op OP */
    LAB_OPT_TYPE = 1u << 8,      /* --type T */
    LAB_OPT_VARIANT = 1u << 9,   /* --variant V */
    LAB_OPT_PRINTED = 1u << 10,  /* --printed */
    LAB_OPT_EXAMPLE = 1u << 11,  /* --example */
    LAB_OPT_ANALYZE = 1u << 12,  /* --analyze */
    LAB_OPT_KEYS_ONLY = 1u << 13, /* --keys-only */
    LAB_OPT_GPUS = 1u << 14,     /* --gpus G */
    LAB_OPT_LOCAL = 1u << 15     /* --local L */
};

/* What a step's ./run accepts: asked of the step by its chapter's driver. */
typedef struct {
    unsigned options;            /* LAB_OPT_* bits */
    const char *const *dists;    /* the --dist names, NULL-terminated */
    const char *const *types;    /* --type names */
    const char *const *ops;      /* --op names */
    const char *const *variants; /* --variant names; "" as a value means "every variant" */
    const char *const *locals;   /* --local names */
    int64_t max_n;               /* the largest size -n takes */
    int max_bits;                /* --bits takes 1..max_bits */
    int max_coarsen;             /* --coarsen takes 1..max_coarsen (0: no limit here) */
    const char *about;           /* the step's own paragraph of --help (what it runs, its limits) */
} lab_opt_spec;

typedef struct {
    int64_t size;     /* -n/--size: the first of sizes */
    int64_t sizes[LAB_MAX_SIZES]; /* -n 2^10:2^28 (every power of two between) or -n 1000,4096 */
    int nsizes;       /* 0 after parsing: no -n given (the driver picks the step's default) */
    int64_t m;        /* --m: merge, elements of A (-1: half of size) */
    uint64_t seed;    /* --seed */
    const char *dist; /* --dist */
    int block;        /* --block: threads per block */
    int grid;         /* --grid: blocks (0: derived from the size) */
    int tile;         /* --tile: elements per shared-memory tile */
    int coarsen;      /* --coarsen: elements per thread */
    int radix_bits;   /* --bits: radix sort digit width */
    const char *op;   /* --op: reduction operator */
    const char *type; /* --type: element type */
    const char *variant; /* --variant: a step's alternative form ("": the step's default) */
    const char *local;   /* --local: the multi-GPU sort's local sort */
    int gpus;         /* --gpus: GPUs driven by one process */
    int reps;         /* --reps: timed repetitions */
    int csv;          /* --csv: one machine-readable line */
    int example;      /* --example: replay the book's worked example */
    int analyze;      /* --analyze: instrumented counts beside the book's */
    int printed;      /* --printed: run the printed (buggy) code path */
    int keys_only;    /* --keys-only: sort keys without values */
    int quiet;        /* -q: no per-mismatch lines */
} lab_opts;

/* Defaults every chapter starts from; drivers then set the step's own. */
lab_opts lab_opts_defaults(void);

/* Parses argv into o (which holds the defaults --help shows). --help prints
 * the options of this step with their defaults and exits 0; a bad option,
 * one this step does not take, or a value out of range prints one line and
 * exits LAB_EXIT_USAGE. */
void lab_parse_opts(int argc, char **argv, lab_opts *o, const lab_opt_spec *spec, const char *step);

/* "2^24", "16M", "3k", "1000" -> 0 and *value; else -1 and a one-line reason
 * (negative, not a number, not whole, exponent notation, too large). */
int lab_parse_size(const char *s, int64_t *value, char *why, size_t len);

/* "2^10:2^28" (powers of two), "1000,4096,2^20" or one size -> sizes[] and
 * how many; -1 with a reason when malformed, falling, or more than max. */
int lab_parse_sizes(const char *s, int64_t *sizes, int max, char *why, size_t len);

/* 1 when name is in the NULL-terminated list. */
int lab_name_in(const char *name, const char *const *list);

/* "a, b or c" for messages: the names of a NULL-terminated list. */
const char *lab_names_text(const char *const *list, char *buf, size_t len);

LAB_END_C

#endif
