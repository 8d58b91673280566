/* sort.h - chapter 13's interface: the parameters every sort step takes, the
 * launcher each step defines, and the step's descriptor, sort_step_info: the
 * facts ./run and the tests ask the step for (its defaults, the options it
 * takes, its limits, the workspace it needs). The key types and the CPU
 * reference are in sort_ref.h; the host-side checks, the workspace layout and
 * the pass loop every step shares in sort_host.h. */
#ifndef LAB_SORT_H
#define LAB_SORT_H

#include "lab.h"
#include "options.h"
#include "sort_ref.h"

/* Indices are unsigned int in the radix kernels (as in Fig 13.4) and int in
 * merge sort (chapter 12's co_rank): n must stay below 2^31. */
#define SORT_MAX_N 2147483647LL

/* Digit width r in bits, 1 to 8 (2^r local buckets, a 2^r-row table): --bits. */
#define SORT_MAX_RADIX_BITS 8
/* Keys per thread live in registers, so their arrays have this compile-time size: --coarsen. */
#define SORT_MAX_COARSEN 16

LAB_BEGIN_C

typedef struct {
    int block;          /* threads per block */
    int tile;           /* keys sorted in one block's shared memory (a step that takes --tile) */
    int coarsen;        /* keys per thread (--coarsen) */
    int radix_bits;     /* r, bits per radix iteration (--bits) */
    const char *variant; /* the step's form (--variant); NULL or "" when it has one form */
    int printed;        /* run the code as printed, bugs included (--printed, docs/errata.md) */
    sort_type type;     /* what the keys' bits are (--type); see sort_step.typed_keys */
} sort_params;

/* Every step: keys_out[0,n) (and values_out, when values_in is not NULL) =
 * keys_in (values_in) sorted by key, stable: equal keys keep their input
 * order. Keys are unsigned, in the transform's order (sort_ref.h), unless the
 * step takes typed keys (sort_step.typed_keys). The inputs are left
 * unchanged. temp_d holds sort_temp_bytes(...) bytes of device memory the
 * step may use (so a timed sort allocates nothing). Returns NULL once the
 * work is launched on the default stream, or why these parameters cannot run
 * (nothing launched). */
const char *sort_launch(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                        unsigned int *values_out, int64_t n, void *temp_d, const sort_params *p);

/* One radix iteration on its own, for the Fig 13.1-13.3 example: bit `iter`
 * of keys_in split into keys_out. bits_d holds n + 1 entries: afterwards,
 * bits_d[i] = the ones before key i and bits_d[n] = the ones in total.
 * temp_d: scan_temp_bytes(n) bytes. */
typedef const char *(*sort_iter_fn)(const unsigned int *keys_in, const unsigned int *values_in,
                                     unsigned int *keys_out, unsigned int *values_out, unsigned int *bits_d, int64_t n,
                                     unsigned int iter, void *temp_d, const sort_params *p);

/* The device workspace a step needs for n keys, in elements (sort_host.c lays
 * it out, in this order, each part 256-byte aligned). */
typedef struct {
    int ping_pong;  /* a second key (and value) buffer: the passes alternate between it and the output */
    int local_copy; /* the keys (and values) each block sorted locally in this pass */
    int64_t table;  /* entries of the array the pass scans (Fig 13.4's bits, Fig 13.6's table): it gets
                       one more for the total, and the scan's temporaries; 0: none */
    int64_t words;  /* any other 4-byte words the step needs (merge splits, bitonic keys and indices;
                       the part starts 256-byte aligned, so a step may lay wider types in it) */
} sort_ws_need;

/* That workspace, laid out in temp_d; a part the step does not need is NULL. */
typedef struct {
    unsigned int *keys_alt, *values_alt;     /* ping_pong (values: with values only) */
    unsigned int *keys_local, *values_local; /* local_copy */
    unsigned int *table;                     /* table + 1 entries */
    void *scan_temp;                         /* scan_temp_bytes(table) */
    void *words;                             /* words */
} sort_ws;

/* One pass of a sort that reads every key and writes every key each pass (a
 * radix iteration, a tile sort, a merge pass): sort_host.c's loop hands each
 * pass the last one's output as its input. */
typedef struct {
    const unsigned int *keys_in, *values_in; /* values NULL: keys only */
    unsigned int *keys_out, *values_out;
    int64_t n;
    int index, count; /* this is pass `index` of `count` (0 to count - 1) */
} sort_pass;

typedef const char *(*sort_pass_fn)(const sort_pass *pass, const sort_ws *ws, const sort_params *p);

/* The options every step's ./run takes, beyond -n, --seed, --reps, --csv and
 * -q: the input, the key type, keys alone, the block, the book's example. */
#define SORT_OPTIONS (LAB_OPT_DIST | LAB_OPT_TYPE | LAB_OPT_KEYS_ONLY | LAB_OPT_BLOCK | LAB_OPT_EXAMPLE)

/* The limit of steps whose indices are unsigned int, as in Fig 13.4. */
#define SORT_MAX_N_WHY "n must be 0 to 2^31 - 1 (unsigned int indices, as in Fig 13.4)"

/* A step's facts. Each step's kernel file defines one, sort_step_info. */
typedef struct {
    sort_params defaults;  /* ./run's and the tests' parameters */
    int64_t default_n;     /* ./run's size when no -n is given (at most max_n_of's) */
    lab_opt_spec spec;     /* the step's own options beyond SORT_OPTIONS, its variants, its --help
                              paragraph, and -n's limit when below SORT_MAX_N (0: SORT_MAX_N);
                              sort_options adds the rest (the chapter's options, names and limits) */
    unsigned block_need;   /* what the kernels need of --block: LAB_BLOCK_* (launch.h) */
    const char *max_n_why; /* the refusal of an n above the limit, with the range and the reason
                              (NULL: SORT_MAX_N_WHY) */
    void (*workspace)(int64_t n, const sort_params *p, sort_ws_need *need); /* what the step needs */
    void (*describe)(const sort_params *p, char *buf, size_t len); /* its parameters, for the result line */
    /* Below, NULL means: nothing of the kind. */
    const char *(*check)(int64_t n, const sort_params *p); /* the step's own pure-host checks, beyond
                                                              sort_check's (sort_host.h) */
    int64_t (*max_n_of)(const sort_params *p); /* a limit below spec.max_n for some parameters */
    const char *(*fit)(int64_t n, const sort_params *p, int with_values); /* the checks that need the
                                     GPU: lab_fit_kernel of each kernel with its block and shared memory */
    int (*passes)(int64_t n, const sort_params *p); /* a sort in passes over all keys (steps 1-5): */
    sort_pass_fn pass;                              /* how many, and one of them (sort_run_passes) */
    sort_iter_fn iter_launch; /* one iteration on its own: ./run --example replays Figs 13.1-13.3 with it */
    int typed_keys; /* 1: keys_in holds the raw bits of p->type's values, and the step orders them
                       itself; 0 (steps 1-6): the caller hands it keys through sort_key_encode and
                       decodes its output */
} sort_step;

/* The step's descriptor, defined beside its launcher. */
extern const sort_step sort_step_info;

LAB_END_C

#endif
