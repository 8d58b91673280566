/* sortspeed.cu - tests/bench/harness/mergepath's candidates for ch13 step 8
 * beside cub::DeviceMergeSort, in one process on the same inputs. Each
 * candidate pairs a build for the block sort with a build for the merge passes
 * (cand.cu: the step's sort.cu with a tile shape and register bounds,
 * candidates.mk), the block sort's tile 2^k merge tiles (k > 0: k fewer merge
 * passes), optionally with the partition a warp a tile (+w) and the pairs
 * merge through one shared tile (+1t). Rows: the step as ./run runs it
 * (sort_run), CUB, every candidate, then the step and CUB again (the drift).
 *
 *   ./sortspeed [--sizes 26,24] [--only ROW,...] [--exclude ROW,...] [--seed S] [--no-breakdown]
 *
 * For every size: int keys (uniform), keys and pairs (value = input index),
 * timed with the lab's lab_time_device (L2 flushed, median); every output
 * checked (the step's pairs in O(n), every other output against them, CUB's
 * keys and values too). At the first size each row also gets its time split
 * into block sort, partitions and merges (events around each kernel, median of
 * 5). A START line names each candidate before it runs (run.sh reruns without
 * one that brought the process down). Exit 1 when an output is wrong, 3 with
 * no GPU. */
#include <string.h>

#include <cub/device/device_merge_sort.cuh>

#include "cand.h"
#include "candrun.h"
#include "cand_builds.h" /* CAND_BUILDS(X): candidates.mk's builds, made by the Makefile */
#include "devmem.h"
#include "report.h"
#include "sort_host.h"
#include "sortcheck.h"
#include "timing.h"

#define REPS             20

#define DECLARE_BUILD(b) extern const cand_build cand_build_info_##b;
CAND_BUILDS(DECLARE_BUILD)
#define BUILD_ROW(b) &cand_build_info_##b,
static const cand_build *const builds[] = {CAND_BUILDS(BUILD_ROW)};
#define NBUILDS (int)(sizeof builds / sizeof builds[0])

typedef struct {
    char label[48];     /* its row in candidates.mk's CAND_ROWS */
    int sort, merge;    /* the builds of the block sort and of the merge passes */
    int warp, one_tile; /* +w: the partition a warp a tile; +1t: the pairs merge through one shared tile */
} candidate;

static int build_index(const char *name, size_t len)
{
    for (int b = 0; b < NBUILDS; b++)
        if (strlen(builds[b]->name) == len && strncmp(builds[b]->name, name, len) == 0)
            return b;
    fprintf(stderr, "sortspeed: no build %.*s in candidates.mk\n", (int)len, name);
    exit(2);
}

/* A row of CAND_ROWS: BUILD or SORT>MERGE, then +w, +1t. */
static candidate parse_row(const char *row, size_t len)
{
    candidate c;
    memset(&c, 0, sizeof c);
    snprintf(c.label, sizeof c.label, "%.*s", (int)len, row);
    const char *plus = strchr(c.label, '+'), *gt = strchr(c.label, '>');
    const size_t names = plus != NULL ? (size_t)(plus - c.label) : strlen(c.label);
    c.sort = build_index(c.label, gt != NULL ? (size_t)(gt - c.label) : names);
    c.merge = gt != NULL ? build_index(gt + 1, names - (size_t)(gt + 1 - c.label)) : c.sort;
    c.warp = strstr(c.label, "+w") != NULL;
    c.one_tile = strstr(c.label, "+1t") != NULL;
    return c;
}

/* ---- the work: one sort of the uploaded keys (values NULL: keys only) ---------------------- */

typedef struct {
    int64_t n;
    const unsigned int *keys, *values, *index; /* values: index or NULL */
    const int *ikeys;                          /* CUB's view: the int keys */
    unsigned int *out, *out_v;
    int *iout;
    void *step_temp, *cub_temp;
    size_t cub_bytes;
    const cand_build *step; /* the step's build (sort_run) */
    cand_sort cs;           /* the candidate's sort: the same buffers, and its own */
    cudaEvent_t ev[CAND_MAX_EVENTS];
} work;

static void op_candidate(void *ctx)
{
    work *w = (work *)ctx;
    w->cs.values = w->values;
    cand_sort_run(&w->cs);
}

/* the floor of a pass: the keys (and values) copied once */
static void op_copy(void *ctx)
{
    work *w = (work *)ctx;
    const size_t bytes = sizeof(unsigned int) * (size_t)w->n;
    CUDA_CHECK(cudaMemcpyAsync(w->out, w->keys, bytes, cudaMemcpyDeviceToDevice, 0));
    if (w->values != NULL)
        CUDA_CHECK(cudaMemcpyAsync(w->out_v, w->values, bytes, cudaMemcpyDeviceToDevice, 0));
}

static void op_step(void *ctx)
{
    work *w = (work *)ctx;
    const sort_step *s = w->step->step;
    const char *why =
        sort_run(s, w->keys, w->values, w->out, w->values != NULL ? w->out_v : NULL, w->n, w->step_temp, &s->defaults);
    if (why != NULL) {
        fprintf(stderr, "sort_run refused: %s\n", why);
        exit(1);
    }
}

static void op_cub(void *ctx)
{
    work *w = (work *)ctx; /* cub_temp NULL: sets cub_bytes */
    if (w->values == NULL)
        CUDA_CHECK(cub::DeviceMergeSort::SortKeysCopy(w->cub_temp, w->cub_bytes, w->ikeys, w->iout, w->n,
                                                      ::cuda::std::less<int>()));
    else
        CUDA_CHECK(cub::DeviceMergeSort::SortPairsCopy(w->cub_temp, w->cub_bytes, w->ikeys, w->values, w->iout,
                                                       w->out_v, w->n, ::cuda::std::less<int>()));
}

/* ---- one row: pairs, then keys, each timed and checked ------------------------------------- */

typedef struct {
    char name[48];
    int passes;
    double ms[2];       /* keys, pairs */
    double split[2][3]; /* keys, pairs: block sort, partitions, merges (ms) */
    int ok, has_split;
} row;

typedef struct {
    const unsigned int *keys; /* the encoded keys, host */
    unsigned int *got, *got_v, *ref, *ref_v;
    int have_ref;
} checker;

/* The output of the last run (cub: CUB's int keys, encoded here) against the reference:
 * the first pairs checked in O(n) become the reference. 1 when right. */
static int check(checker *k, work *w, int values, int cub, const char *name)
{
    const size_t bytes = sizeof(unsigned int) * (size_t)w->n;
    lab_dev_download(k->got, cub ? (const void *)w->iout : (const void *)w->out, bytes);
    if (cub)
        sort_encode_keys(k->got, w->n, SORT_INT);
    if (values)
        lab_dev_download(k->got_v, w->out_v, bytes);
    int ok = 1;
    if (values && !k->have_ref) {
        const int64_t at = sort_pairs_wrong_at(k->keys, w->n, k->got, k->got_v);
        if (at >= 0)
            printf("FAIL %s: pairs: out[%lld] wrong\n", name, (long long)at), ok = 0;
        memcpy(k->ref, k->got, bytes), memcpy(k->ref_v, k->got_v, bytes);
        k->have_ref = ok;
    } else if (!k->have_ref) {
        printf("FAIL %s: keys: no checked reference to compare with\n", name), ok = 0;
    } else if (memcmp(k->got, k->ref, bytes) != 0 || (values && memcmp(k->got_v, k->ref_v, bytes) != 0)) {
        printf("FAIL %s: %s differ from the checked sort\n", name, values ? "pairs" : "keys"), ok = 0;
    }
    lab_poison_device(cub ? (void *)w->iout : (void *)w->out, bytes);
    lab_poison_device(w->out_v, bytes);
    return ok;
}

/* kind: 0 the step (sort_run), 1 CUB, 2 the candidate in w->cs */
static row run_row(work *w, checker *k, int kind, const char *name, int split)
{
    row r;
    memset(&r, 0, sizeof r);
    snprintf(r.name, sizeof r.name, "%s", name);
    r.ok = 1;
    lab_work_fn op = kind == 0 ? op_step : kind == 1 ? op_cub : op_candidate;
    for (int values = 1; values >= 0; values--) {
        w->values = values ? w->index : NULL;
        r.ms[values] = lab_time_device(op, w, REPS).median_ms;
        r.ok &= check(k, w, values, kind == 1, name);
        if (kind == 2 && split) {
            w->cs.values = w->values;
            cand_breakdown(&w->cs, w->ev, r.split[values]);
            r.has_split = 1;
        }
    }
    r.passes = kind == 2   ? 1 + cand_merges(&w->cs)
               : kind == 0 ? w->step->step->sorts.passes(w->n, &w->step->step->defaults)
                           : 0;
    printf("ROW %-22s keys %8.4f ms  pairs %8.4f ms%s\n", r.name, r.ms[0], r.ms[1], r.ok ? "" : "  WRONG OUTPUT");
    fflush(stdout);
    return r;
}

/* label is in the comma-separated list (NULL: answer) */
static int listed(const char *list, const char *label, int answer)
{
    char all[1024], item[64];
    snprintf(all, sizeof all, ",%s,", list != NULL ? list : "");
    snprintf(item, sizeof item, ",%s,", label);
    return list == NULL ? answer : strstr(all, item) != NULL;
}

static void print_table(int log2n, const row *rows, int nrows, double cub_keys, double cub_pairs)
{
    printf("\n==== ch13 step 8 candidates, 2^%d int keys; x cub = cub::DeviceMergeSort's ms / this row's (same "
           "process, L2 flushed, median) ====\n",
           log2n);
    printf("%-22s %6s %9s %6s %9s %6s | %-21s | %-21s\n", "row", "passes", "keys ms", "x cub", "pairs ms", "x cub",
           "keys: sort part merge", "pairs: sort part merge");
    for (int i = 0; i < nrows; i++) {
        const row *r = &rows[i];
        char sk[32] = "", sp[32] = "";
        if (r->has_split) {
            snprintf(sk, sizeof sk, "%6.3f %6.3f %6.3f", r->split[0][0], r->split[0][1], r->split[0][2]);
            snprintf(sp, sizeof sp, "%6.3f %6.3f %6.3f", r->split[1][0], r->split[1][1], r->split[1][2]);
        }
        printf("%-22s %6d %9.4f %6.3f %9.4f %6.3f | %-21s | %-21s%s\n", r->name, r->passes, r->ms[0],
               cub_keys / r->ms[0], r->ms[1], cub_pairs / r->ms[1], sk, sp, r->ok ? "" : "  WRONG");
    }
}

/* Every row at 2^log2n; 1 when an output was wrong. */
static int run_size(int log2n, uint64_t seed, const candidate *cands, int ncands, int split)
{
    const int64_t n = (int64_t)1 << log2n;
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    unsigned int *raw = (unsigned int *)lab_xmalloc(bytes), *keys = (unsigned int *)lab_xmalloc(bytes);
    lab_rng rng = lab_rng_seeded(seed);
    sort_make_keys("uniform", &rng, raw, n, SORT_INT); /* the ints' bits */
    memcpy(keys, raw, bytes);
    sort_encode_keys(keys, n, SORT_INT);
    unsigned int *index = (unsigned int *)lab_xmalloc(bytes);
    for (int64_t i = 0; i < n; i++)
        index[i] = (unsigned int)i;
    work w;
    memset(&w, 0, sizeof w);
    w.n = n;
    w.step = builds[build_index("step", 4)]; /* the step as it is: sort.cu's own shape */
    w.keys = (const unsigned int *)lab_dev_upload(keys, bytes, "keys");
    w.ikeys = (const int *)lab_dev_upload(raw, bytes, "int keys");
    w.index = (const unsigned int *)lab_dev_upload(index, bytes, "values");
    w.out = (unsigned int *)lab_dev_poisoned(bytes, "keys_out");
    w.out_v = (unsigned int *)lab_dev_poisoned(bytes, "values_out");
    w.cs.n = n, w.cs.keys = w.keys, w.cs.out = w.out, w.cs.out_v = w.out_v;
    w.cs.alt = (unsigned int *)lab_dev_poisoned(bytes, "keys_alt");
    w.cs.alt_v = (unsigned int *)lab_dev_poisoned(bytes, "values_alt");
    w.iout = (int *)lab_dev_poisoned(bytes, "CUB keys_out");
    w.cs.part = (int *)lab_dev_poisoned(sizeof(int) * (size_t)(n / 64 + 2), "part"); /* tiles of 64 keys or more */
    w.step_temp = lab_dev_poisoned(sort_temp_bytes(w.step->step, n, 1, &w.step->step->defaults), "step temp");
    size_t cub_keys = 0, cub_pairs = 0;
    w.values = NULL, w.cub_temp = NULL, op_cub(&w), cub_keys = w.cub_bytes;
    w.values = w.index, w.cub_temp = NULL, op_cub(&w), cub_pairs = w.cub_bytes;
    w.cub_bytes = cub_keys > cub_pairs ? cub_keys : cub_pairs;
    w.cub_temp = lab_dev_poisoned(w.cub_bytes, "CUB temp");
    for (int e = 0; e < CAND_MAX_EVENTS; e++)
        CUDA_CHECK(cudaEventCreate(&w.ev[e]));
    checker k = {keys, NULL, NULL, NULL, NULL, 0};
    k.got = (unsigned int *)lab_xmalloc(bytes), k.got_v = (unsigned int *)lab_xmalloc(bytes);
    k.ref = (unsigned int *)lab_xmalloc(bytes), k.ref_v = (unsigned int *)lab_xmalloc(bytes);
    row *rows = (row *)lab_xmalloc(sizeof(row) * (size_t)(ncands + 4));
    int nrows = 0, wrong = 0;
    printf("\n== 2^%d int keys, seed %llu\n", log2n, (unsigned long long)seed);
    double copy[2]; /* keys, pairs: a pass's floor */
    for (int values = 0; values < 2; values++)
        w.values = values ? w.index : NULL, copy[values] = lab_time_device(op_copy, &w, REPS).median_ms;
    rows[nrows++] = run_row(&w, &k, 0, "step (sort_run)", 0);
    rows[nrows++] = run_row(&w, &k, 1, "cub", 0);
    for (int c = 0; c < ncands; c++) {
        w.cs.bs = builds[cands[c].sort], w.cs.mg = builds[cands[c].merge];
        w.cs.warp = cands[c].warp, w.cs.one_tile = cands[c].one_tile;
        printf("START %s\n", cands[c].label);
        fflush(stdout);
        rows[nrows++] = run_row(&w, &k, 2, cands[c].label, split);
    }
    rows[nrows++] = run_row(&w, &k, 0, "step again", 0);
    rows[nrows++] = run_row(&w, &k, 1, "cub again", 0);
    for (int i = 0; i < nrows; i++)
        wrong |= !rows[i].ok;
    print_table(log2n, rows, nrows, rows[1].ms[0], rows[1].ms[1]);
    printf("(cub again / cub: keys %.3f, pairs %.3f; step again / step: keys %.3f, pairs %.3f)\n",
           rows[nrows - 1].ms[0] / rows[1].ms[0], rows[nrows - 1].ms[1] / rows[1].ms[1],
           rows[nrows - 2].ms[0] / rows[0].ms[0], rows[nrows - 2].ms[1] / rows[0].ms[1]);
    printf("(a pass's floor, one device copy of the keys: %.4f ms; of keys and values: %.4f ms)\n", copy[0], copy[1]);
    for (int e = 0; e < CAND_MAX_EVENTS; e++)
        CUDA_CHECK(cudaEventDestroy(w.ev[e]));
    lab_dev_free((void *)w.keys), lab_dev_free((void *)w.ikeys), lab_dev_free((void *)w.index);
    lab_dev_free(w.out), lab_dev_free(w.out_v), lab_dev_free(w.cs.alt), lab_dev_free(w.cs.alt_v), lab_dev_free(w.iout);
    lab_dev_free(w.cs.part), lab_dev_free(w.step_temp), lab_dev_free(w.cub_temp);
    free(raw), free(keys), free(index), free(k.got), free(k.got_v), free(k.ref), free(k.ref_v), free(rows);
    return wrong;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1213;
    const char *sizes = "26,24";
    const char *only = NULL, *exclude = NULL;
    int split = 1;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--only") == 0 && a + 1 < argc)
            only = argv[++a];
        else if (strcmp(argv[a], "--exclude") == 0 && a + 1 < argc)
            exclude = argv[++a];
        else if (strcmp(argv[a], "--sizes") == 0 && a + 1 < argc)
            sizes = argv[++a];
        else if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--no-breakdown") == 0)
            split = 0;
        else {
            fprintf(stderr,
                    "usage: %s [--sizes 26,24] [--only ROW,...] [--exclude ROW,...] [--seed S] [--no-breakdown]\n",
                    argv[0]);
            return 2;
        }
    }
    lab_require_gpu("sortspeed");
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("sortspeed: %s, %d SMs; seed %llu\n", prop.name, prop.multiProcessorCount, (unsigned long long)seed);
    printf("\n==== builds (candidates.mk): kernel registers (r), blocks an SM (b), spilled bytes (+L) ====\n");
    int usable[NBUILDS];
    for (int b = 0; b < NBUILDS; b++) {
        char res[512];
        const char *why = builds[b]->fit(0);
        if (why == NULL && (why = builds[b]->fit(1)) == NULL)
            builds[b]->resources(res, sizeof res);
        usable[b] = why == NULL;
        printf("%-12s sort %4dx%-2d %5d merge %4dx%-2d %5d k%d p%d |%s%s\n", builds[b]->name, builds[b]->sort_threads,
               builds[b]->items, builds[b]->sort_tile, builds[b]->threads, builds[b]->items, builds[b]->tile,
               builds[b]->keys_blocks, builds[b]->pairs_blocks, usable[b] ? "" : " REFUSED: ", usable[b] ? res : why);
    }
    candidate cands[64];
    int ncands = 0;
    for (const char *at = CAND_ROWS; *at != '\0' && ncands < 64; at += *at == ' ') {
        const size_t len = strcspn(at, " ");
        const candidate c = parse_row(at, len);
        const int ratio = builds[c.sort]->sort_tile / builds[c.merge]->tile;
        at += len;
        if (builds[c.sort]->sort_tile % builds[c.merge]->tile != 0 || (ratio & (ratio - 1)) != 0)
            printf("SKIP %s: the block sort's tile is not 2^k merge tiles\n", c.label);
        else if (listed(only, c.label, 1) && !listed(exclude, c.label, 0) && usable[c.sort] && usable[c.merge])
            cands[ncands++] = c;
    }
    fflush(stdout);
    int wrong = 0;
    for (const char *s = sizes; *s != '\0';) {
        char *end;
        const long log2n = strtol(s, &end, 10);
        if (end == s || log2n < 10 || log2n > 30) {
            fprintf(stderr, "sortspeed: --sizes takes log2 sizes 10 to 30, comma-separated\n");
            return 2;
        }
        wrong |= run_size((int)log2n, seed + (uint64_t)log2n, cands, ncands, split && s == sizes);
        s = *end == ',' ? end + 1 : end;
    }
    printf("\nRESULT: %s\n", wrong ? "FAIL (see FAIL lines)" : "PASS (every output checked)");
    return wrong ? 1 : 0;
}
