/* reduce_book.h - the book's analysis of its single-block kernels (sections
 * 10.4-10.6), for the descriptors of steps 1-3, and what --analyze and
 * --example make of the kernel's records. Pure host (no GPU). */
#ifndef LAB_REDUCE_BOOK_H
#define LAB_REDUCE_BOOK_H

#include "reduce.h"

LAB_BEGIN_C

/* Sections 10.4-10.6: the book's analysis of its three single-block kernels
 * (the figure, the picture --example draws, the counts, formulas and printed
 * numbers), for the descriptors of steps 1-3. */
extern const reduce_book reduce_fig_10_6, reduce_fig_10_9, reduce_fig_10_11;
extern const reduce_book_row reduce_book_rows[];
extern const int reduce_book_nrows;

/* --analyze: summarizes c for a one-block run with `threads` threads, the
 * time steps in the order the kernel runs them. */
void reduce_analyze_counts(const reduce_counters *c, int strides_double, int threads, reduce_analysis *a);

/* The measured value of a count (0 for REDUCE_SECTION). */
double reduce_metric_value(const reduce_analysis *a, reduce_metric m);

/* --example: one time step of the book's picture, from the counters. */
typedef struct {
    int stride;
    int active;                               /* threads active */
    char elements[REDUCE_EXAMPLE_MAX_N + 1];  /* per element: '#' written, '+' combined into a '#', ' ' untouched */
    char threads[REDUCE_EXAMPLE_THREADS + 1]; /* per thread: '#' active, '.' idle */
    const char *from, *into;                  /* "input" or "input_s": where it read, where it wrote */
} reduce_picture_step;

/* The picture of a one-block run on n <= REDUCE_EXAMPLE_MAX_N elements:
 * owner[i] = the thread that writes element i in the first time step (-1:
 * none), and one row per time step. Returns the number of rows. */
int reduce_example_picture(const reduce_counters *c, int strides_double, int64_t n, int *owner,
                           reduce_picture_step *rows);

LAB_END_C

#endif
