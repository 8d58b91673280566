/* options.c - ./run's option parser: every value checked before the GPU is looked for. */
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
    o.m = -1;
    o.seed = 2024;
    o.dist = "uniform";
    o.block = 256;
    o.tile = 1024;
    o.coarsen = 8;
    o.radix_bits = 4;
    o.op = "sum";
    o.type = "int";
    o.variant = "";
    o.local = "";
    o.gpus = 1;
    o.reps = 20;
    return o;
}

static int reason(char *why, size_t len, const char *fmt, const char *s)
{
    if (why != NULL)
        snprintf(why, len, fmt, s);
    return -1;
}

int lab_parse_size(const char *s, int64_t *value, char *why, size_t len)
{
    if (s == NULL || s[0] == '\0')
        return reason(why, len, "an empty size%s", "");
    if (s[0] == '-')
        return reason(why, len, "'%s' is negative: sizes are 0 or more", s);
    if (!isdigit((unsigned char)s[0]))
        return reason(why, len, "'%s' is not a number (write 1000, 2^24, 16M or 3k)", s);
    if (strchr(s, '.') != NULL)
        return reason(why, len, "'%s' is not a whole number of elements", s);
    if (strpbrk(s, "eE") != NULL)
        return reason(why, len, "'%s': exponent notation is not read (write 1000000, 2^20 or 1M)", s);
    char *end = NULL;
    errno = 0;
    const long long base = strtoll(s, &end, 10);
    if (errno != 0)
        return reason(why, len, "'%s' is too large", s);
    int64_t v = base;
    if (*end == '^') { /* 2^24 */
        char *e2 = NULL;
        const long exp = strtol(end + 1, &e2, 10);
        if (e2 == end + 1 || (*e2 != '\0' && *e2 != '+' && *e2 != '-') || exp < 0 || !isdigit((unsigned char)end[1]))
            return reason(why, len, "'%s' is not a power (write 2^24, or 2^24+3 for a size next to one)", s);
        v = 1;
        for (long i = 0; i < exp; i++) {
            if (base != 0 && v > INT64_MAX / base)
                return reason(why, len, "'%s' is too large", s);
            v *= base;
        }
        if (*e2 != '\0') { /* 2^20+3, 2^20-1: a size just off a power of two */
            char *e3 = NULL;
            const long long off = strtoll(e2 + 1, &e3, 10);
            if (e3 == e2 + 1 || *e3 != '\0' || !isdigit((unsigned char)e2[1]))
                return reason(why, len, "'%s' is not a power plus or minus a number (write 2^20+3)", s);
            if (*e2 == '-' && off > v)
                return reason(why, len, "'%s' is negative: sizes are 0 or more", s);
            if (*e2 == '+' && v > INT64_MAX - off)
                return reason(why, len, "'%s' is too large", s);
            v = *e2 == '+' ? v + off : v - off;
        }
    } else {
        int64_t scale = 1;
        if (*end == 'k' || *end == 'K')
            scale = 1000, end++;
        else if (*end == 'M')
            scale = (int64_t)1 << 20, end++;
        else if (*end == 'G')
            scale = (int64_t)1 << 30, end++;
        if (*end != '\0')
            return reason(why, len, "'%s' is not a number (write 1000, 2^24, 16M or 3k)", s);
        if (base > INT64_MAX / scale)
            return reason(why, len, "'%s' is too large", s);
        v = (int64_t)base * scale;
    }
    *value = v;
    return 0;
}

int lab_parse_sizes(const char *s, int64_t *sizes, int max, char *why, size_t len)
{
    char buf[512];
    if (strlen(s) >= sizeof buf)
        return reason(why, len, "the size list '%.40s...' is too long", s);
    strcpy(buf, s);
    char *colon = strchr(buf, ':');
    if (colon != NULL) { /* a:b -> a, 2a, 4a, ... <= b */
        *colon = '\0';
        int64_t lo = 0, hi = 0;
        if (lab_parse_size(buf, &lo, why, len) != 0 || lab_parse_size(colon + 1, &hi, why, len) != 0)
            return -1;
        if (lo == 0)
            return reason(why, len, "the sweep '%s' starts at 0: a sweep doubles its first size", s);
        if (hi < lo)
            return reason(why, len, "the sweep '%s' runs downward: write the smaller size first", s);
        int n = 0;
        for (int64_t v = lo; v <= hi; v *= 2) {
            if (n == max)
                return reason(why, len, "the sweep '%s' has more sizes than ./run takes at once", s);
            sizes[n++] = v;
        }
        return n;
    }
    int n = 0;
    for (char *tok = strtok(buf, ","); tok != NULL; tok = strtok(NULL, ",")) {
        if (n == max)
            return reason(why, len, "the list '%s' has more sizes than ./run takes at once", s);
        if (lab_parse_size(tok, &sizes[n], why, len) != 0)
            return -1;
        n++;
    }
    return n > 0 ? n : reason(why, len, "an empty size list%s", "");
}

int lab_name_in(const char *name, const char *const *list)
{
    for (int i = 0; list != NULL && list[i] != NULL; i++)
        if (strcmp(name, list[i]) == 0)
            return 1;
    return 0;
}

const char *lab_names_text(const char *const *list, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; list != NULL && list[i] != NULL && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i == 0 ? "" : list[i + 1] == NULL ? " or " : ", ", list[i]);
    return buf;
}

/* ---- --help: only this step's options, with the defaults it starts from ---- */

static void usage(const lab_opts *o, const lab_opt_spec *spec, const char *step)
{
    const unsigned has = spec->options;
    char names[256];
    printf("usage: ./run [options]    (step: %s)\n"
           "Runs the step on a fresh random input, checks every output element against the\n"
           "CPU reference, prints PASS/FAIL, the median kernel time and the effective\n"
           "bandwidth. Exit status: 0 PASS, 1 FAIL, 2 bad usage, 3 no GPU, 4 CUDA error.\n\n",
           step);
    if (spec->about != NULL && spec->about[0] != '\0')
        printf("%s\n", spec->about);
    printf("  -n, --size N     elements (2^24, 16M, 3k and plain numbers); a list 1000,2^20 or a\n"
           "                   sweep 2^10:2^20 (powers of two) runs each in turn (default %lld)\n",
           (long long)o->size);
    printf("  --seed S         random seed, printed with every result (default %llu)\n", (unsigned long long)o->seed);
    if (has & LAB_OPT_M)
        printf("  --m M            elements of A (default: half of -n)\n");
    if (has & LAB_OPT_DIST)
        printf("  --dist D         input distribution: %s (default %s)\n", lab_names_text(spec->dists, names, sizeof names), o->dist);
    if (has & LAB_OPT_TYPE)
        printf("  --type T         element type: %s (default %s)\n", lab_names_text(spec->types, names, sizeof names), o->type);
    if (has & LAB_OPT_OP)
        printf("  --op OP          operator: %s (default %s)\n", lab_names_text(spec->ops, names, sizeof names), o->op);
    if (has & LAB_OPT_BLOCK)
        printf("  --block B        threads per block, 1 to 1024 (default %d)\n", o->block);
    if (has & LAB_OPT_GRID)
        printf("  --grid G         blocks, 0 = derived from the size (default %d)\n", o->grid);
    if (has & LAB_OPT_TILE)
        printf("  --tile T         elements per shared-memory tile (default %d)\n", o->tile);
    if (has & LAB_OPT_COARSEN)
        printf("  --coarsen C      elements per thread (default %d)\n", o->coarsen);
    if (has & LAB_OPT_BITS)
        printf("  --bits R         radix digit width in bits, 1 to %d (default %d)\n", spec->max_bits, o->radix_bits);
    if (has & LAB_OPT_VARIANT)
        printf("  --variant V      %s (default %s)\n", lab_names_text(spec->variants, names, sizeof names),
               o->variant[0] != '\0' ? o->variant : "each in turn");
    if (has & LAB_OPT_KEYS_ONLY)
        printf("  --keys-only      sort keys without values\n");
    if (has & LAB_OPT_GPUS)
        printf("  --gpus G         GPUs driven by this one process (default %d)\n", o->gpus);
    if (has & LAB_OPT_LOCAL)
        printf("  --local L        the local sort: %s (default %s)\n", lab_names_text(spec->locals, names, sizeof names), o->local);
    if (has & LAB_OPT_PRINTED)
        printf("  --printed        run the code exactly as printed (known bugs; see docs/errata.md)\n");
    if (has & LAB_OPT_EXAMPLE)
        printf("  --example        replay the book's worked example with a trace\n");
    if (has & LAB_OPT_ANALYZE)
        printf("  --analyze        instrumented counts beside the book's analysis\n");
    printf("  --reps R         timed repetitions, median reported (default %d)\n"
           "  --csv            one machine-readable line per run\n"
           "  -q, --quiet      no per-element mismatch lines\n"
           "  -h, --help       this text\n",
           o->reps);
}

/* ---- parsing ---------------------------------------------------------------- */

static void bad(const char *step, const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "%s: ", step);
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, " (./run --help lists this step's options)\n");
    exit(LAB_EXIT_USAGE);
}

/* A whole number lo..hi for opt (hi 0: no upper limit). */
static int need_int(const char *step, const char *opt, const char *arg, int64_t lo, int64_t hi)
{
    int64_t v = 0;
    char why[160], range[96];
    if (arg[0] == '-' && isdigit((unsigned char)arg[1])) {
        snprintf(why, sizeof why, "'%s' is negative", arg);
    } else if (lab_parse_size(arg, &v, why, sizeof why) == 0) {
        if (v >= lo && (hi == 0 || v <= hi))
            return (int)v;
        snprintf(why, sizeof why, "%lld is out of range", (long long)v);
    }
    if (hi == 0)
        snprintf(range, sizeof range, "%lld or more", (long long)lo);
    else
        snprintf(range, sizeof range, "%lld to %lld", (long long)lo, (long long)hi);
    fprintf(stderr, "%s: %s takes %s: %s (./run --help lists this step's options)\n", step, opt, range, why);
    exit(LAB_EXIT_USAGE);
}

static const char *need_name(const char *step, const char *opt, const char *arg, const char *const *list)
{
    char names[256];
    if (!lab_name_in(arg, list)) {
        fprintf(stderr, "%s: %s '%s' is not one of: %s (./run --help lists this step's options)\n", step, opt, arg,
                lab_names_text(list, names, sizeof names));
        exit(LAB_EXIT_USAGE);
    }
    return arg;
}

/* The options a step may refuse, by name: for "this step does not take --x". */
static const struct {
    const char *name;
    unsigned bit;
    int takes_value;
} known[] = {
    {"--m", LAB_OPT_M, 1},           {"--dist", LAB_OPT_DIST, 1},       {"--block", LAB_OPT_BLOCK, 1},
    {"--grid", LAB_OPT_GRID, 1},     {"--tile", LAB_OPT_TILE, 1},       {"--coarsen", LAB_OPT_COARSEN, 1},
    {"--bits", LAB_OPT_BITS, 1},     {"--op", LAB_OPT_OP, 1},           {"--type", LAB_OPT_TYPE, 1},
    {"--variant", LAB_OPT_VARIANT, 1}, {"--printed", LAB_OPT_PRINTED, 0}, {"--example", LAB_OPT_EXAMPLE, 0},
    {"--analyze", LAB_OPT_ANALYZE, 0}, {"--keys-only", LAB_OPT_KEYS_ONLY, 0}, {"--gpus", LAB_OPT_GPUS, 1},
    {"--local", LAB_OPT_LOCAL, 1},
};

void lab_parse_opts(int argc, char **argv, lab_opts *o, const lab_opt_spec *spec, const char *step)
{
    const int64_t max_n = spec->max_n > 0 ? spec->max_n : INT64_MAX;
    char why[200];
    for (int a = 1; a < argc; a++) {
        const char *opt = argv[a];
        if (strcmp(opt, "-h") == 0 || strcmp(opt, "--help") == 0) {
            usage(o, spec, step);
            exit(LAB_EXIT_PASS);
        }
        unsigned bit = 0;
        int takes_value = strcmp(opt, "-n") == 0 || strcmp(opt, "--size") == 0 || strcmp(opt, "--seed") == 0 ||
                          strcmp(opt, "--reps") == 0;
        int is_known = takes_value || strcmp(opt, "--csv") == 0 || strcmp(opt, "-q") == 0 || strcmp(opt, "--quiet") == 0;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            if (strcmp(opt, known[k].name) == 0)
                bit = known[k].bit, takes_value = known[k].takes_value, is_known = 1;
        if (!is_known)
            bad(step, "unknown option '%s'%s", opt, "");
        if (bit != 0 && !(spec->options & bit))
            bad(step, "this step does not take %s%s", opt, "");
        const char *arg = NULL;
        if (takes_value) {
            if (a + 1 >= argc)
                bad(step, "%s needs a value%s", opt, "");
            arg = argv[++a];
        }
        if (strcmp(opt, "-n") == 0 || strcmp(opt, "--size") == 0) {
            o->nsizes = lab_parse_sizes(arg, o->sizes, LAB_MAX_SIZES, why, sizeof why);
            if (o->nsizes < 1)
                bad(step, "-n: %s%s", why, "");
            for (int s = 0; s < o->nsizes; s++)
                if (o->sizes[s] > max_n) {
                    fprintf(stderr, "%s: -n: %lld is above this step's largest size, %lld (./run --help)\n", step,
                            (long long)o->sizes[s], (long long)max_n);
                    exit(LAB_EXIT_USAGE);
                }
            o->size = o->sizes[0];
        } else if (strcmp(opt, "--seed") == 0) {
            int64_t v = 0;
            if (lab_parse_size(arg, &v, why, sizeof why) != 0)
                bad(step, "--seed: %s%s", why, "");
            o->seed = (uint64_t)v;
        } else if (strcmp(opt, "--reps") == 0) {
            o->reps = need_int(step, opt, arg, 1, 1000000);
        } else if (strcmp(opt, "--csv") == 0) {
            o->csv = 1;
        } else if (strcmp(opt, "-q") == 0 || strcmp(opt, "--quiet") == 0) {
            o->quiet = 1;
        } else if (bit == LAB_OPT_M) {
            int64_t v = 0;
            if (lab_parse_size(arg, &v, why, sizeof why) != 0)
                bad(step, "--m: %s%s", why, "");
            o->m = v;
        } else if (bit == LAB_OPT_DIST) {
            o->dist = need_name(step, opt, arg, spec->dists);
        } else if (bit == LAB_OPT_TYPE) {
            o->type = need_name(step, opt, arg, spec->types);
        } else if (bit == LAB_OPT_OP) {
            o->op = need_name(step, opt, arg, spec->ops);
        } else if (bit == LAB_OPT_VARIANT) {
            o->variant = need_name(step, opt, arg, spec->variants);
        } else if (bit == LAB_OPT_LOCAL) {
            o->local = need_name(step, opt, arg, spec->locals);
        } else if (bit == LAB_OPT_BLOCK) {
            o->block = need_int(step, opt, arg, 1, 1024);
        } else if (bit == LAB_OPT_GRID) {
            o->grid = need_int(step, opt, arg, 0, 2147483647LL);
        } else if (bit == LAB_OPT_TILE) {
            o->tile = need_int(step, opt, arg, 1, 1 << 24);
        } else if (bit == LAB_OPT_COARSEN) {
            o->coarsen = need_int(step, opt, arg, 1, spec->max_coarsen > 0 ? spec->max_coarsen : 1 << 20);
        } else if (bit == LAB_OPT_BITS) {
            o->radix_bits = need_int(step, opt, arg, 1, spec->max_bits > 0 ? spec->max_bits : 32);
        } else if (bit == LAB_OPT_GPUS) {
            o->gpus = need_int(step, opt, arg, 1, 1024);
        } else if (bit == LAB_OPT_PRINTED) {
            o->printed = 1;
        } else if (bit == LAB_OPT_EXAMPLE) {
            o->example = 1;
        } else if (bit == LAB_OPT_ANALYZE) {
            o->analyze = 1;
        } else if (bit == LAB_OPT_KEYS_ONLY) {
            o->keys_only = 1;
        }
    }
}
