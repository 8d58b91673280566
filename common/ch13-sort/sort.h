/* sort.h - chapter 13's interface: the parameters every sort step takes, the
 * options a step may take (SORT_TAKES_*), and the step's descriptor,
 * sort_step_info: the facts ./run and the tests ask the step for (its
 * defaults, options and limits, the workspace it needs, and how it sorts:
 * its own launcher, or passes the wing's loop runs). The key types and the
 * CPU reference are in sort_ref.h; the host-side checks, the workspace layout
 * and sort_run, the one way to run a step's sort, in sort_host.h. */
#ifndef LAB_SORT_H
#define LAB_SORT_H

#include "lab.h"
#include "launch.h"
#include "sort_ref.h"
#include "step.h"

/* Indices are unsigned int in the radix kernels (as in Fig 13.4) and int in
 * merge sort (chapter 12's co_rank): n must stay below 2^31. */
#define SORT_MAX_N 2147483647LL
/* The limit of steps whose indices are unsigned int, as in Fig 13.4. */
#define SORT_MAX_N_WHY "n must be 0 to 2^31 - 1 (unsigned int indices, as in Fig 13.4)"

/* Digit width r in bits, 1 to 8 (2^r local buckets, a 2^r-row table): --bits. */
#define SORT_MAX_RADIX_BITS 8
/* Keys per thread live in registers, so their arrays have this compile-time size: --coarsen. */
#define SORT_MAX_COARSEN 16

/* The threads one SM holds on the architecture being compiled (the CUDA
 * Programming Guide's table): a __launch_bounds__ asking for more blocks than
 * fit is ignored, with a ptxas warning, so a step's min-blocks comes from
 * this. 2048 on sm_80, sm_90, sm_100, sm_103 (and in the host pass, where
 * nvcc reads the bounds but uses none); 1024 on sm_75; 1536 on sm_86, sm_89,
 * sm_120 and, to be safe, any other (a bound below the SM's costs no warning). */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000 || \
    __CUDA_ARCH__ == 1030
#define SORT_SM_THREADS 2048
#elif __CUDA_ARCH__ == 750
#define SORT_SM_THREADS 1024
#else
#define SORT_SM_THREADS 1536
#endif

LAB_BEGIN_C

/* The chapter's options a step may take beyond -n, --seed, --reps, --csv and
 * -q (its descriptor's `takes`); ./run refuses the others by name. */
enum {
    SORT_TAKES_DIST = 1u << 0,      /* --dist D: the input distribution (sort_dists) */
    SORT_TAKES_TYPE = 1u << 1,      /* --type T: uint, int or float keys (sort_type_names) */
    SORT_TAKES_KEYS_ONLY = 1u << 2, /* --keys-only: keys without values */
    SORT_TAKES_BLOCK = 1u << 3,     /* --block B: threads per block */
    SORT_TAKES_EXAMPLE = 1u << 4,   /* --example: Fig 13.1's keys */
    SORT_TAKES_TILE = 1u << 5,      /* --tile T: keys per shared-memory tile */
    SORT_TAKES_COARSEN = 1u << 6,   /* --coarsen C: keys per thread, 1 to SORT_MAX_COARSEN */
    SORT_TAKES_BITS = 1u << 7,      /* --bits R: the digit width, 1 to SORT_MAX_RADIX_BITS */
    SORT_TAKES_VARIANT = 1u << 8,   /* --variant V: one of the step's forms (lab.variants) */
    SORT_TAKES_PRINTED = 1u << 9    /* --printed: the code as printed, bugs included (docs/errata.md) */
};
/* What every step takes. */
#define SORT_TAKES_EVERY \
    (SORT_TAKES_DIST | SORT_TAKES_TYPE | SORT_TAKES_KEYS_ONLY | SORT_TAKES_BLOCK | SORT_TAKES_EXAMPLE)

typedef struct {
    int block;           /* threads per block */
    int tile;            /* keys sorted in one block's shared memory (a step that takes --tile) */
    int coarsen;         /* keys per thread (--coarsen) */
    int radix_bits;      /* r, bits per radix iteration (--bits) */
    const char *variant; /* the step's form (--variant); NULL or "" when it has one form */
    int printed;         /* run the code as printed, bugs included (--printed, docs/errata.md) */
    sort_type type;      /* what the keys were (--type): the step sorts them through sort_key_encode */
} sort_params;

/* The blocks (tiles) that cover n keys, `per` keys each. */
static inline int64_t sort_ceil_div(int64_t n, int64_t per)
{
    return (n + per - 1) / per;
}

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

/* That workspace, laid out in the caller's temp_d; a part the step does not need is NULL. */
typedef struct {
    unsigned int *keys_alt, *values_alt;     /* ping_pong (values: with values only) */
    unsigned int *keys_local, *values_local; /* local_copy */
    unsigned int *table;                     /* table + 1 entries */
    void *scan_temp;                         /* scan_temp_bytes(table) */
    void *words;                             /* words */
} sort_ws;

/* A step's own launcher (steps 6, 7): keys_out[0,n) (values_out, when
 * values_in is not NULL) = keys_in (values_in) sorted by key, stable, inputs
 * unchanged, n > 0 keys already checked (sort_run), its workspace laid out.
 * Keys are unsigned, in the transform's order (sort_ref.h): the caller
 * encodes int and float keys and decodes the result. NULL once launched on
 * the default stream, or why not. */
typedef const char *(*sort_launch_fn)(const unsigned int *keys_in, const unsigned int *values_in,
                                      unsigned int *keys_out, unsigned int *values_out, int64_t n, const sort_ws *ws,
                                      const sort_params *p);

/* One pass of a sort that reads every key and writes every key each pass (a
 * radix iteration, a tile sort, a merge pass): sort_run's loop hands each
 * pass the last one's output as its input. */
typedef struct {
    const unsigned int *keys_in, *values_in; /* values NULL: keys only */
    unsigned int *keys_out, *values_out;
    int64_t n;
    int index, count; /* this is pass `index` of `count` (0 to count - 1) */
} sort_pass;

typedef const char *(*sort_pass_fn)(const sort_pass *pass, const sort_ws *ws, const sort_params *p);

/* One radix iteration on its own, for the Fig 13.1-13.3 example: bit `iter`
 * of keys_in split into keys_out. bits_d holds n + 1 entries: afterwards,
 * bits_d[i] = the ones before key i and bits_d[n] = the ones in total.
 * temp_d: scan_temp_bytes(n) bytes. */
typedef const char *(*sort_iter_fn)(const unsigned int *keys_in, const unsigned int *values_in, unsigned int *keys_out,
                                    unsigned int *values_out, unsigned int *bits_d, int64_t n, unsigned int iter,
                                    void *temp_d, const sort_params *p);

/* How a step sorts: its own launcher, or passes over all keys (steps 1-5, 8)
 * that sort_run runs in a loop, each reading the last one's output,
 * alternating between the workspace's second buffer and the output so that
 * the last pass writes the output. A step fills `launch`, or `passes` and
 * `pass`. */
typedef struct {
    sort_launch_fn launch;                          /* the whole sort */
    int (*passes)(int64_t n, const sort_params *p); /* how many passes */
    sort_pass_fn pass;                              /* one of them */
} sort_how;

/* What a step needs beyond the chapter's checks (sort_check); a NULL function: nothing of the kind. */
typedef struct {
    unsigned block; /* what its kernels need of --block: LAB_BLOCK_* */
    void (*workspace)(int64_t n, const sort_params *p, sort_ws_need *need); /* its device workspace */
    const char *(*check)(int64_t n, const sort_params *p);                  /* its own pure-host checks */
    int64_t (*max_n_of)(const sort_params *p); /* a limit below lab.max_n for some parameters */
    const char *(*fit)(int64_t n, const sort_params *p, int with_values); /* the checks that need the GPU:
                                                       lab_fit_kernel of each kernel with its block and shared memory */
} sort_needs;

/* A step's facts. Each step's kernel file defines one, sort_step_info, at its end. */
typedef struct {
    lab_step lab;         /* its --help paragraph, default -n, -n's limit and why, --variant names */
    unsigned takes;       /* its options: SORT_TAKES_EVERY | ... */
    sort_params defaults; /* ./run's and the tests' parameters */
    sort_needs needs;
    void (*describe)(const sort_params *p, char *buf, size_t len); /* its parameters, for the result line */
    sort_how sorts;
    sort_iter_fn iter_launch; /* one iteration on its own: ./run --example replays Figs 13.1-13.3 with it
                                 (NULL: --example sorts Fig 13.1's keys whole) */
} sort_step;

/* The step's descriptor, defined at the end of its kernel file. */
extern const sort_step sort_step_info;

LAB_END_C

#endif
