/* merge.h - chapter 12's interface: the merge every step launches, its
 * parameters and arguments, and the step's descriptor, merge_step_info: the
 * facts ./run and the tests ask the step for (its defaults, the options it
 * takes, the inputs it merges, its workspace, the printed bugs it replays).
 * The CPU reference and the input generators are in merge_ref.h; the checks,
 * the workspace and the device buffers every launcher and driver shares in
 * merge_host.h. */
#ifndef LAB_MERGE_H
#define LAB_MERGE_H

#include "lab.h"
#include "step.h"

/* Keys compare through MERGE_KEY. In ./run it is the identity. The tests build
 * with LAB_TAGGED_KEYS: the low 8 bits of every value are a tag (bit 0: 0 from
 * A, 1 from B; bits 1-7: a hash of its position), so among equal keys the raw
 * values lie in scrambled order. Code that compares raw values, or breaks a tie
 * from B first or out of input order, changes the output and fails. */
#ifdef LAB_TAGGED_KEYS
#define MERGE_KEY(x) ((x) >> 8)
#else
#define MERGE_KEY(x) (x)
#endif

/* Merge sizes are int, as in the book: m + n must stay below 2^31. */
#define MERGE_MAX_TOTAL 2147483647LL
#define MERGE_MAX_N_WHY "m + n must stay below 2^31 (indices are int, as in the book)"

/* ./run's m + n when no -n is given, every step. */
#define MERGE_DEFAULT_TOTAL (1 << 24)

/* The merge steps of the book's ladder (2-5) share their defaults, so that
 * their ./run lines compare: block 128, tile 1664 (a tile share of 13, odd:
 * step 5's README says why), 16 outputs per thread. */
#define MERGE_LADDER_BLOCK   128
#define MERGE_LADDER_TILE    1664
#define MERGE_LADDER_COARSEN 16

/* The options of chapter 12 a step's ./run takes beyond the core's (-n,
 * --seed, --reps, --csv, -q): merge_step.takes. --keys-only comes with
 * takes_values and --printed with printed (merge_step), so neither has a
 * bit of its own that could disagree with them. */
enum {
    MERGE_TAKES_M = 1u << 0,       /* --m M: elements of A */
    MERGE_TAKES_DIST = 1u << 1,    /* --dist D: the input distribution */
    MERGE_TAKES_TYPE = 1u << 2,    /* --type T: int or float keys (without it: int, as the book) */
    MERGE_TAKES_BLOCK = 1u << 3,   /* --block B */
    MERGE_TAKES_GRID = 1u << 4,    /* --grid G */
    MERGE_TAKES_TILE = 1u << 5,    /* --tile T */
    MERGE_TAKES_COARSEN = 1u << 6, /* --coarsen C: outputs per thread */
    MERGE_TAKES_EXAMPLE = 1u << 7  /* --example: the book's worked input, traced */
};
/* What the book's steps take: step 1 these, steps 2-5 also --grid and --coarsen (MERGE_TAKES_LADDER),
 * and --tile where they tile. */
#define MERGE_TAKES_BOOK   (MERGE_TAKES_M | MERGE_TAKES_DIST | MERGE_TAKES_BLOCK | MERGE_TAKES_EXAMPLE)
#define MERGE_TAKES_LADDER (MERGE_TAKES_BOOK | MERGE_TAKES_GRID | MERGE_TAKES_COARSEN)

/* --help text the steps share: the names chapter 12 gives its parameters.
 * "Outputs per thread" is --coarsen and nothing else; a thread's part of one
 * tile is its "tile share". */
#define MERGE_HELP_M       "A has --m elements (default: half of -n), B the rest.\n"
#define MERGE_HELP_EXAMPLE "--example runs the book's Fig 12.8 input and a counterexample to the printed code.\n"
#define MERGE_HELP_COARSEN                                                                          \
    "--coarsen C is the outputs per thread (section 12.8): a block makes block x C outputs, so C\n" \
    "sets the grid (--grid overrides it).\n"
#define MERGE_HELP_TILE                                                                               \
    "--tile T is the outputs of one shared-memory tile; each thread merges its tile share of every\n" \
    "tile, ceil(T / block) outputs.\n"

LAB_BEGIN_C

/* The input distributions (merge_ref.h makes them) and the key types of --type, NULL-terminated. */
extern const char *const merge_dists[]; /* uniform equal a-below a-above interleaved dups */
extern const char *const merge_types[]; /* int float */

typedef struct {
    int block;   /* threads per block */
    int grid;    /* blocks; 0: derived from the size, block and coarsen */
    int tile;    /* tile_size: the outputs of one shared-memory tile (steps 3-5); a thread merges its
                    tile share, ceil(tile / block), of each */
    int coarsen; /* outputs per thread (section 12.8): a block makes block * coarsen outputs */
    int printed; /* MERGE_PRINTED_* bits: run code as printed, bugs included (docs/errata.md) */
} merge_params;

/* The printed bugs a step can bring back, one bit each, so a test can show
 * each failing on its own input (docs/errata.md). --printed sets all of the
 * step's bits (merge_step.printed). */
enum {
    MERGE_PRINTED_CEIL = 1,     /* Figs 12.9, 12.11-12.12: ceil() of an integer division */
    MERGE_PRINTED_CONSUMED = 2, /* Fig 12.13: A_consumed from full-tile lengths */
    MERGE_PRINTED_LOADER = 4,   /* Fig 12.16: reload from A_consumed, not from what was loaded */
    MERGE_PRINTED_NOTE_SLIP = 8 /* a published fix of Fig 12.16 as written: B_loaded bounded by A_length */
};

/* One merge, in device memory: C[0, m+n) = the stable merge of sorted A[0, m)
 * and B[0, n) (ties take A first), and C_values the values moved with their
 * keys when C_values is not NULL (then A_values and B_values hold m and n
 * values). Keys are 32-bit words: int, or the bits of floats when is_float.
 * temp is merge_temp_bytes(...) bytes of workspace (a timed launch allocates
 * nothing). */
typedef struct {
    const int *A, *A_values;
    int64_t m;
    const int *B, *B_values;
    int64_t n;
    int *C, *C_values;
    int is_float;
    void *temp;
} merge_args;

/* The same inputs on the host (merge_ref.h makes them; merge_host.h uploads them). */
typedef struct {
    int64_t m, n;
    int is_float; /* the keys are floats (their bits in A and B) */
    int tagged;   /* MERGE_TAG_* (merge_ref.h): int keys carry a tag in their low 8 bits */
    int *A, *B;
    int *A_values, *B_values; /* NULL: keys only */
} merge_inputs;

/* Each merge step (2 on): the merge of a. Returns NULL once it is launched on
 * the default stream, or why these parameters or inputs cannot run (nothing
 * launched). */
const char *merge_launch(const merge_args *a, const merge_params *p);

/* Step 1: i_d[t] = co_rank(k_d[t], A, m, B, n) for t < count (p->block threads a block). */
const char *co_rank_launch(const int *A_d, int64_t m, const int *B_d, int64_t n, const int *k_d, int *i_d,
                           int64_t count, const merge_params *p);

/* A step's facts. Each step's kernel file defines one, merge_step_info, at
 * its end. */
typedef struct {
    lab_step lab;          /* --help's paragraph, -n's default (m + n) and limit (lab.max_n, lab.max_n_why) */
    unsigned takes;        /* MERGE_TAKES_*: the options its ./run takes */
    merge_params defaults; /* ./run's and the tests' parameters (printed: 0) */
    unsigned block_need;   /* what its kernels need of --block: LAB_BLOCK_* (launch.h) */
    int takes_values;      /* 1: it merges key-value pairs as well as keys (./run: pairs unless --keys-only) */
    int tile_co_ranks;     /* 1: its workspace holds the co-rank of every tile boundary t * tile */
    unsigned printed;      /* the MERGE_PRINTED_* bugs --printed brings back in this step (0: none, no --printed) */
    /* its own pure-host checks beyond merge_check's (merge_host.h), NULL when none */
    const char *(*check)(int64_t m, int64_t n, const merge_params *p);
} merge_step;

/* The step's descriptor, defined beside its launcher. */
extern const merge_step merge_step_info;

LAB_END_C

/* ceil(a / b) for non-negative integers. The printed figures write
 * ceil((m+n)/gridDim.x), which truncates in the integer division before
 * ceil() sees it (docs/errata.md). */
static inline __host__ __device__ int ceil_div(int64_t a, int64_t b)
{
    return (int)((a + b - 1) / b);
}

#endif
