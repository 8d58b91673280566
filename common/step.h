/* step.h - what every step's descriptor begins with, in every chapter: the
 * facts ./run's parser and --help ask of a step. A chapter's descriptor
 * (reduce_step, merge_step, sort_step, ...) is `lab_step lab` followed by the
 * chapter's own facts; each step defines its chapter's `<prefix>_step_info`
 * with designated initializers, at the end of its kernel file. */
#ifndef LAB_STEP_H
#define LAB_STEP_H

#include "options.h"

LAB_BEGIN_C

typedef struct {
    const char *about;           /* the step's own --help paragraph ("" none) */
    int64_t default_n;           /* -n when it is not given */
    int64_t max_n;               /* -n's limit */
    const char *max_n_why;       /* the reason for that limit, said when -n passes it */
    const char *const *variants; /* --variant names, NULL-terminated (NULL: the step has one form) */
    int sets_default_n;          /* 1: the chapter's driver sets the default -n from the options (lab_cli) */
} lab_step;

/* Parses argv for a step: its descriptor's facts, the chapter's --help
 * paragraph after the step's own, and the options the chapter declares
 * (opts; an entry with `at` NULL is refused by name). */
void lab_parse_step(int argc, char **argv, const lab_step *step, const char *chapter_help, int default_reps,
                    const lab_opt *opts, int nopts, lab_run *run);

LAB_END_C

#endif
