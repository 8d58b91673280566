/* reduce_book.c - the book's analysis of its single-block kernels (sections
 * 10.4-10.6: for each figure, the counts, formulas and numbers it prints) and
 * what --analyze and --example make of the instrumented kernel's counters.
 * Pure host. */
#include "reduce_book.h"

#include <string.h>

/* ---- --analyze: the counts ------------------------------------------------- */

void reduce_analyze_counts(const reduce_counters *c, int strides_double, int threads, reduce_analysis *a)
{
    int top = 0;
    while (2 << top <= threads)
        top++;
    const int warps = (threads + 31) / 32;
    memset(a, 0, sizeof *a);
    a->steps = top + 1;
    for (int k = 0; k <= top; k++) {
        const int slot = strides_double ? k : top - k;
        a->stride[k] = 1 << slot;
        for (int w = 0; w < warps && w < REDUCE_MAX_BLOCK / 32; w++) {
            const int here = __builtin_popcount(c->lanes[slot][w]);
            const int in_warp = threads - 32 * w < 32 ? threads - 32 * w : 32;
            a->warps[k] += here > 0;
            a->divergent[k] += here > 0 && here < in_warp;
            a->threads[k] += here;
            for (int acc = 0; acc < REDUCE_ACCESSES; acc++)
                a->requests[k] += __builtin_popcountll(c->segments[slot][acc][w]);
        }
        a->warp_steps += a->warps[k];
        a->divergent_steps += a->divergent[k] > 0;
        a->results += a->threads[k];
        a->requests_tree += a->requests[k];
    }
    a->requests_out = (long long)c->out_requests;
}

double reduce_metric_value(const reduce_analysis *a, reduce_metric m)
{
    switch (m) {
    case REDUCE_WARP_STEPS:
        return (double)a->warp_steps;
    case REDUCE_LANES_CONSUMED:
        return 32.0 * (double)a->warp_steps;
    case REDUCE_RESULTS:
        return (double)a->results;
    case REDUCE_EFFICIENCY:
        return a->warp_steps > 0 ? (double)a->results / (32.0 * (double)a->warp_steps) : 0.0;
    case REDUCE_DIVERGENT_STEPS:
        return (double)a->divergent_steps;
    case REDUCE_TREE_REQUESTS:
        return (double)a->requests_tree;
    case REDUCE_OUT_REQUESTS:
        return (double)a->requests_out;
    case REDUCE_ALL_REQUESTS:
        return (double)(a->requests_tree + a->requests_out);
    case REDUCE_SECTION:
        break;
    }
    return 0.0;
}

/* ---- --example: the book's picture ------------------------------------------ */

/* A recorded element (reduce_analyze): its index, and whether it is in shared memory. */
static int element_index(int code, int shared_base, int *shared)
{
    *shared = code < 0;
    return code > 0 ? code - 1 : -1 - code - shared_base;
}

int reduce_example_picture(const reduce_counters *c, int strides_double, int64_t n, int *owner,
                           reduce_picture_step *rows)
{
    const int threads = (int)(n / 2);
    int top = 0, shared_base = 1 << 30;
    while (2 << top <= threads)
        top++;
    for (int s = 0; s < REDUCE_SLOTS; s++) /* shared memory's first element: input_s[0] */
        for (int t = 0; t < REDUCE_EXAMPLE_THREADS; t++)
            for (int k = 0; k < REDUCE_ACCESSES; k++)
                if (c->element[s][t][k] < 0 && -1 - c->element[s][t][k] < shared_base)
                    shared_base = -1 - c->element[s][t][k];
    for (int64_t i = 0; i < n; i++)
        owner[i] = -1;
    for (int k = 0; k <= top; k++) {
        const int slot = strides_double ? k : top - k;
        reduce_picture_step *r = &rows[k];
        memset(r->elements, ' ', (size_t)n);
        r->elements[n] = '\0';
        r->stride = 1 << slot;
        r->active = 0;
        r->from = r->into = "";
        for (int t = 0; t < threads; t++) {
            const int on = (c->lanes[slot][t / 32] >> (t % 32)) & 1;
            r->threads[t] = on ? '#' : '.';
            r->active += on;
            if (!on)
                continue;
            int shared = 0;
            const int into = element_index(c->element[slot][t][2], shared_base, &shared);
            r->into = shared ? "input_s" : "input";
            for (int a = 0; a < 2; a++) { /* the elements it combines; the one it writes is marked '#' */
                const int e = element_index(c->element[slot][t][a], shared_base, &shared);
                if (e >= 0 && e < n && e != into && r->elements[e] != '#')
                    r->elements[e] = '+';
            }
            r->from = shared ? "input_s" : "input"; /* where the second element came from */
            if (into >= 0 && into < n) {
                r->elements[into] = '#';
                if (k == 0)
                    owner[into] = t;
            }
        }
        r->threads[threads] = '\0';
    }
    return top + 1;
}

/* ---- sections 10.4-10.6: the book's analysis of its single-block kernels ----- */

/* The book counts whole warps: N/64 of them, each owning 64 elements (N >= 64). */
static double fig_10_6_warp_steps(double n)
{
    return 5 * (n / 64) + (n / 64 - 1);
}
static double fig_10_6_lanes(double n)
{
    return 32 * fig_10_6_warp_steps(n);
}
static double fig_10_6_efficiency(double n)
{
    return (n - 1) / fig_10_6_lanes(n);
}
static double fig_10_6_requests(double n)
{
    return 3 * (12 * (n / 64) - 1);
}
static double fig_10_9_warp_steps(double n)
{
    return (2 * (n / 64) - 1) + 5;
}
static double fig_10_9_lanes(double n)
{
    return 32 * fig_10_9_warp_steps(n);
}
static double fig_10_9_efficiency(double n)
{
    return (n - 1) / fig_10_9_lanes(n);
}
static double fig_10_9_requests(double n)
{
    return 3 * (2 * (n / 64) + 4);
}
static double results(double n)
{
    return n - 1;
}
static double loads(double n)
{
    return n / 32;
}
static double loads_and_output(double n)
{
    return n / 32 + 1;
}

static const char *const divergence = "Section 10.4, minimizing control divergence";
static const char *const memory_divergence =
    "Section 10.5, minimizing memory divergence (a request: one 128-byte segment a warp access touches)";
static const char *const not_counted = "(not counted by the book)";

/* Count by count, what the book says of each figure; --analyze prints a figure's rows in this order. */
#define F6  &reduce_fig_10_6
#define F9  &reduce_fig_10_9
#define F11 &reduce_fig_10_11
const reduce_book_row reduce_book_rows[] = {
    {.book = F6, .metric = REDUCE_SECTION, .label = divergence},
    {.book = F9, .metric = REDUCE_SECTION, .label = divergence},
    {.book = F11,
     .metric = REDUCE_SECTION,
     .label = "Section 10.4's counts for this kernel (the book gives none: its tree is Fig 10.9's)"},
    {.book = F6,
     .metric = REDUCE_WARP_STEPS,
     .label = "warps active, summed over time steps",
     .formula = "N/64*5 + N/64*1/2 + ... + 1",
     .formula_at = fig_10_6_warp_steps},
    {.book = F9,
     .metric = REDUCE_WARP_STEPS,
     .label = "warps active, summed over time steps",
     .formula = "N/64 + N/64*1/2 + ... + 1 + 5*1",
     .formula_at = fig_10_9_warp_steps},
    {.book = F11,
     .metric = REDUCE_WARP_STEPS,
     .label = "warps active, summed over time steps",
     .formula = "as Fig 10.9's: N/64 + ... + 1 + 5*1",
     .formula_at = fig_10_9_warp_steps},
    {.book = F6,
     .metric = REDUCE_LANES_CONSUMED,
     .label = "execution resources consumed (x 32 lanes)",
     .formula = "(the line above) x 32",
     .formula_at = fig_10_6_lanes,
     .at_256 = "736"},
    {.book = F9,
     .metric = REDUCE_LANES_CONSUMED,
     .label = "execution resources consumed (x 32 lanes)",
     .formula = "(the line above) x 32",
     .formula_at = fig_10_9_lanes,
     .at_256 = "384"},
    {.book = F6,
     .metric = REDUCE_RESULTS,
     .label = "results committed by active threads",
     .formula = "N/64*(32+16+8+4+2+1) + N/64*1/2 + .. + 1",
     .formula_at = results,
     .at_256 = "255"},
    {.book = F9,
     .metric = REDUCE_RESULTS,
     .label = "results committed by active threads",
     .formula = "as Fig 10.6's: N - 1",
     .formula_at = results,
     .at_256 = "255"},
    {.book = F11,
     .metric = REDUCE_RESULTS,
     .label = "results committed by active threads",
     .formula = "N - 1",
     .formula_at = results},
    {.book = F6,
     .metric = REDUCE_EFFICIENCY,
     .label = "efficiency: committed / consumed",
     .formula = "committed / consumed",
     .formula_at = fig_10_6_efficiency,
     .at_256 = "0.35"},
    {.book = F9,
     .metric = REDUCE_EFFICIENCY,
     .label = "efficiency: committed / consumed",
     .formula = "committed / consumed",
     .formula_at = fig_10_9_efficiency,
     .at_256 = "66%"},
    {.book = F6,
     .metric = REDUCE_DIVERGENT_STEPS,
     .label = "time steps with a divergent warp",
     .remark = "\"ten\" (reduced to \"five\" by Fig 10.9)"},
    {.book = F9, .metric = REDUCE_DIVERGENT_STEPS, .label = "time steps with a divergent warp", .remark = "\"five\""},
    {.book = F6, .metric = REDUCE_SECTION, .label = memory_divergence},
    {.book = F9, .metric = REDUCE_SECTION, .label = memory_divergence},
    {.book = F6,
     .metric = REDUCE_TREE_REQUESTS,
     .label = "global memory requests of the tree",
     .formula = "(N/64*5*2 + N/64*1 + N/64*1/2 + .. + 1)*3",
     .formula_at = fig_10_6_requests,
     .at_256 = "141",
     .at_2048 = "1149"},
    {.book = F9,
     .metric = REDUCE_TREE_REQUESTS,
     .label = "global memory requests of the tree",
     .formula = "((N/64 + N/64*1/2 + ... + 1) + 5)*3",
     .formula_at = fig_10_9_requests,
     .at_256 = "36",
     .at_2048 = "204"},
    {.book = F6,
     .metric = REDUCE_OUT_REQUESTS,
     .label = "then: thread 0 reads input[0], writes *output",
     .remark = not_counted},
    {.book = F9,
     .metric = REDUCE_OUT_REQUESTS,
     .label = "then: thread 0 reads input[0], writes *output",
     .remark = not_counted},
    {.book = F11, .metric = REDUCE_SECTION, .label = "Section 10.6, minimizing global memory accesses"},
    {.book = F11,
     .metric = REDUCE_ALL_REQUESTS,
     .label = "global memory requests: loads, *output",
     .formula = "N/32 + 1",
     .formula_at = loads_and_output,
     .at_256 = "9"},
    {.book = F11,
     .metric = REDUCE_TREE_REQUESTS,
     .label = "  of them the loads (coalesced)",
     .formula = "N/32",
     .formula_at = loads},
};
const int reduce_book_nrows = (int)(sizeof reduce_book_rows / sizeof reduce_book_rows[0]);

/* E10.1: the consumption formula counts five time steps with every warp active; there are six. */
static void fig_10_6_note(int64_t n, const reduce_analysis *a)
{
    const double measured = (double)a->warp_steps;
    if (n < 64 || measured == fig_10_6_warp_steps((double)n))
        return;
    printf("  The book's consumption formula counts five time steps in which all N/64 warps are active; strides\n"
           "  1, 2, 4, 8, 16 and 32 make six (its committed-results and request formulas count six). So %.0f,\n"
           "  not %.0f, and an efficiency of %.2f, not %.2f: see docs/errata.md (chapter 10).\n",
           32.0 * measured, fig_10_6_lanes((double)n), (double)a->results / (32.0 * measured),
           fig_10_6_efficiency((double)n));
}

/* Section 10.5: how many times Fig 10.6's requests these are. */
static void fig_10_9_note(int64_t n, const reduce_analysis *a)
{
    if (n >= 64)
        printf("    Fig 10.6's (N/64*5*2 + ... + 1)*3 = %.0f at this N is %.1fx as many (printed: 3.9x at N = 256, "
               "5.6x at 2048)\n",
               fig_10_6_requests((double)n), fig_10_6_requests((double)n) / (double)a->requests_tree);
}

const reduce_book reduce_fig_10_6 = {
    .figure = "Fig 10.6, the simple kernel", .picture = "Fig 10.7", .strides_double = 1, .note = fig_10_6_note};
const reduce_book reduce_fig_10_9 = {
    .figure = "Fig 10.9, the convergent kernel", .picture = "Fig 10.8", .strides_double = 0, .note = fig_10_9_note};
const reduce_book reduce_fig_10_11 = {.figure = "Fig 10.11, the shared-memory kernel",
                                      .picture = "Fig 10.10",
                                      .first_step = "(the loads from global memory)",
                                      .strides_double = 0};
