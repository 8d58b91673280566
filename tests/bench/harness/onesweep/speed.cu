/* speed.cu - the onesweep harness's timed modes: speed (cub::DeviceRadixSort
 * and ours on the same inputs in the same process, each the median of 25 runs
 * after an L2 flush, the outputs compared with CUB's, beside a device copy's
 * bandwidth) and profile (a warm-up and one sort, for ncu). */
#include "harness.h"

/* ---- speed ------------------------------------------------------------------- */

#define FLUSH_BYTES (100u << 20)
#define TIMED_RUNS 25

typedef struct {
    const unsigned int *keys_in, *values_in;
    unsigned int *keys_out, *values_out;
    int n;
    void *temp; /* CUB's temporaries, or our tables */
    size_t temp_bytes;
    int cub; /* 1: CUB, 0: ours, 2: the copy */
    cudaStream_t stream;
    unsigned int *keys_alt, *values_alt; /* ours: the second buffer */
} sort_job;

static void launch_job(const sort_job *j)
{
    if (j->cub == 2) {
        CUDA_CHECK(cudaMemcpyAsync(j->keys_out, j->keys_in, sizeof(unsigned int) * (size_t)j->n,
                                   cudaMemcpyDeviceToDevice, j->stream));
        return;
    }
#ifndef NO_CUB
    if (j->cub) {
        CUDA_CHECK(cub_radix_sort(j->temp, j->temp_bytes, j->keys_in, j->keys_out, j->values_in, j->values_out, j->n,
                                  j->stream));
        return;
    }
#endif
    const char *why = onesweep_sort(j->keys_in, j->values_in, j->keys_out, j->values_out, j->keys_alt, j->values_alt,
                                    j->n, j->temp, j->stream);
    if (why != NULL) {
        fprintf(stderr, "onesweep_sort refused: %s\n", why);
        exit(1);
    }
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median ms of TIMED_RUNS runs, each after a 100 MB write that flushes L2. */
static double time_job(const sort_job *j, void *flush, cudaEvent_t e0, cudaEvent_t e1)
{
    double ms[TIMED_RUNS];
    launch_job(j); /* warm-up */
    launch_job(j);
    for (int r = 0; r < TIMED_RUNS; r++) {
        CUDA_CHECK(cudaMemsetAsync(flush, r & 0xff, FLUSH_BYTES, j->stream));
        CUDA_CHECK(cudaEventRecord(e0, j->stream));
        launch_job(j);
        CUDA_CHECK(cudaEventRecord(e1, j->stream));
        CUDA_CHECK(cudaEventSynchronize(e1));
        float t = 0;
        CUDA_CHECK(cudaEventElapsedTime(&t, e0, e1));
        ms[r] = t;
    }
    qsort(ms, TIMED_RUNS, sizeof ms[0], cmp_double);
    return ms[TIMED_RUNS / 2];
}

/* The timed input on the device: n uniform keys (*keys_in) and values ~i (*values_in). */
static void upload_uniform(int64_t n, unsigned int **keys_in, unsigned int **values_in)
{
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    unsigned int *keys = host_words(n), *values = host_words(n);
    make_keys("uniform", BASE_SEED + 7, keys, n);
    make_values(values, n);
    *keys_in = (unsigned int *)dev_alloc(bytes), *values_in = (unsigned int *)dev_alloc(bytes);
    CUDA_CHECK(cudaMemcpy(*keys_in, keys, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(*values_in, values, bytes, cudaMemcpyHostToDevice));
    free(keys), free(values);
}

/* all: keys and pairs at 2^20, 2^24, 2^28; pairs_only: 2^28 keys, then pairs at 2^24 and 2^28. */
int mode_speed(int pairs_only)
{
    const int64_t max_n = (int64_t)1 << 28;
    const int64_t sizes[] = {(int64_t)1 << 20, (int64_t)1 << 24, max_n};
    const size_t bytes = sizeof(unsigned int) * (size_t)max_n;
    cudaStream_t stream;
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    unsigned int *ki, *vi;
    upload_uniform(max_n, &ki, &vi);
    unsigned int *ko = (unsigned int *)dev_alloc(bytes), *vo = (unsigned int *)dev_alloc(bytes);
    unsigned int *ck = (unsigned int *)dev_alloc(bytes), *cv = (unsigned int *)dev_alloc(bytes);
    void *flush = dev_alloc(FLUSH_BYTES);
    unsigned int *ka = (unsigned int *)dev_alloc(bytes), *va = (unsigned int *)dev_alloc(bytes);
    const size_t our_temp = onesweep_tables_bytes(max_n);
    void *temp = dev_alloc(our_temp);
    const char *why = onesweep_fit(0);
    if (why == NULL)
        why = onesweep_fit(1);
    if (why != NULL) {
        printf("onesweep_fit: %s\n", why);
        return 0;
    }
#ifndef NO_CUB
    const size_t cub_temp = cub_radix_temp_bytes((int)max_n, 1);
    void *ctemp = dev_alloc(cub_temp);
#endif
    /* the ceiling: a device-to-device copy of 2^28 words, 8 bytes moved per word */
    sort_job copy = {ki, NULL, ko, NULL, (int)max_n, NULL, 0, 2, stream, NULL, NULL};
    const double copy_ms = time_job(&copy, flush, e0, e1);
    const double copy_gbs = 2.0 * (double)bytes / copy_ms * 1e-6;
    printf("copy: %.3f ms for 2^28 words, %.0f GB/s (read + write)\n", copy_ms, copy_gbs);
    printf("ROW|%s|copy 2^28 u32 (ceiling)|%.0f GB/s|%.3f ms\n", HARNESS_NAME, copy_gbs, copy_ms);
    print_occupancy_row();
    int ok = 1;
    double ratio[2][3] = {{0}}, our[2][3] = {{0}}, theirs[2][3] = {{0}}; /* [pairs][size]: CUB ms / our ms, ms */
    unsigned int *got = host_words(max_n), *want = host_words(max_n);
    for (int s = 0; s < 3; s++)
        for (int pairs = 0; pairs <= 1; pairs++) {
            const int64_t n = sizes[s];
            if (pairs_only && (s == 0 || (!pairs && n != max_n)))
                continue;
            sort_job ours = {ki, pairs ? vi : NULL, ko, pairs ? vo : NULL, (int)n, temp, our_temp, 0, stream, ka, va};
            const double our_ms = time_job(&ours, flush, e0, e1);
            double cub_ms = 0;
            int same = 1;
#ifndef NO_CUB
            const size_t nb = sizeof(unsigned int) * (size_t)n;
            sort_job cub = {ki, pairs ? vi : NULL, ck, pairs ? cv : NULL, (int)n, ctemp, cub_temp, 1, stream, NULL, NULL};
            cub_ms = time_job(&cub, flush, e0, e1);
            /* both are stable: the outputs are identical */
            CUDA_CHECK(cudaMemcpy(got, ko, nb, cudaMemcpyDeviceToHost));
            CUDA_CHECK(cudaMemcpy(want, ck, nb, cudaMemcpyDeviceToHost));
            same = memcmp(got, want, nb) == 0;
            if (pairs) {
                CUDA_CHECK(cudaMemcpy(got, vo, nb, cudaMemcpyDeviceToHost));
                CUDA_CHECK(cudaMemcpy(want, cv, nb, cudaMemcpyDeviceToHost));
                same = same && memcmp(got, want, nb) == 0;
            }
#endif
            ok &= same;
            ratio[pairs][s] = cub_ms > 0 ? cub_ms / our_ms : 0.0;
            our[pairs][s] = our_ms, theirs[pairs][s] = cub_ms;
            /* the traffic floor of this design: the histogram read (4 B) + 4 passes x read and write */
            const double per_key = 4.0 + 4.0 * (pairs ? 16.0 : 8.0);
            const double our_gbs = per_key * (double)n / our_ms * 1e-6;
            char label[96];
            snprintf(label, sizeof label, "2^%d %s", s == 0 ? 20 : s == 1 ? 24 : 28, pairs ? "pairs" : "keys");
            printf("%s: ours %.3f ms (%.2f Gkeys/s), CUB %.3f ms (%.2f Gkeys/s), ours/CUB speed %.2f; %.0f B/key "
                   "-> %.0f GB/s = %.0f%% of copy%s\n",
                   label, our_ms, (double)n / our_ms * 1e-6, cub_ms, cub_ms > 0 ? (double)n / cub_ms * 1e-6 : 0.0,
                   cub_ms > 0 ? cub_ms / our_ms : 0.0, per_key, our_gbs, 100.0 * our_gbs / copy_gbs,
                   same ? "" : "  OUTPUT DIFFERS FROM CUB'S");
            printf("ROW|%s|speed %s|%.2fx CUB|ours %.3f ms %.2f Gk/s, CUB %.3f ms %.2f Gk/s, %.0f%% of copy%s\n",
                   HARNESS_NAME, label, cub_ms > 0 ? cub_ms / our_ms : 0.0, our_ms, (double)n / our_ms * 1e-6, cub_ms,
                   cub_ms > 0 ? (double)n / cub_ms * 1e-6 : 0.0, 100.0 * our_gbs / copy_gbs,
                   same ? "" : " WRONG (differs from CUB)");
            fflush(stdout);
        }
    if (pairs_only)
        printf("ROW|%s|ours/CUB: pairs 2^28 2^24; keys 2^28|%s|%.3f %.3f; %.3f (2^28 pairs %.3f ms, CUB %.3f; keys "
               "%.3f, CUB %.3f)\n",
               HARNESS_NAME, ok ? "same output as CUB" : "OUTPUT DIFFERS", ratio[1][2], ratio[1][1], ratio[0][2],
               our[1][2], theirs[1][2], our[0][2], theirs[0][2]);
    else
        printf("ROW|%s|speed, ours/CUB: keys 2^20 2^24 2^28; pairs 2^20 2^24 2^28|%s|%.2f %.2f %.2f; %.2f %.2f %.2f\n",
               HARNESS_NAME, ok ? "same output as CUB" : "OUTPUT DIFFERS", ratio[0][0], ratio[0][1], ratio[0][2],
               ratio[1][0], ratio[1][1], ratio[1][2]);
    free(got), free(want);
    void *freed[] = {ki, vi, ko, vo, ck, cv, ka, va, flush, temp};
    for (int i = 0; i < 10; i++)
        CUDA_CHECK(cudaFree(freed[i]));
#ifndef NO_CUB
    CUDA_CHECK(cudaFree(ctemp));
#endif
    return ok;
}

/* One warm-up sort and one more, for a profiler: ours (ncu -k regex:'onesweep_(keys|pairs)' -s 4
 * -c 4) or, with_cub, CUB's (ncu -k regex:Onesweep -s 8 -c 1: at 2^28 each of its passes is two
 * launches, the second of one tile). */
int mode_profile(int64_t n, int pairs, int with_cub)
{
    const size_t bytes = sizeof(unsigned int) * (size_t)n;
    unsigned int *ki, *vi;
    upload_uniform(n, &ki, &vi);
    unsigned int *ko = (unsigned int *)dev_alloc(bytes), *vo = (unsigned int *)dev_alloc(bytes);
    unsigned int *ka = (unsigned int *)dev_alloc(bytes), *va = (unsigned int *)dev_alloc(bytes);
    const char *why = NULL;
    if (with_cub) {
#ifndef NO_CUB
        const size_t temp_bytes = cub_radix_temp_bytes((int)n, pairs);
        void *temp = dev_alloc(temp_bytes);
        for (int r = 0; r < 2; r++)
            CUDA_CHECK(cub_radix_sort(temp, temp_bytes, ki, ko, pairs ? vi : NULL, pairs ? vo : NULL, (int)n, 0));
#else
        why = "built without CUB (NO_CUB)";
#endif
    } else {
        void *tables = dev_alloc(onesweep_tables_bytes(n));
        why = onesweep_fit(pairs);
        for (int r = 0; r < 2 && why == NULL; r++)
            why = onesweep_sort(ki, pairs ? vi : NULL, ko, pairs ? vo : NULL, ka, va, n, tables, 0);
    }
    if (why != NULL) {
        fprintf(stderr, "refused: %s\n", why);
        return 0;
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    printf("profile: 2 %s of %lld %s done\n", with_cub ? "CUB sorts" : "sorts", (long long)n,
           pairs ? "pairs" : "keys");
    return 1;
}
