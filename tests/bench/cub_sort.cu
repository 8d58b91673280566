/* cub_sort.cu - chapter 13's baselines for `make bench`: --variant radix runs
 * cub::DeviceRadixSort::SortKeys (SortPairs with values), --variant merge runs
 * cub::DeviceMergeSort::SortKeysCopy (SortPairsCopy) with a less-than functor,
 * on uint or int keys from sort_make_keys (./run's generator), values = input
 * indices as in sort_driver.c; the item count as an int (CUB's 32-bit
 * offsets, as its examples pass it), or with --offsets 64 as an int64_t:
 * CUB tunes each form apart, and on an H200 the 64-bit form sorts keys faster
 * and pairs slower. --bits B cuts the keys to their low B bits and sorts on
 * those (a chunk of step 9 with its lower splitter taken off); --digits 10
 * runs CUB's own onesweep kernels with 10-bit digits where CUB takes 8 (three
 * passes over 30 bits, not four), in a policy of ours (onesweep_10): what
 * sorting fewer bits would gain step 9. Both leave the input unchanged, as the lab's
 * sort_launch does, so every timed run sorts the same unsorted input.
 * Checked in O(n): keys in order, and keys-only: the same multiset of keys;
 * pairs: every value a distinct input index whose key landed with it.
 * Effective bytes, as sort_driver.c counts: keys (and values) read once and
 * written once: 8 bytes per key, 16 per pair. */
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include "bench_tool.h"
#include "sort_ref.h"

/* CUB's onesweep with 10-bit digits (keys only, 64-bit count): 256 threads x 40 keys a tile, the
 * fastest such tile of those that fit CUB's 48 KB of static shared memory on an H200 (19, 30 and
 * 40 keys a thread at 256 threads; 320 threads or 11-bit digits do not fit). The other policies
 * are CUB's sm_90 ones: the dispatch names them, the onesweep path does not run them. */
struct onesweep_10 {
    struct Policy900 : cub::ChainedPolicy<900, Policy900, Policy900> {
        typedef unsigned int K;
        static constexpr bool ONESWEEP = true;
        static constexpr int ONESWEEP_RADIX_BITS = 10;
        using HistogramPolicy = cub::AgentRadixSortHistogramPolicy<128, 16, 1, K, 10>;
        using ExclusiveSumPolicy = cub::AgentRadixSortExclusiveSumPolicy<256, 10>;
        using OnesweepPolicy =
            cub::AgentRadixSortOnesweepPolicy<256, 40, K, 1, cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
                                              cub::BLOCK_SCAN_RAKING_MEMOIZE, cub::RADIX_SORT_STORE_DIRECT, 10>;
        using ScanPolicy =
            cub::AgentScanPolicy<512, 23, unsigned long long, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT,
                                 cub::BLOCK_STORE_WARP_TRANSPOSE, cub::BLOCK_SCAN_RAKING_MEMOIZE>;
        using DownsweepPolicy =
            cub::AgentRadixSortDownsweepPolicy<512, 23, K, cub::BLOCK_LOAD_TRANSPOSE, cub::LOAD_DEFAULT,
                                               cub::RADIX_RANK_MATCH, cub::BLOCK_SCAN_WARP_SCANS, 7>;
        using AltDownsweepPolicy =
            cub::AgentRadixSortDownsweepPolicy<256, 47, K, cub::BLOCK_LOAD_TRANSPOSE, cub::LOAD_DEFAULT,
                                               cub::RADIX_RANK_MEMOIZE, cub::BLOCK_SCAN_WARP_SCANS, 6>;
        using UpsweepPolicy = cub::AgentRadixSortUpsweepPolicy<256, 23, K, cub::LOAD_DEFAULT, 7>;
        using AltUpsweepPolicy = cub::AgentRadixSortUpsweepPolicy<256, 47, K, cub::LOAD_DEFAULT, 6>;
        using SingleTilePolicy =
            cub::AgentRadixSortDownsweepPolicy<256, 19, K, cub::BLOCK_LOAD_DIRECT, cub::LOAD_LDG,
                                               cub::RADIX_RANK_MEMOIZE, cub::BLOCK_SCAN_WARP_SCANS, 6>;
        using SegmentedPolicy =
            cub::AgentRadixSortDownsweepPolicy<192, 39, K, cub::BLOCK_LOAD_TRANSPOSE, cub::LOAD_DEFAULT,
                                               cub::RADIX_RANK_MEMOIZE, cub::BLOCK_SCAN_WARP_SCANS, 6>;
        using AltSegmentedPolicy =
            cub::AgentRadixSortDownsweepPolicy<384, 11, K, cub::BLOCK_LOAD_TRANSPOSE, cub::LOAD_DEFAULT,
                                               cub::RADIX_RANK_MEMOIZE, cub::BLOCK_SCAN_WARP_SCANS, 5>;
    };
    using MaxPolicy = Policy900;
};

template <typename T> struct less_than {
    __device__ bool operator()(const T &a, const T &b) const
    {
        return a < b;
    }
};

/* The tool's own options (its --dist, --type, --variant, --keys-only). */
typedef struct {
    const char *dist, *type, *variant, *offsets, *digits;
    int keys_only, bits;
} args;

typedef struct {
    void *temp;
    size_t temp_bytes;
    const unsigned int *keys_in, *values_in; /* values_in NULL: keys only */
    unsigned int *keys_out, *values_out;
    int64_t n;
    int wide;  /* 1: CUB's 64-bit offsets (--offsets 64) */
    int merge; /* 0: radix sort, 1: merge sort */
    int bits;  /* the radix sort's end bit (--bits) */
    int ten;   /* 1: onesweep_10 (--digits 10) */
    sort_type type;
} work;

template <typename T> static cudaError_t sort_typed(const work *w, void *temp, size_t &bytes)
{
    const T *ki = (const T *)w->keys_in;
    T *ko = (T *)w->keys_out;
    const int n = (int)w->n;
    if (w->merge && w->values_in != NULL)
        return cub::DeviceMergeSort::SortPairsCopy(temp, bytes, ki, w->values_in, ko, w->values_out, n, less_than<T>());
    if (w->merge)
        return cub::DeviceMergeSort::SortKeysCopy(temp, bytes, ki, ko, n, less_than<T>());
    if (w->values_in != NULL)
        return w->wide ? cub::DeviceRadixSort::SortPairs(temp, bytes, ki, ko, w->values_in, w->values_out, w->n)
                       : cub::DeviceRadixSort::SortPairs(temp, bytes, ki, ko, w->values_in, w->values_out, n);
    if (w->ten) { /* as SortKeys does: its input kept, the sort ends in keys_out */
        cub::DoubleBuffer<T> dk(const_cast<T *>(ki), ko);
        cub::DoubleBuffer<cub::NullType> dv;
        return cub::DispatchRadixSort<cub::SortOrder::Ascending, T, cub::NullType, unsigned long long,
                                      cub::detail::identity_decomposer_t, onesweep_10>::Dispatch(temp, bytes, dk, dv,
                                                                                                 (unsigned long long)
                                                                                                     w->n,
                                                                                                 0, w->bits, false, 0);
    }
    return w->wide ? cub::DeviceRadixSort::SortKeys(temp, bytes, ki, ko, w->n, 0, w->bits)
                   : cub::DeviceRadixSort::SortKeys(temp, bytes, ki, ko, n, 0, w->bits);
}

/* temp == NULL: only sets bytes (CUB's size query). */
static cudaError_t sort_cub(const work *w, void *temp, size_t &bytes)
{
    return w->type == SORT_INT ? sort_typed<int>(w, temp, bytes) : sort_typed<unsigned int>(w, temp, bytes);
}

static void launch(void *ctx)
{
    const work *w = (const work *)ctx;
    size_t bytes = w->temp_bytes;
    CUDA_CHECK(sort_cub(w, w->temp, bytes));
}

/* NULL when keys_out/values_out are a sorted arrangement of the input; else why not. */
static const char *check(const unsigned int *keys_in, const unsigned int *keys_out, const unsigned int *values_out,
                         int64_t n, sort_type type)
{
    if (!sort_is_ordered(keys_out, n, type, NULL))
        return "keys out of order";
    if (values_out == NULL)
        return bench_fingerprint_equal(bench_fingerprint_of(keys_in, n), bench_fingerprint_of(keys_out, n))
                   ? NULL
                   : "the output keys are not the input keys";
    unsigned char *seen = (unsigned char *)calloc((size_t)n / 8 + 1, 1);
    const char *why = NULL;
    for (int64_t i = 0; i < n && why == NULL; i++) {
        const unsigned int v = values_out[i];
        if (v >= (unsigned int)n || (seen[v / 8] >> (v % 8) & 1))
            why = "a value is not an input index, or appears twice";
        else if (keys_in[v] != keys_out[i])
            why = "a value did not move with its key";
        else
            seen[v / 8] |= (unsigned char)(1u << (v % 8));
    }
    free(seen);
    return why;
}

static int run_size(const lab_run *run, int64_t n, const void *ctx)
{
    const args *a = (const args *)ctx;
    const int keys_only = a->keys_only;
    work w;
    memset(&w, 0, sizeof w);
    w.wide = strcmp(a->offsets, "64") == 0;
    w.merge = strcmp(a->variant, "merge") == 0;
    if (w.wide && w.merge) { /* its row would say offsets=64 of a sort given an int */
        fprintf(stderr, "cub_sort: --offsets 64 is DeviceRadixSort's (DeviceMergeSort is given an int here)\n");
        exit(LAB_EXIT_USAGE);
    }
    if (!w.wide)
        bench_check_size(n);
    else if (n < 1 || n >= (1LL << 32)) { /* values are 32-bit input indices */
        fprintf(stderr, "cub_sort: --offsets 64 takes n from 1 to 2^32 - 1 (got %lld)\n", (long long)n);
        exit(LAB_EXIT_USAGE);
    }
    w.n = n;
    w.bits = a->bits;
    w.ten = strcmp(a->digits, "10") == 0;
    if ((a->bits != 32 || w.ten) && (w.merge || !keys_only || !w.wide || strcmp(a->type, "uint") != 0)) {
        fprintf(stderr, "cub_sort: --bits and --digits 10 are for the radix sort of uint keys (--keys-only) with "
                        "--offsets 64\n");
        exit(LAB_EXIT_USAGE);
    }
    const int type = sort_type_of(a->type);
    if ((!w.merge && strcmp(a->variant, "radix") != 0) || (type != SORT_UINT && type != SORT_INT)) {
        fprintf(stderr, "cub_sort: --variant radix|merge and --type uint|int (got %s, %s)\n", a->variant, a->type);
        exit(LAB_EXIT_USAGE);
    }
    w.type = (sort_type)type;
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    unsigned int *keys = (unsigned int *)lab_xmalloc(bytes), *got_k = (unsigned int *)lab_xmalloc(bytes);
    unsigned int *got_v = keys_only ? NULL : (unsigned int *)lab_xmalloc(bytes);
    lab_rng rng = lab_rng_seeded(run->seed);
    if (sort_make_keys(a->dist, &rng, keys, n, w.type) != 0) {
        fprintf(stderr, "cub_sort: unknown --dist %s\n", a->dist);
        exit(LAB_EXIT_USAGE);
    }
    for (int64_t i = 0; a->bits < 32 && i < n; i++) /* the low bits alone: a chunk less its lower splitter */
        keys[i] &= (1u << a->bits) - 1;
    w.keys_in = (const unsigned int *)lab_dev_upload(keys, bytes, "keys_in");
    w.keys_out = (unsigned int *)lab_dev_poisoned(bytes, "keys_out");
    if (!keys_only) { /* values: each key's input index (got_v holds them until the sort writes it) */
        for (int64_t i = 0; i < n; i++)
            got_v[i] = (unsigned int)i;
        w.values_in = (const unsigned int *)lab_dev_upload(got_v, bytes, "values_in");
        w.values_out = (unsigned int *)lab_dev_poisoned(bytes, "values_out");
    }
    CUDA_CHECK(sort_cub(&w, NULL, w.temp_bytes));
    w.temp = lab_dev_poisoned(w.temp_bytes, "CUB temp");
    launch(&w);
    lab_dev_download(got_k, w.keys_out, bytes);
    if (!keys_only)
        lab_dev_download(got_v, w.values_out, bytes);
    const char *why = check(keys, got_k, got_v, n, w.type);
    const lab_timing t = lab_time_device(launch, &w, run->reps);
    static const char *const names[2][2] = {
        {"cub::DeviceRadixSort::SortPairs", "cub::DeviceRadixSort::SortKeys"},
        {"cub::DeviceMergeSort::SortPairsCopy", "cub::DeviceMergeSort::SortKeysCopy"}};
    char params[128], more[32] = "";
    if (a->bits != 32 || w.ten)
        snprintf(more, sizeof more, " bits=%d digits=%s", a->bits, a->digits);
    snprintf(params, sizeof params, "dist=%s type=%s %s%s%s", a->dist, a->type, keys_only ? "keys" : "pairs",
             w.wide ? " offsets=64" : "", more);
    bench_report(run, names[w.merge][keys_only], params, n, 2.0 * (keys_only ? 1 : 2) * (double)bytes, t, why == NULL,
                 why);
    lab_dev_free((void *)w.keys_in), lab_dev_free(w.keys_out), lab_dev_free(w.temp);
    if (!keys_only)
        lab_dev_free((void *)w.values_in), lab_dev_free(w.values_out);
    free(keys), free(got_k), free(got_v);
    return why == NULL;
}

int main(int argc, char **argv)
{
    static const char *const variants[] = {"radix", "merge", NULL}, *const types[] = {"uint", "int", NULL};
    static const char *const offsets[] = {"32", "64", NULL}, *const digits[] = {"8", "10", NULL};
    args a = {.dist = "uniform",
              .type = "uint",
              .variant = "radix",
              .offsets = "32",
              .digits = "8",
              .keys_only = 0,
              .bits = 32};
    const lab_opt opts[] = {
        {.name = "--dist",
         .kind = LAB_ARG_NAME,
         .at = &a.dist,
         .names = sort_dists,
         .metavar = "D",
         .help = "input distribution"},
        {.name = "--type", .kind = LAB_ARG_NAME, .at = &a.type, .names = types, .metavar = "T", .help = "element type"},
        {.name = "--variant",
         .kind = LAB_ARG_NAME,
         .at = &a.variant,
         .names = variants,
         .metavar = "V",
         .help = "the CUB sort"},
        {.name = "--keys-only", .kind = LAB_ARG_FLAG, .at = &a.keys_only, .help = "sort keys without values"},
        {.name = "--offsets",
         .kind = LAB_ARG_NAME,
         .at = &a.offsets,
         .names = offsets,
         .metavar = "BITS",
         .help = "DeviceRadixSort's item count as an int or an int64_t (to 2^32 - 1)"},
        {.name = "--bits",
         .kind = LAB_ARG_INT,
         .at = &a.bits,
         .lo = 1,
         .hi = 32,
         .metavar = "B",
         .help = "keys cut to their low B bits, sorted on those (uint keys, --offsets 64)"},
        {.name = "--digits",
         .kind = LAB_ARG_NAME,
         .at = &a.digits,
         .names = digits,
         .metavar = "BITS",
         .help = "onesweep's digit: CUB's 8, or 10 (a policy of ours; uint keys, --offsets 64)"},
    };
    return bench_main(argc, argv, "cub_sort",
                      "CUB's sorts over -n sizes: --variant radix (DeviceRadixSort) | merge (DeviceMergeSort);\n"
                      "pairs unless --keys-only (value = input index), on ./run's inputs.",
                      opts, (int)(sizeof opts / sizeof opts[0]), run_size, &a);
}
