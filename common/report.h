/* report.h - the result line of ./run (and its --csv form), and the check
 * of device outputs against the CPU reference, element by element. */
#ifndef LAB_REPORT_H
#define LAB_REPORT_H

#include "lab.h"
#include "options.h"
#include "timing.h"

LAB_BEGIN_C

/* Outputs are filled with this byte before every run: 0xA5A5A5A5 as a word, a
 * negative int, a huge unsigned and a NaN-free float none of the inputs use. */
#define LAB_POISON_BYTE 0xA5
#define LAB_POISON_WORD 0xA5A5A5A5u
void lab_poison_device(void *d, size_t bytes);

/* " (... never written)" when word is the poison, else "": for mismatch lines.
 * (A write past the end of a buffer is found by its guard: common/devmem.h.) */
const char *lab_marker_meaning(uint32_t word);

/* Where the first mismatch is, and how many there are. */
typedef struct {
    int64_t count;
    int64_t first;
} lab_mismatch;

/* Element-by-element comparison; prints up to max_report mismatches with
 * their indices under the name `what` (e.g. "C"). */
lab_mismatch lab_compare_i32(const int32_t *got, const int32_t *want, int64_t n, const char *what, int max_report);
lab_mismatch lab_compare_u32(const uint32_t *got, const uint32_t *want, int64_t n, const char *what, int max_report);

/* One result of a step: what ran, on what, how fast and whether it was right. */
typedef struct {
    const char *step;   /* e.g. ch12-merge/step3-tiled */
    const char *params; /* e.g. "block=256 tile=1024 coarsen=8" */
    int64_t n;          /* elements processed */
    double bytes;       /* bytes that must move (inputs read once, outputs written once) */
    lab_timing time;
    int pass;
} lab_result;

/* PASS/FAIL line, the median time, effective bandwidth and elements/s. With
 * --csv: one line (header with -q off is the caller's choice). */
void lab_print_result(const lab_run *o, const lab_result *r);

/* "  name      = x0 x1 ...": a small array of a worked example (--example). */
void lab_print_ints(const char *name, const int *X, int len);

/* On FAIL of an exercise, names the TODOs still to do. */
void lab_print_todo_hint(void);

/* The name of this build's step, set at link time from the step's path. */
extern const char *const lab_step_name;

LAB_END_C

#endif
