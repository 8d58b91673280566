/* sort_step.c - the step's descriptor (sort_step_info, sort.h), tested on the
 * CPU (CI, no GPU): complete, its defaults accepted, and bad parameters
 * refused by the check and by sort_run before it touches the GPU
 * (assert_refused, which the steps' own tests use too). Part of chapter 13's
 * suite (tests/ch13-sort/sort.c), linked with it into every step's test
 * binary. */
#include <string.h>

#include "sort_test.h"

Test(sort_step, the_descriptor_is_complete_and_its_defaults_accepted)
{
    const sort_params def = STEP->defaults;
    char text[160], line[256];
    cr_assert_eq(STEP->takes & SORT_TAKES_EVERY, SORT_TAKES_EVERY,
                 "every step takes the chapter's options "
                 "(SORT_TAKES_EVERY)");
    cr_assert((STEP->sorts.launch != NULL) != (STEP->sorts.pass != NULL),
              "a step sorts with its own launcher or in passes, not both (sorts.launch, sorts.pass)");
    cr_assert((STEP->sorts.passes == NULL) == (STEP->sorts.pass == NULL), "a step in passes says how many and what "
                                                                          "one does");
    cr_assert(STEP->lab.about != NULL && STEP->lab.about[0] != '\0', "the step's --help paragraph");
    cr_assert(STEP->lab.max_n_why != NULL && strstr(STEP->lab.max_n_why, "n must") != NULL,
              "a refusal of too large an n");
    cr_assert(STEP->needs.workspace != NULL && STEP->describe != NULL,
              "the workspace and the result line's parameters");
    cr_assert(STEP->lab.max_n >= 4096 && STEP->lab.max_n <= SORT_MAX_N, "-n's limit (%lld)",
              (long long)STEP->lab.max_n);
    cr_assert(STEP->lab.default_n > 0 && STEP->lab.default_n <= STEP->lab.max_n, "-n's default (%lld)",
              (long long)STEP->lab.default_n);
    if (STEP->takes & SORT_TAKES_VARIANT)
        cr_assert(lab_name_in(def.variant, STEP->lab.variants), "the default --variant %s is one of the step's",
                  def.variant);
    else
        cr_assert(STEP->lab.variants == NULL && (def.variant == NULL || def.variant[0] == '\0'),
                  "a step with one form has no variant name");
    cr_assert_null(sort_check(STEP, 1000, &def), "the default parameters (%s) must be accepted",
                   params_text(&def, text, sizeof text));
    cr_assert_null(
        sort_check(STEP, STEP->lab.default_n < sort_max_n(STEP, &def) ? STEP->lab.default_n : sort_max_n(STEP, &def),
                   &def),
        "./run's default size must be accepted");
    cr_assert_gt(sort_temp_bytes(STEP, 1000, 1, &def), 0, "the workspace of 1000 pairs");
    STEP->describe(&def, line, sizeof line);
    cr_assert(strstr(line, "block=") != NULL, "the result line names the block: '%s'", line);
}

void assert_refused(int64_t n, const sort_params *p, const char *what)
{
    unsigned int *d = (unsigned int *)(uintptr_t)0x1000; /* never touched: each call must refuse first */
    char text[160];
    params_text(p, text, sizeof text);
    cr_assert_not_null(sort_check(STEP, n, p), "%s must be refused by the check (n=%lld %s)", what, (long long)n, text);
    cr_assert_not_null(sort_run(STEP, d, d, d, d, n, d, p), "%s must be refused by sort_run (n=%lld %s)", what,
                       (long long)n, text);
    cr_assert_eq(sort_temp_bytes(STEP, n, 1, p), 0, "%s: no workspace for refused parameters", what);
}

Test(sort_step, bad_parameters_are_refused_without_a_gpu)
{
    const sort_params def = STEP->defaults;
    sort_params p = def;
    p.block = 0;
    assert_refused(10, &p, "block=0");
    p.block = 2048;
    assert_refused(10, &p, "block=2048");
    assert_refused(-1, &def, "n=-1");
    assert_refused(STEP->lab.max_n + 1, &def, "an n above the step's limit (documented)");
    if (STEP->needs.block & LAB_BLOCK_WARPS) {
        p = def, p.block = 100;
        assert_refused(10, &p, "block=100 (not whole warps)");
    }
    if (STEP->takes & SORT_TAKES_BITS) {
        p = def, p.radix_bits = 0;
        assert_refused(10, &p, "r=0");
        p.radix_bits = SORT_MAX_RADIX_BITS + 1;
        assert_refused(10, &p, "r=9");
    }
    if (STEP->takes & SORT_TAKES_COARSEN) {
        p = def, p.coarsen = 0;
        assert_refused(10, &p, "coarsen=0");
        p.coarsen = SORT_MAX_COARSEN + 1;
        assert_refused(10, &p, "coarsen=17");
    }
}
