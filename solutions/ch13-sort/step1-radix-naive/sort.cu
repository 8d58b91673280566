/* sort.cu - ch13 step 1: the chapter's first sort, the naive parallel radix sort.
 * Figs 13.1-13.4 (section 13.3). One thread per key, one bit per iteration, 32
 * iterations. Each iteration is the kernel of Fig 13.4 cut at its exclusive
 * scan into three launches, as the text allows: extract the bits
 * (radix_sort_bits), scan them (the lab's device scan), move each key to its
 * destination (radix_sort_scatter). */
#include "scan.h"
#include "sort_host.h"

/* Fig 13.4 lines 03-08: thread i extracts bit `iter` of key i and stores it for the scan. */
__global__ void radix_sort_bits(const unsigned int *input, unsigned int *bits, unsigned int N, unsigned int iter)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        /* exercise: radix_sort_bits(), Fig 13.4 lines 06-08: load key i (input[i]), extract its bit number iter (bit 0 the least significant) and store that bit, 0 or 1, in bits[i] */
        /* hint: the scan that follows adds up bits[]: each entry must be exactly 0 or 1, so none of the key's other bits may survive */
        /* hint: shift the key right by iter places, then keep only the lowest bit (a mask of 1) */
        const unsigned int key = input[i];
        const unsigned int bit = (key >> iter) & 1;
        bits[i] = bit;
        /* exercise stub: bits[i] = 0; */
        /* end exercise */
    }
}

/* Fig 13.4 lines 14-15 (section 13.3's derivation): where key i goes when
 * numOnesBefore of the keys before it, and numOnesTotal of all N, have a one. */
static __device__ __forceinline__ unsigned int destination(unsigned int i, unsigned int bit, unsigned int numOnesBefore,
                                                           unsigned int numOnesTotal, unsigned int N)
{
    /* exercise: destination(), Fig 13.4 lines 14-15 as section 13.3 derives them: a zero (bit 0) goes to i - ones before; a one goes after all the zeros, to N - ones in total + ones before */
    /* hint: the zeros keep their order at the front: of the i keys before key i, i - numOnesBefore are zeros, and each goes before it */
    /* hint: the ones keep their order after all N - numOnesTotal zeros: a one lands numOnesBefore places past them (the figure as printed subtracts: docs/errata.md, E13.1) */
    return (bit == 0) ? (i - numOnesBefore) : (N - numOnesTotal + numOnesBefore); /* fixed: + (docs/errata.md) */
    /* exercise stub: return i; */
    /* end exercise */
}

/* --printed: line 15 as printed subtracts the ones before (docs/errata.md). */
static __device__ __forceinline__ unsigned int printed_destination(unsigned int i, unsigned int bit,
                                                                   unsigned int numOnesBefore,
                                                                   unsigned int numOnesTotal, unsigned int N)
{
    return (bit == 0) ? (i - numOnesBefore) : (N - numOnesTotal - numOnesBefore);
}

/* Fig 13.4 lines 11-16, after the scan: bits[i] now counts the ones before key
 * i and bits[N] the ones in total; thread i moves its key (and value) there. */
__global__ void radix_sort_scatter(const unsigned int *input, const unsigned int *values_in, unsigned int *output,
                                   unsigned int *values_out, const unsigned int *bits, unsigned int N,
                                   unsigned int iter, int printed)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        const unsigned int key = input[i];
        const unsigned int bit = (key >> iter) & 1; /* again: the scan overwrote bits[i] */
        const unsigned int dst =
            printed ? printed_destination(i, bit, bits[i], bits[N], N) : destination(i, bit, bits[i], bits[N], N);
        if (dst >= N) /* our guard, not the book's: the printed index (or a wrong formula) can leave [0, N) */
            return;
        output[dst] = key;
        if (values_in != NULL)
            values_out[dst] = values_in[i];
    }
}

/* One iteration: the three launches that stand for Fig 13.4's one kernel.
 * Also ./run --example's (sort_step_info.iter_launch), one iteration at a time. */
static const char *radix_sort_iter_launch(const unsigned int *keys_in, const unsigned int *values_in,
                                          unsigned int *keys_out, unsigned int *values_out, unsigned int *bits_d,
                                          int64_t n, unsigned int iter, void *temp_d, const sort_params *p)
{
    const char *why = sort_check(&sort_step_info, n, p);
    if (why != NULL)
        return why;
    if (iter > 31)
        return "iter must be 0 to 31";
    const unsigned int N = (unsigned int)n, grid = (unsigned int)sort_ceil_div(n, p->block);
    if (N > 0) {
        radix_sort_bits<<<grid, p->block>>>(keys_in, bits_d, N, iter);
        CUDA_CHECK_LAUNCH();
    }
    why = scan_exclusive(bits_d, bits_d, n, temp_d); /* line 10's exclusiveScan(bits, N): bits[N] = total */
    if (why != NULL)
        return why;
    if (N > 0) {
        radix_sort_scatter<<<grid, p->block>>>(keys_in, values_in, keys_out, values_out, bits_d, N, iter, p->printed);
        CUDA_CHECK_LAUNCH();
    }
    return NULL;
}

/* Section 13.2's loop, one pass per bit from the least significant, each
 * reading the last one's output (sort_run, sort_host.c). */
static const char *radix_iteration(const sort_pass *pass, const sort_ws *ws, const sort_params *p)
{
    return radix_sort_iter_launch(pass->keys_in, pass->values_in, pass->keys_out, pass->values_out, ws->table, pass->n,
                                  (unsigned int)pass->index, ws->scan_temp, p);
}

/* ---- what ./run and the tests ask of this step ---------------------------- */

/* the other key (value) buffer, and bits: N + 1 entries, scanned in place */
static void workspace(int64_t n, const sort_params *p, sort_ws_need *need)
{
    (void)p;
    need->ping_pong = 1;
    need->table = n;
}

static void describe(const sort_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "block=%d%s", p->block, p->printed ? " printed" : "");
}

/* Step 1's facts: 32 one-bit iterations of three launches, any block size (sort.h). */
const sort_step sort_step_info = {
    .lab = {.about = "Step 1 sorts in 32 one-bit iterations of three launches each; any block size works.\n"
                     "--example replays Figs 13.1-13.3 (with no GPU visible, their rows from the CPU\n"
                     "reference); --printed runs Fig 13.4's printed formula for the destination of a one\n"
                     "(docs/errata.md).\n",
            .default_n = 1 << 24,
            .max_n = SORT_MAX_N,
            .max_n_why = SORT_MAX_N_WHY},
    .takes = SORT_TAKES_EVERY | SORT_TAKES_PRINTED,
    .defaults = {.block = 256, .radix_bits = 1}, /* r = 1: one bit per iteration */
    .needs = {.block = LAB_BLOCK_ANY, .workspace = workspace},
    .describe = describe,
    .sorts = {.passes = sort_radix_passes, .pass = radix_iteration},
    .iter_launch = radix_sort_iter_launch,
};
