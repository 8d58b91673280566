/* options.c - ./run's option parser: every value checked before the GPU is looked for. */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

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

int lab_name_index(const char *name, const char *const *list)
{
    for (int i = 0; list != NULL && list[i] != NULL; i++)
        if (strcmp(name, list[i]) == 0)
            return i;
    return -1;
}

/* ---- --help: the step's options, each with the default it starts from ---- */

static void print_default(const lab_opt *o)
{
    switch (o->kind) {
    case LAB_ARG_INT: /* a start below lo is no value: the default is derived, and the help says how */
        if (*(const int *)o->at >= o->lo)
            printf(" (default %d)", *(const int *)o->at);
        break;
    case LAB_ARG_SIZE:
        if (*(const int64_t *)o->at >= o->lo)
            printf(" (default %lld)", (long long)*(const int64_t *)o->at);
        break;
    case LAB_ARG_NAME: {
        const char *v = *(const char *const *)o->at;
        printf(" (default %s)", v != NULL && v[0] != '\0' ? v : "each in turn");
        break;
    }
    case LAB_ARG_FLAG:
        break;
    }
}

static void usage(const lab_cli *cli, const lab_opt *opts, int nopts, const lab_run *run)
{
    char names[256], left[64];
    printf("usage: ./run [options]    (step: %s)\n"
           "Runs the step on a fresh random input, checks every output element against the\n"
           "CPU reference, prints PASS/FAIL, the median kernel time and the effective\n"
           "bandwidth. Exit status: 0 PASS, 1 FAIL, 2 bad usage, 3 no GPU, 4 CUDA error.\n\n",
           cli->step);
    if (cli->about != NULL && cli->about[0] != '\0')
        printf("%s\n", cli->about);
    printf("  -n, --size N     elements (2^24, 16M, 3k and plain numbers); a list 1000,2^20 or a\n"
           "                   sweep 2^10:2^20 (powers of two) runs each in turn (default %lld)\n",
           (long long)cli->default_n);
    printf("  --seed S         random seed, a whole number, printed with every result (default %llu)\n",
           (unsigned long long)run->seed);
    for (int i = 0; i < nopts; i++) {
        const lab_opt *o = &opts[i];
        if (o->at == NULL)
            continue;
        snprintf(left, sizeof left, "%s%s%s", o->name, o->kind == LAB_ARG_FLAG ? "" : " ",
                 o->kind == LAB_ARG_FLAG ? ""
                 : o->metavar != NULL    ? o->metavar
                                         : "X");
        printf("  %-16s %s", left, o->help != NULL ? o->help : "");
        if (o->kind == LAB_ARG_NAME)
            printf(": %s", lab_names_text(o->names, names, sizeof names));
        else if (o->kind == LAB_ARG_INT && o->hi > 0)
            printf(", %lld to %lld", (long long)o->lo, (long long)o->hi);
        print_default(o);
        printf("\n");
    }
    printf("  --reps R         timed runs; the median, least and most are reported (default %d)\n"
           "  --csv            one machine-readable line per run\n"
           "  --list-sizes     print the sizes -n names, one a line, and stop (for scripts)\n"
           "  -q, --quiet      no per-element mismatch lines\n"
           "  -h, --help       this text\n",
           run->reps);
}

/* ---- parsing ---------------------------------------------------------------- */

static void bad(const char *step, const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "%s: ", step);
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, " (./run --help lists this step's options)\n");
    exit(LAB_EXIT_USAGE);
}

/* A whole number lo..hi (hi 0: no upper limit) for opt, in the size syntax
 * (2^10, 4k); a value that is not one says so in the option's own words. */
static int64_t need_number(const char *step, const char *opt, const char *arg, int64_t lo, int64_t hi)
{
    int64_t v = 0;
    char why[160], range[96];
    if (arg[0] == '-' && isdigit((unsigned char)arg[1]))
        snprintf(why, sizeof why, "'%s' is negative", arg);
    else if (!isdigit((unsigned char)arg[0]))
        snprintf(why, sizeof why, "'%s' is not a whole number", arg);
    else if (lab_parse_size(arg, &v, why, sizeof why) == 0) {
        if (v >= lo && (hi == 0 || v <= hi))
            return v;
        snprintf(why, sizeof why, "%lld is out of range", (long long)v);
    }
    if (hi == 0)
        snprintf(range, sizeof range, "%lld or more", (long long)lo);
    else
        snprintf(range, sizeof range, "%lld to %lld", (long long)lo, (long long)hi);
    fprintf(stderr, "%s: %s takes %s: %s (./run --help lists this step's options)\n", step, opt, range, why);
    exit(LAB_EXIT_USAGE);
}

static void parse_n(const lab_cli *cli, const char *arg, lab_run *run)
{
    char why[200];
    run->nsizes = lab_parse_sizes(arg, run->sizes, LAB_MAX_SIZES, why, sizeof why);
    if (run->nsizes < 1)
        bad(cli->step, "-n: %s%s", why, "");
    for (int s = 0; s < run->nsizes; s++)
        if (cli->max_n > 0 && run->sizes[s] > cli->max_n) {
            fprintf(stderr, "%s: -n: %lld is above this step's largest size, %lld%s%s (./run --help)\n", cli->step,
                    (long long)run->sizes[s], (long long)cli->max_n, cli->max_n_why != NULL ? ": " : "",
                    cli->max_n_why != NULL ? cli->max_n_why : "");
            exit(LAB_EXIT_USAGE);
        }
    run->given_n = 1;
}

static void parse_seed(const lab_cli *cli, const char *arg, lab_run *run)
{
    char *end = NULL;
    errno = 0;
    const unsigned long long v = strtoull(arg, &end, 10);
    if (!isdigit((unsigned char)arg[0]) || *end != '\0' || errno != 0) {
        fprintf(stderr, "%s: --seed takes a whole number from 0 to %llu: '%s' is not one (./run --help)\n", cli->step,
                (unsigned long long)UINT64_MAX, arg);
        exit(LAB_EXIT_USAGE);
    }
    run->seed = (uint64_t)v;
}

/* A declared option's value into its place. */
static void take_value(const char *step, const lab_opt *o, const char *arg)
{
    char names[256];
    switch (o->kind) {
    case LAB_ARG_INT:
        *(int *)o->at = (int)need_number(step, o->name, arg, o->lo, o->hi > 0 ? o->hi : INT32_MAX);
        break;
    case LAB_ARG_SIZE:
        *(int64_t *)o->at = need_number(step, o->name, arg, o->lo, o->hi);
        break;
    case LAB_ARG_NAME:
        if (!lab_name_in(arg, o->names)) {
            fprintf(stderr, "%s: %s '%s' is not one of: %s (./run --help lists this step's options)\n", step, o->name,
                    arg, lab_names_text(o->names, names, sizeof names));
            exit(LAB_EXIT_USAGE);
        }
        *(const char **)o->at = arg;
        break;
    case LAB_ARG_FLAG:
        *(int *)o->at = 1;
        break;
    }
}

void lab_parse(int argc, char **argv, const lab_cli *cli, const lab_opt *opts, int nopts, lab_run *run)
{
    int list_sizes = 0;
    memset(run, 0, sizeof *run);
    run->seed = 2024;
    run->reps = cli->default_reps > 0 ? cli->default_reps : 20;
    for (int a = 1; a < argc; a++) {
        const char *opt = argv[a];
        if (strcmp(opt, "-h") == 0 || strcmp(opt, "--help") == 0) {
            usage(cli, opts, nopts, run);
            exit(LAB_EXIT_PASS);
        }
        if (strcmp(opt, "--csv") == 0) {
            run->csv = 1;
            continue;
        }
        if (strcmp(opt, "--list-sizes") == 0) { /* the sizes -n names, one a line: for scripts (make bench) */
            list_sizes = 1;
            continue;
        }
        if (strcmp(opt, "-q") == 0 || strcmp(opt, "--quiet") == 0) {
            run->quiet = 1;
            continue;
        }
        const lab_opt *o = NULL;
        for (int i = 0; i < nopts && o == NULL; i++)
            if (strcmp(opt, opts[i].name) == 0)
                o = &opts[i];
        const int core = strcmp(opt, "-n") == 0 || strcmp(opt, "--size") == 0 || strcmp(opt, "--seed") == 0 ||
                         strcmp(opt, "--reps") == 0;
        if (!core && o == NULL)
            bad(cli->step, "unknown option '%s'%s", opt, "");
        if (o != NULL && o->at == NULL)
            bad(cli->step, "this step does not take %s%s", opt, "");
        if (o != NULL && o->kind == LAB_ARG_FLAG) {
            take_value(cli->step, o, NULL);
            continue;
        }
        if (a + 1 >= argc)
            bad(cli->step, "%s needs a value%s", opt, "");
        const char *arg = argv[++a];
        if (o != NULL)
            take_value(cli->step, o, arg);
        else if (strcmp(opt, "--seed") == 0)
            parse_seed(cli, arg, run);
        else if (strcmp(opt, "--reps") == 0)
            run->reps = (int)need_number(cli->step, opt, arg, 1, 1000000);
        else
            parse_n(cli, arg, run);
    }
    if (run->nsizes == 0)
        run->sizes[0] = cli->default_n, run->nsizes = 1;
    run->list_sizes = list_sizes;
    if (!cli->sets_default_n)
        lab_list_sizes(run);
}

void lab_list_sizes(const lab_run *run)
{
    if (!run->list_sizes)
        return;
    for (int s = 0; s < run->nsizes; s++)
        printf("%lld\n", (long long)run->sizes[s]);
    exit(LAB_EXIT_PASS);
}
