/* sort_driver.c - ./run for every ch13 step: sorts fresh (key, value) pairs on
 * the GPU, the value of each key being its input index, and checks keys and
 * values against the stable CPU reference, so a tie broken the wrong way
 * shows; then times the sort (device work only: temporaries are allocated
 * once, outside the timing). --type int|float sorts through sort.h's
 * order-preserving transform. --example replays Figs 13.1-13.3 for step 1. */
#include <stdio.h>
#include <string.h>

#include "devmem.h"
#include "options.h"
#include "report.h"
#include "scan.h"
#include "sort.h"

/* Only step 1 defines the per-iteration launcher; elsewhere it is NULL. */
#pragma weak radix_sort_iter_launch

static const unsigned int book_keys[16] = {12, 3, 6, 9, 15, 8, 5, 10, 9, 6, 11, 13, 4, 10, 7, 0};

static void print_row(const char *name, const unsigned int *x, int n, int binary)
{
    printf("  %-12s", name);
    for (int i = 0; i < n; i++) {
        if (x[i] == 0xA5A5A5A5u) /* poison: nothing was written there */
            printf("    ?");
        else if (binary)
            printf(" %u%u%u%u", (x[i] >> 3) & 1, (x[i] >> 2) & 1, (x[i] >> 1) & 1, x[i] & 1);
        else
            printf(" %4u", x[i]);
    }
    printf("\n");
}

/* Figs 13.1-13.3: sixteen 4-bit keys, four iterations of Fig 13.4 with four
 * blocks of four threads; each row comes from the GPU: ones before from the
 * scanned bits array, each key's destination from where its value landed. */
static int run_example_step1(const sort_params *given)
{
    const int N = 16;
    sort_params p = *given;
    p.block = 4;
    unsigned int index[16], keys[16], bits[17], bit[16], dest[16], want[16], out_k[16], out_v[16];
    for (int i = 0; i < N; i++)
        index[i] = (unsigned int)i, keys[i] = book_keys[i];
    printf("Book example (Figs 13.1-13.3): sixteen 4-bit keys, one bit per iteration, four blocks of four threads%s.\n",
           p.printed ? ", destination of a one as printed (--printed)" : "");
    unsigned int *in_k = (unsigned int *)lab_dev_upload(keys, sizeof keys);
    unsigned int *in_v = (unsigned int *)lab_dev_upload(index, sizeof index);
    unsigned int *o_k = (unsigned int *)lab_dev_poisoned(sizeof keys), *o_v = (unsigned int *)lab_dev_poisoned(sizeof keys);
    unsigned int *bits_d = (unsigned int *)lab_dev_poisoned(sizeof bits);
    void *scan_temp = lab_dev_poisoned(scan_temp_bytes(N) + 4);
    int ok = 1;
    for (unsigned int iter = 0; iter < 4; iter++) {
        lab_poison_device(o_k, sizeof keys);
        lab_poison_device(o_v, sizeof keys);
        const char *why = radix_sort_iter_launch(in_k, in_v, o_k, o_v, bits_d, N, iter, scan_temp, &p);
        if (why != NULL) {
            fprintf(stderr, "./run: cannot run the example: %s\n", why);
            return LAB_EXIT_USAGE;
        }
        lab_dev_download(bits, bits_d, sizeof bits);
        lab_dev_download(out_k, o_k, sizeof out_k);
        lab_dev_download(out_v, o_v, sizeof out_v);
        /* the stable split on the CPU: zeros in order, then ones in order */
        int zeros = 0, at = 0;
        for (int i = 0; i < N; i++)
            zeros += ((keys[i] >> iter) & 1) == 0;
        for (int i = 0, z = 0, o = zeros; i < N; i++)
            want[i] = ((keys[i] >> iter) & 1) == 0 ? (unsigned int)z++ : (unsigned int)o++;
        for (int i = 0; i < N; i++) {
            bit[i] = bits[i + 1] - bits[i]; /* the scan's steps are the bits */
            dest[i] = 0xA5A5A5A5u;
        }
        for (int d = 0; d < N; d++)
            if (out_v[d] < (unsigned int)N)
                dest[out_v[d]] = (unsigned int)d; /* value = input index: key out_v[d] landed at d */
        printf("iteration %u (bit %u):\n", iter, iter);
        print_row("index", index, N, 0);
        print_row("key", keys, N, 1);
        print_row("bit", bit, N, 0);
        print_row("ones before", bits, N, 0);
        print_row("destination", dest, N, 0);
        printf("  ones in total (bits[N]) = %u\n", bits[N]);
        for (int i = 0; i < N; i++)
            if (dest[i] != want[i]) {
                if (at++ == 0)
                    printf("  WRONG destinations (expected):");
                printf(" key %d -> %u", i, want[i]);
            }
        if (at > 0)
            printf("\n");
        ok &= at == 0;
        print_row("output", out_k, N, 1);
        memcpy(keys, out_k, sizeof keys); /* the next iteration reads this one's output */
        lab_poison_device(in_k, sizeof keys);
        CUDA_CHECK(cudaMemcpy(in_k, o_k, sizeof keys, cudaMemcpyDeviceToDevice));
        CUDA_CHECK(cudaMemcpy(in_v, index, sizeof index, cudaMemcpyHostToDevice));
    }
    unsigned int sorted[16];
    memcpy(sorted, book_keys, sizeof sorted);
    sort_ref(sorted, NULL, N);
    ok &= memcmp(sorted, keys, sizeof keys) == 0;
    print_row("sorted", keys, N, 0);
    lab_dev_free(in_k), lab_dev_free(in_v), lab_dev_free(o_k), lab_dev_free(o_v), lab_dev_free(bits_d), lab_dev_free(scan_temp);
    printf("%s example\n", ok ? "PASS" : "FAIL");
    if (!ok)
        lab_print_todo_hint();
    return ok ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

/* Other steps: the same sixteen keys through the whole sort, with their input indices as values. */
static int run_example_sort(const sort_params *p)
{
    const int N = 16;
    unsigned int index[16], want_k[16], want_v[16], got_k[16], got_v[16];
    for (int i = 0; i < N; i++)
        index[i] = want_v[i] = (unsigned int)i, want_k[i] = book_keys[i];
    sort_ref(want_k, want_v, N);
    printf("Book example (Fig 13.1's sixteen keys), sorted whole by this step; values are input indices.\n");
    unsigned int *k_d = (unsigned int *)lab_dev_upload(book_keys, sizeof book_keys);
    unsigned int *v_d = (unsigned int *)lab_dev_upload(index, sizeof index);
    unsigned int *ok_d = (unsigned int *)lab_dev_poisoned(sizeof got_k), *ov_d = (unsigned int *)lab_dev_poisoned(sizeof got_v);
    void *temp = lab_dev_poisoned(sort_temp_bytes(N, 1, p) + 4);
    const char *why = sort_launch(k_d, v_d, ok_d, ov_d, N, temp, p);
    if (why != NULL) {
        fprintf(stderr, "./run: cannot run the example: %s\n", why);
        return LAB_EXIT_USAGE;
    }
    lab_dev_download(got_k, ok_d, sizeof got_k);
    lab_dev_download(got_v, ov_d, sizeof got_v);
    print_row("input", book_keys, N, 0);
    print_row("keys", got_k, N, 0);
    print_row("values", got_v, N, 0);
    print_row("expected", want_k, N, 0);
    print_row("values", want_v, N, 0);
    const int ok = memcmp(got_k, want_k, sizeof got_k) == 0 && memcmp(got_v, want_v, sizeof got_v) == 0;
    lab_dev_free(k_d), lab_dev_free(v_d), lab_dev_free(ok_d), lab_dev_free(ov_d), lab_dev_free(temp);
    printf("%s example\n", ok ? "PASS" : "FAIL");
    if (!ok)
        lab_print_todo_hint();
    return ok ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}

typedef struct {
    const unsigned int *keys_in, *values_in;
    unsigned int *keys_out, *values_out;
    int64_t n;
    void *temp;
    const sort_params *p;
} work;

static void launch(void *ctx)
{
    const work *w = (const work *)ctx;
    sort_launch(w->keys_in, w->values_in, w->keys_out, w->values_out, w->n, w->temp, w->p);
}

static void describe(char *buf, size_t len, int step, const sort_params *p, const lab_opts *o, int with_values)
{
    int at = 0;
    switch (step) {
    case 1: at = snprintf(buf, len, "block=%d%s", p->block, p->printed ? " printed" : ""); break;
    case 2: at = snprintf(buf, len, "block=%d bits=1", p->block); break;
    case 3: at = snprintf(buf, len, "block=%d bits=%d", p->block, p->radix_bits); break;
    case 4: at = snprintf(buf, len, "block=%d coarsen=%d bits=%d tile=%d", p->block, p->coarsen, p->radix_bits, p->block * p->coarsen); break;
    case 5: at = snprintf(buf, len, "block=%d coarsen=%d tile=%d", p->block, p->coarsen, p->block * p->coarsen); break;
    default: at = snprintf(buf, len, "variant=%s block=%d tile=%d", p->variant, p->block, p->tile); break;
    }
    snprintf(buf + at, len - (size_t)at, " dist=%s type=%s %s", o->dist, o->type, with_values ? "pairs" : "keys");
}

static int run_size(const lab_opts *o, const sort_params *p, int step, int64_t n, sort_type type, int with_values)
{
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    unsigned int *in_k = (unsigned int *)lab_xmalloc(bytes), *index = (unsigned int *)lab_xmalloc(bytes);
    unsigned int *want_k = (unsigned int *)lab_xmalloc(bytes), *want_v = (unsigned int *)lab_xmalloc(bytes);
    unsigned int *got_k = (unsigned int *)lab_xmalloc(bytes), *got_v = (unsigned int *)lab_xmalloc(bytes);
    lab_rng rng = lab_rng_seeded(o->seed);
    sort_make_keys(o->dist, &rng, in_k, n, type); /* the type's own bits */
    for (int64_t i = 0; i < n; i++)
        index[i] = want_v[i] = (unsigned int)i;
    memcpy(want_k, in_k, bytes);
    sort_encode_keys(want_k, n, type);
    sort_ref(want_k, want_v, n);
    sort_decode_keys(want_k, n, type);

    sort_encode_keys(in_k, n, type); /* what the GPU sorts */
    work w = {(const unsigned int *)lab_dev_upload(in_k, bytes),
              with_values ? (const unsigned int *)lab_dev_upload(index, bytes) : NULL,
              (unsigned int *)lab_dev_poisoned(bytes), with_values ? (unsigned int *)lab_dev_poisoned(bytes) : NULL,
              n, NULL, p};
    w.temp = lab_dev_poisoned(sort_temp_bytes(n, with_values, p));
    const char *why = sort_launch(w.keys_in, w.values_in, w.keys_out, w.values_out, n, w.temp, p);
    if (why != NULL) {
        fprintf(stderr, "./run: cannot run n=%lld: %s\n", (long long)n, why);
        exit(LAB_EXIT_USAGE);
    }
    lab_dev_download(got_k, w.keys_out, bytes);
    if (with_values)
        lab_dev_download(got_v, w.values_out, bytes);
    sort_decode_keys(got_k, n, type);
    const int report = o->quiet || o->csv ? 0 : 10;
    const lab_mismatch mk = lab_compare_u32(got_k, want_k, n, "key", report);
    const lab_mismatch mv = with_values ? lab_compare_u32(got_v, want_v, n, "value (input index)", report) : (lab_mismatch){0, -1};
    int64_t where = -1;
    const int ordered = sort_is_ordered(got_k, n, type, &where);
    if (!ordered && report)
        printf("  keys out of order (as %s) at %lld\n", sort_type_name(type), (long long)where);
    if (mk.count == 0 && mv.count != 0 && report)
        printf("  keys right, values wrong: equal keys left their input order (the sort is not stable)\n");
    const lab_timing t = lab_time_device(launch, &w, o->reps);

    char params[256];
    describe(params, sizeof params, step, p, o, with_values);
    const int pass = mk.count == 0 && mv.count == 0 && ordered;
    /* the least a sort moves: read and write every key (and value) once */
    const lab_result r = {lab_step_name, params, n, 2.0 * (with_values ? 2 : 1) * (double)bytes, t, pass};
    lab_print_result(o, &r);
    if (!pass && !o->csv)
        lab_print_todo_hint();
    lab_dev_free((void *)w.keys_in), lab_dev_free(w.keys_out), lab_dev_free(w.temp);
    if (with_values)
        lab_dev_free((void *)w.values_in), lab_dev_free(w.values_out);
    free(in_k), free(index), free(want_k), free(want_v), free(got_k), free(got_v);
    return pass;
}

int main(int argc, char **argv)
{
    const int step = sort_step_number(lab_step_name);
    sort_params p = sort_default_params(step);
    int with_values = 1;
    for (int a = 1; a < argc; a++) /* --keys-only is this chapter's own option */
        if (strcmp(argv[a], "--keys-only") == 0) {
            with_values = 0;
            memmove(&argv[a], &argv[a + 1], sizeof(char *) * (size_t)(argc - a));
            argc--, a--;
        }
    lab_opts o = lab_opts_defaults();
    o.block = p.block, o.tile = p.tile, o.coarsen = p.coarsen, o.radix_bits = p.radix_bits, o.variant = p.variant;
    o.type = "uint";
    o.nsizes = 0; /* no -n: the step's default, below */
    char extra[1024];
    snprintf(extra, sizeof extra,
             "This step sorts n (key, value) pairs, value = the key's input index, and checks\n"
             "keys and values against a stable CPU sort (so stability is checked too).\n"
             "  --dist D       uniform sorted reverse few equal high (only the top 8 bits vary)\n"
             "  --type T       uint (default), int or float: the order-preserving transform (sort.h)\n"
             "  --keys-only    no values\n"
             "Defaults here: -n %s --block %d%s%s%s\n"
             "Step 1: --example replays Figs 13.1-13.3; --printed uses Fig 13.4's printed formula\n"
             "for the destination of a one (docs/errata.md). Step 6: --variant bitonic|odd-even.\n",
             step == 6 ? "65536 (bitonic), 4096 (odd-even)" : "2^24", p.block,
             step == 3 || step == 4 ? " --bits " : "", step == 3 ? "4" : step == 4 ? "8 --coarsen 16" : "",
             step == 5 ? " --coarsen 8" : step == 6 ? " --tile 2048 --variant bitonic" : "");
    lab_parse_opts(argc, argv, &o, lab_step_name, extra);
    p.block = o.block, p.tile = o.tile, p.coarsen = o.coarsen, p.radix_bits = o.radix_bits, p.variant = o.variant;
    p.printed = o.printed;
    if (o.nsizes == 0) {
        o.size = step == 6 ? (strcmp(o.variant, "odd-even") == 0 ? SORT_ODD_EVEN_MAX : 1 << 16) : 1 << 24;
        o.sizes[0] = o.size, o.nsizes = 1;
    }
    const int type = sort_type_of(o.type);
    if (type < 0) {
        fprintf(stderr, "./run: unknown --type %s (uint, int or float)\n", o.type);
        return LAB_EXIT_USAGE;
    }
    int known = 0;
    for (int d = 0; sort_dists[d] != NULL; d++)
        known |= strcmp(o.dist, sort_dists[d]) == 0;
    if (!known) {
        fprintf(stderr, "./run: unknown --dist %s (uniform sorted reverse few equal high)\n", o.dist);
        return LAB_EXIT_USAGE;
    }
    lab_require_gpu("./run");
    if (o.example)
        return radix_sort_iter_launch != NULL ? run_example_step1(&p) : run_example_sort(&p);
    int all_pass = 1;
    for (int s = 0; s < o.nsizes; s++)
        all_pass &= run_size(&o, &p, step, o.sizes[s], (sort_type)type, with_values);
    return all_pass ? LAB_EXIT_PASS : LAB_EXIT_FAIL;
}
