/* options.c - option parsing shared by every chapter's ./run. */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

lab_opts lab_opts_defaults(void)
{
    lab_opts o;
    memset(&o, 0, sizeof o);
    o.size = (int64_t)1 << 24;
    o.sizes[0] = o.size;
    o.nsizes = 1;
    o.m = -1;
    o.seed = 2024;
    o.dist = "uniform";
    o.block = 256;
    o.grid = 0;
    o.tile = 1024;
    o.coarsen = 8;
    o.radix_bits = 4;
    o.op = "sum";
    o.type = "int";
    o.variant = "";
    o.reps = 20;
    return o;
}

int64_t lab_parse_size(const char *s)
{
    if (s == NULL || !isdigit((unsigned char)s[0]))
        return -1;
    char *end = NULL;
    errno = 0;
    const long long base = strtoll(s, &end, 10);
    if (errno != 0)
        return -1;
    if (*end == '^') { /* 2^24 */
        char *e2 = NULL;
        const long exp = strtol(end + 1, &e2, 10);
        if (*e2 != '\0' || exp < 0 || exp > 62 || base < 0)
            return -1;
        int64_t v = 1;
        for (long i = 0; i < exp; i++) {
            if (v > INT64_MAX / (base > 0 ? base : 1))
                return -1;
            v *= base;
        }
        return v;
    }
    int64_t scale = 1;
    if (*end == 'k' || *end == 'K')
        scale = 1000, end++;
    else if (*end == 'M')
        scale = (int64_t)1 << 20, end++;
    else if (*end == 'G')
        scale = (int64_t)1 << 30, end++;
    if (*end != '\0')
        return -1;
    return (int64_t)base * scale;
}

int lab_parse_sizes(const char *s, int64_t *sizes, int max)
{
    char buf[512];
    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    char *colon = strchr(buf, ':');
    if (colon != NULL) { /* a:b -> a, 2a, 4a, ... <= b */
        *colon = '\0';
        const int64_t lo = lab_parse_size(buf), hi = lab_parse_size(colon + 1);
        if (lo <= 0 || hi < lo)
            return -1;
        int n = 0;
        for (int64_t v = lo; v <= hi; v *= 2) {
            if (n == max)
                return -1;
            sizes[n++] = v;
        }
        return n;
    }
    int n = 0;
    for (char *tok = strtok(buf, ","); tok != NULL; tok = strtok(NULL, ",")) {
        const int64_t v = lab_parse_size(tok);
        if (v < 0 || n == max)
            return -1;
        sizes[n++] = v;
    }
    return n > 0 ? n : -1;
}

static void usage(const char *step, const char *extra)
{
    printf("usage: ./run [options]    (step: %s)\n"
           "Runs the step on a fresh random input, checks every output element against the\n"
           "CPU reference, prints PASS/FAIL, the median kernel time and the effective\n"
           "bandwidth. Exit status: 0 PASS, 1 FAIL, 2 bad usage, 3 no GPU, 4 CUDA error.\n\n"
           "  -n, --size N     total elements (2^24, 16M, 3k and plain numbers work); a list\n"
           "                   1000,2^20 or a sweep 2^10:2^28 (powers of two) runs each in turn\n"
           "  --seed S         random seed (printed with every result)\n"
           "  --dist D         input distribution (see below)\n"
           "  --block B        threads per block\n"
           "  --grid G         blocks (0 = derived from the size)\n"
           "  --tile T         elements per shared-memory tile\n"
           "  --coarsen C      elements per thread (thread coarsening)\n"
           "  --bits R         radix-sort digit width in bits\n"
           "  --op OP          reduction operator: sum, max, min\n"
           "  --type T         element type\n"
           "  --variant V      a step's alternative form\n"
           "  --reps R         timed repetitions (median reported)\n"
           "  --printed        run the code exactly as printed (known bugs; see docs/errata.md)\n"
           "  --example        replay the book's worked example with a trace\n"
           "  --analyze        instrumented counts beside the book's analysis\n"
           "  --csv            one machine-readable line instead of the report\n"
           "  -q, --quiet      no per-element mismatch lines\n"
           "  -h, --help       this text\n",
           step);
    if (extra != NULL && extra[0] != '\0')
        printf("\n%s", extra);
}

static void bad(const char *step, const char *what, const char *arg)
{
    fprintf(stderr, "%s: %s '%s' (see ./run --help)\n", step, what, arg ? arg : "");
    exit(LAB_EXIT_USAGE);
}

static int64_t need_size(const char *step, const char *opt, const char *arg)
{
    const int64_t v = lab_parse_size(arg);
    if (v < 0)
        bad(step, "bad number for", opt);
    return v;
}

static int need_int(const char *step, const char *opt, const char *arg)
{
    const int64_t v = need_size(step, opt, arg);
    if (v > 0x7fffffff)
        bad(step, "number too large for", opt);
    return (int)v;
}

void lab_parse_opts(int argc, char **argv, lab_opts *o, const char *step, const char *extra_help)
{
    for (int a = 1; a < argc; a++) {
        const char *opt = argv[a];
        const char *arg = a + 1 < argc ? argv[a + 1] : NULL;
#define TAKES(name) (strcmp(opt, name) == 0 && (arg != NULL || (bad(step, "missing value for", opt), 0)) && ++a)
        if (strcmp(opt, "-h") == 0 || strcmp(opt, "--help") == 0) {
            usage(step, extra_help);
            exit(LAB_EXIT_PASS);
        } else if (TAKES("-n") || TAKES("--size")) {
            o->nsizes = lab_parse_sizes(arg, o->sizes, LAB_MAX_SIZES);
            if (o->nsizes < 1)
                bad(step, "bad size list for", opt);
            o->size = o->sizes[0];
        } else if (TAKES("--m")) {
            o->m = need_size(step, opt, arg);
        } else if (TAKES("--seed")) {
            o->seed = (uint64_t)need_size(step, opt, arg);
        } else if (TAKES("--dist")) {
            o->dist = arg;
        } else if (TAKES("--block")) {
            o->block = need_int(step, opt, arg);
        } else if (TAKES("--grid")) {
            o->grid = need_int(step, opt, arg);
        } else if (TAKES("--tile")) {
            o->tile = need_int(step, opt, arg);
        } else if (TAKES("--coarsen")) {
            o->coarsen = need_int(step, opt, arg);
        } else if (TAKES("--bits")) {
            o->radix_bits = need_int(step, opt, arg);
        } else if (TAKES("--op")) {
            o->op = arg;
        } else if (TAKES("--type")) {
            o->type = arg;
        } else if (TAKES("--variant")) {
            o->variant = arg;
        } else if (TAKES("--reps")) {
            o->reps = need_int(step, opt, arg);
        } else if (strcmp(opt, "--printed") == 0) {
            o->printed = 1;
        } else if (strcmp(opt, "--example") == 0) {
            o->example = 1;
        } else if (strcmp(opt, "--analyze") == 0) {
            o->analyze = 1;
        } else if (strcmp(opt, "--csv") == 0) {
            o->csv = 1;
        } else if (strcmp(opt, "-q") == 0 || strcmp(opt, "--quiet") == 0) {
            o->quiet = 1;
        } else {
            bad(step, "unknown option", opt);
        }
#undef TAKES
    }
    if (o->reps < 1)
        bad(step, "--reps must be at least 1, got", "0");
}
