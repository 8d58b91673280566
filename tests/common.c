/* common.c - the lab's core, which knows no chapter: size parsing, the
 * generator, the element-wise check. CPU only: these run in CI. (Each
 * chapter's inputs are tested in its own suites.) */
#include <string.h>

#include "lab_test.h"
#include "options.h"

/* the size, or -1 with the reason in last_why */
static char last_why[200];
static int64_t size_of(const char *s)
{
    int64_t v = 0;
    last_why[0] = '\0';
    return lab_parse_size(s, &v, last_why, sizeof last_why) == 0 ? v : -1;
}

Test(options, parses_sizes)
{
    cr_assert_eq(size_of("2^24"), (int64_t)1 << 24);
    cr_assert_eq(size_of("16M"), (int64_t)16 << 20);
    cr_assert_eq(size_of("3k"), 3000);
    cr_assert_eq(size_of("1000"), 1000);
    cr_assert_eq(size_of("0"), 0);
    cr_assert_eq(size_of("2^20+3"), (1 << 20) + 3, "a size next to a power of two");
    cr_assert_eq(size_of("2^10-1"), 1023);
    cr_assert_eq(size_of("2^99"), -1, "overflow is refused");
    cr_assert(strstr(last_why, "too large") != NULL, "2^99: %s", last_why);
}

/* Each malformed size gets its own reason (issue: one line that says what is wrong). */
Test(options, each_malformed_size_has_its_own_reason)
{
    static const struct {
        const char *text, *reason;
    } bad[] = {{"-5", "negative"},  {"abc", "not a number"}, {"3.5", "not a whole number"},
               {"1e6", "exponent"}, {"12x", "not a number"}, {"2^", "not a power"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(size_of(bad[i].text), -1, "'%s' must be refused", bad[i].text);
        cr_assert(strstr(last_why, bad[i].reason) != NULL, "'%s': reason '%s' should say '%s'", bad[i].text, last_why,
                  bad[i].reason);
    }
    int64_t s[LAB_MAX_SIZES];
    char why[200];
    cr_assert_eq(lab_parse_sizes("2^10:2^5", s, LAB_MAX_SIZES, why, sizeof why), -1);
    cr_assert(strstr(why, "downward") != NULL, "2^10:2^5: %s", why);
}

Test(rng, is_reproducible_and_spread)
{
    lab_rng a = lab_rng_seeded(5), b = lab_rng_seeded(5), c = lab_rng_seeded(6), h = lab_rng_seeded(7);
    int differs = 0, hist[8] = {0};
    for (int i = 0; i < 8000; i++) {
        const uint64_t x = lab_rng_next(&a);
        cr_assert_eq(x, lab_rng_next(&b), "same seed, same stream");
        differs |= x != lab_rng_next(&c);
        hist[lab_rng_below(&h, 8)]++;
    }
    cr_assert(differs, "different seeds give different streams");
    for (int v = 0; v < 8; v++)
        cr_assert(hist[v] > 800 && hist[v] < 1200, "lab_rng_below(8) bucket %d has %d of 8000", v, hist[v]);
}

Test(report, compare_finds_first_mismatch)
{
    int32_t got[6] = {1, 2, 3, 9, 5, 8}, want[6] = {1, 2, 3, 4, 5, 6};
    const lab_mismatch mm = lab_compare_i32(got, want, 6, "C", 0);
    cr_assert_eq(mm.count, 2);
    cr_assert_eq(mm.first, 3);
    const lab_mismatch none = lab_compare_i32(want, want, 6, "C", 0);
    cr_assert_eq(none.count, 0);
    cr_assert_eq(none.first, -1);
}

Test(options, parses_size_lists_and_sweeps)
{
    int64_t s[LAB_MAX_SIZES];
    char why[200];
    cr_assert_eq(lab_parse_sizes("2^10:2^13", s, LAB_MAX_SIZES, why, sizeof why), 4);
    cr_assert(s[0] == 1024 && s[3] == 8192);
    cr_assert_eq(lab_parse_sizes("1000,2^20,5", s, LAB_MAX_SIZES, why, sizeof why), 3);
    cr_assert(s[0] == 1000 && s[1] == 1 << 20 && s[2] == 5);
    cr_assert_eq(lab_parse_sizes("7", s, LAB_MAX_SIZES, why, sizeof why), 1);
    cr_assert_eq(lab_parse_sizes("2^13:2^10", s, LAB_MAX_SIZES, why, sizeof why), -1, "a sweep must rise");
    cr_assert_eq(lab_parse_sizes("1,x", s, LAB_MAX_SIZES, why, sizeof why), -1);
    cr_assert_eq(lab_parse_sizes("1:2^40", s, 8, why, sizeof why), -1, "more sizes than fit");
}
