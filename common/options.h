/* options.h - ./run's options. The core parses what every step takes (-n
 * and the size syntax, --seed, --reps, --csv, -q, -h); a chapter or a step
 * declares its own options in a table of lab_opt, each pointing at where its
 * value goes, and the parser reads that table: this file names no chapter's
 * option. Every value is checked here, before anything looks for a GPU: a bad
 * option is exit 2 with one line saying what is wrong and what is allowed, on
 * any machine. */
#ifndef LAB_OPTIONS_H
#define LAB_OPTIONS_H

#include "lab.h"

LAB_BEGIN_C

#define LAB_MAX_SIZES 64

/* What every step's ./run takes. */
typedef struct {
    int64_t sizes[LAB_MAX_SIZES]; /* -n 2^24, -n 2^10:2^28 (powers of two), -n 1000,4096 */
    int nsizes;                   /* after lab_parse: at least 1 (the step's default when no -n) */
    int given_n;                  /* 1: -n was on the command line */
    uint64_t seed;                /* --seed */
    int reps;                     /* --reps: timed repetitions */
    int csv;                      /* --csv: one machine-readable line per run */
    int quiet;                    /* -q: no per-mismatch lines */
    int list_sizes;               /* --list-sizes: print the sizes, one a line, and stop (lab_list_sizes) */
} lab_run;

/* The kinds of value a declared option takes. */
typedef enum {
    LAB_ARG_INT,  /* a whole number lo..hi, into an int */
    LAB_ARG_SIZE, /* a size in the size syntax (2^20, 16M), lo..hi, into an int64_t */
    LAB_ARG_NAME, /* one of `names`, into a const char * */
    LAB_ARG_FLAG  /* no value: the int becomes 1 */
} lab_arg_kind;

/* One option a chapter or a step declares. `at` NULL: the chapter knows the
 * option but this step does not take it (the parser says so, by name). The
 * default --help shows is the value at `at` when the parser starts (none for
 * an INT or SIZE below lo there: a default derived later, which help says). */
typedef struct {
    const char *name; /* "--block" */
    lab_arg_kind kind;
    void *at;                 /* int *, int64_t * or const char ** by kind; NULL: refused */
    int64_t lo, hi;           /* INT and SIZE: the range (hi 0: no upper limit) */
    const char *const *names; /* NAME: the values allowed, NULL-terminated */
    const char *metavar;      /* the value in --help: "B" */
    const char *help;         /* what it is, one line: "threads per block" */
} lab_opt;

/* What --help and the -n check need to know of the step. */
typedef struct {
    const char *step;      /* the step's name (lab_step_name) */
    const char *about;     /* paragraphs printed above the options ("" none) */
    int64_t default_n;     /* -n when it is not given */
    int64_t max_n;         /* -n's limit (0: none) */
    const char *max_n_why; /* why (NULL: none said) */
    int default_reps;      /* --reps when it is not given */
    int sets_default_n;    /* 1: the caller sets the default -n from the options after lab_parse, then
                              calls lab_list_sizes (--list-sizes waits for it); 0: default_n, listed here */
} lab_cli;

/* Parses argv. --help prints the step's options, each with its default, and
 * exits 0; an unknown option, one the step does not take, or a value out of
 * range prints one line and exits LAB_EXIT_USAGE. */
void lab_parse(int argc, char **argv, const lab_cli *cli, const lab_opt *opts, int nopts, lab_run *run);

/* With --list-sizes: the run's sizes, one a line, and exit 0; else nothing. */
void lab_list_sizes(const lab_run *run);

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

/* Where the index of name is in list (-1: not there). */
int lab_name_index(const char *name, const char *const *list);

/* The option refused unless `taken`: the entry with `at` NULL (so the parser
 * says "this step does not take ..."). */
static inline lab_opt lab_opt_if(int taken, lab_opt o)
{
    if (!taken)
        o.at = NULL;
    return o;
}

LAB_END_C

#endif
