/* harness.cu - tests/bench/harness/mergepath on the GPU: the builds it links,
 * the ladder of ch12 step 6's and ch13 step 8's ideas, and main (their speed
 * beside CUB is speed.cu's, a build's timed and checked runs runs.cu's,
 * harness.h what they share). It links the steps' own
 * solutions/ch12-merge/step6-merge-path/merge.cu and
 * solutions/ch13-sort/step8-merge-sort-path/sort.cu, built once per ladder
 * variant (ladder.cuh's switches; the Makefile renames each build's launcher,
 * descriptors and kernels with the variant's suffix), and runs them as ./run
 * does: step 6's merge_launch, and step 8 through chapter 13's sort_run with
 * that build's descriptor (sort_step_info_<variant>), on the lab's inputs
 * (merge_ref.h, sort_ref.h), timed with the lab's lab_time_device (L2
 * flushed, median). Every variant runs on the same inputs in one process.
 *
 *   ./ladder [--only NAME,...]   merge keys and pairs at 2^27 + 2^27 int keys,
 *                                merge sort keys and pairs at 2^26 int keys,
 *                                for each variant; every output checked; a
 *                                LADDER line each, then the table
 *   ./harness --speed            (built with CUB) a device copy, then the step
 *                                and CUB in the same process: merge at 2^20,
 *                                2^24, 2^28, sort at 2^20, 2^24, 2^26, keys and
 *                                pairs; the summary table last
 *   --seed S                     the inputs' seed (default 1213)
 * Exit 1 when an output is wrong, 3 when there is no GPU. */
#include "harness.h"

/* The ladder's builds (the Makefile's VARIANTS, in the same order): each
 * idea taken out alone, then the ideas added one at a time from none. Step 8
 * has no launcher of its own (its passes run in sort_run's loop): a build's
 * sort is its descriptor. */
#define MP_VARIANTS(X)                                                                                                \
    X(full, "full")                                                                                                   \
    X(no_partition, "no-partition")                                                                                   \
    X(no_staging, "no-staging")                                                                                       \
    X(no_registers, "no-registers")                                                                                   \
    X(no_vector_stores, "no-vector-stores")                                                                           \
    X(book, "none")                                                                                                   \
    X(partition, "+partition")                                                                                        \
    X(partition_staging, "+staging")

#define DECLARE_VARIANT(v, name)                                                                                      \
    LAB_BEGIN_C                                                                                                       \
    const char *merge_launch_##v(const merge_args *a, const merge_params *p);                                         \
    extern const merge_step merge_step_info_##v;                                                                      \
    extern const sort_step sort_step_info_##v;                                                                        \
    LAB_END_C
MP_VARIANTS(DECLARE_VARIANT)

#define VARIANT_ROW(v, name) {name, merge_launch_##v, &merge_step_info_##v, &sort_step_info_##v},
const variant variants[] = {MP_VARIANTS(VARIANT_ROW)};
#define NVARIANTS (int)(sizeof variants / sizeof variants[0])

/* ---- the ladder -------------------------------------------------------------------- */

static int run_ladder(const char *only, uint64_t seed)
{
    const int64_t total = (int64_t)1 << 28, ns = (int64_t)1 << 26;
    merge_times mt[16];
    sort_times st[16];
    int run[16], wrong = 0;
    for (int k = 0; k < NVARIANTS; k++) {
        char list[256];
        snprintf(list, sizeof list, ",%s,", only != NULL ? only : "");
        char item[64];
        snprintf(item, sizeof item, ",%s,", variants[k].name);
        run[k] = only == NULL || strstr(list, item) != NULL;
    }
    merge_inputs in;
    merge_work mw;
    merge_inputs_upload(&mw, &in, total, seed);
    const size_t mbytes = sizeof(int) * (size_t)total;
    int *C = (int *)lab_xmalloc(mbytes), *C_v = (int *)lab_xmalloc(mbytes);
    int *ref_C = (int *)lab_xmalloc(mbytes), *ref_C_v = (int *)lab_xmalloc(mbytes);
    int have_ref = 0;
    for (int k = 0; k < NVARIANTS; k++)
        if (run[k]) {
            mt[k] = time_merge(&variants[k], &in, &mw, C, C_v, ref_C, ref_C_v, &have_ref);
            wrong |= !mt[k].ok;
            printf("merge %-18s keys %7.4f ms, pairs %7.4f ms%s\n", variants[k].name, mt[k].ms_keys, mt[k].ms_pairs,
                   mt[k].ok ? "" : "  WRONG OUTPUT");
            fflush(stdout);
        }
    merge_inputs_release(&mw, &in);
    free(C), free(C_v), free(ref_C), free(ref_C_v);

    sort_work sw;
    unsigned int *keys = sort_inputs(&sw, ns, seed + 1);
    const size_t sbytes = sizeof(unsigned int) * (size_t)ns;
    unsigned int *got = (unsigned int *)lab_xmalloc(sbytes), *got_v = (unsigned int *)lab_xmalloc(sbytes);
    unsigned int *ref = (unsigned int *)lab_xmalloc(sbytes), *ref_v = (unsigned int *)lab_xmalloc(sbytes);
    have_ref = 0;
    for (int k = 0; k < NVARIANTS; k++)
        if (run[k]) {
            st[k] = time_sort(&variants[k], keys, &sw, got, got_v, ref, ref_v, &have_ref);
            wrong |= !st[k].ok;
            printf("LADDER %-18s merge-keys %7.4f ms %6.0f GB/s | merge-pairs %7.4f ms %6.0f GB/s | sort-keys %7.4f ms "
                   "%6.3f Gkeys/s | sort-pairs %7.4f ms %6.3f Gkeys/s%s\n",
                   variants[k].name, mt[k].ms_keys, 8.0 * (double)total / mt[k].ms_keys / 1e6, mt[k].ms_pairs,
                   16.0 * (double)total / mt[k].ms_pairs / 1e6, st[k].ms_keys, (double)ns / st[k].ms_keys / 1e6,
                   st[k].ms_pairs, (double)ns / st[k].ms_pairs / 1e6, mt[k].ok && st[k].ok ? "" : "  WRONG OUTPUT");
            fflush(stdout);
        }
    sort_inputs_free(&sw);
    free(keys), free(got), free(got_v), free(ref), free(ref_v);

    printf("\n==== ladder (merge: 2^27 + 2^27 int keys, GB/s = 8 bytes per output, 16 per pair; sort: 2^26 int "
           "keys) ====\n");
    printf("%-18s %12s %12s %12s %12s %9s %9s\n", "build", "merge keys", "merge pairs", "sort keys", "sort pairs",
           "vs full", "(keys)");
    printf("%-18s %12s %12s %12s %12s %9s %9s\n", "", "GB/s", "GB/s", "ms", "ms", "merge", "sort");
    for (int k = 0; k < NVARIANTS; k++)
        if (run[k])
            printf("%-18s %12.0f %12.0f %12.3f %12.3f %9.3f %9.3f%s\n", variants[k].name,
                   8.0 * (double)total / mt[k].ms_keys / 1e6, 16.0 * (double)total / mt[k].ms_pairs / 1e6,
                   st[k].ms_keys, st[k].ms_pairs, run[0] ? mt[0].ms_keys / mt[k].ms_keys : 0.0,
                   run[0] ? st[0].ms_keys / st[k].ms_keys : 0.0, mt[k].ok && st[k].ok ? "" : "  WRONG OUTPUT");
    printf("(vs full: the full step's time / this build's, keys only; below 1: the idea taken out was worth that)\n");
    return wrong;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1213;
    const char *only = NULL;
    int speed_mode = 0;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--only") == 0 && a + 1 < argc)
            only = argv[++a];
        else if (strcmp(argv[a], "--speed") == 0)
            speed_mode = 1;
        else if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc)
            seed = strtoull(argv[++a], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--only NAME,...] [--speed] [--seed S]\n", argv[0]);
            return 2;
        }
    }
    lab_require_gpu("harness");
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("harness: %s; tile %d (MP_THREADS x MP_ITEMS); seed %llu\n", prop.name, variants[0].merge_info->defaults.tile,
           (unsigned long long)seed);
    fflush(stdout);
    if (!speed_mode)
        return run_ladder(only, seed) ? 1 : 0;
#ifdef MP_WITH_CUB
    return run_speed(seed) ? 1 : 0;
#else
    fprintf(stderr, "harness: --speed needs the build with CUB (make harness)\n");
    return 2;
#endif
}
