/* step.c - ./run's parser for a step: its descriptor's facts (step.h) as the
 * core's parser takes them (options.h). */
#include "step.h"

/* Defined in each step's generated build/<step>/step.c (tests/tools/step-info.sh); weak for the
 * bench tools, which have none. */
extern const char *const lab_step_name __attribute__((weak));

void lab_parse_step(int argc, char **argv, const lab_step *step, const char *chapter_help, int default_reps,
                    const lab_opt *opts, int nopts, lab_run *run)
{
    char about[4096];
    snprintf(about, sizeof about, "%s%s", step->about != NULL ? step->about : "",
             chapter_help != NULL ? chapter_help : "");
    const lab_cli cli = {.step = &lab_step_name != NULL ? lab_step_name : "./run",
                         .about = about,
                         .default_n = step->default_n,
                         .max_n = step->max_n,
                         .max_n_why = step->max_n_why,
                         .default_reps = default_reps,
                         .sets_default_n = step->sets_default_n};
    lab_parse(argc, argv, &cli, opts, nopts, run);
}
