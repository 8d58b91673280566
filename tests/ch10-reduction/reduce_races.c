/* reduce_races.c - ch10, every step: a missing barrier fails every time.
 * Thousands of launches of several shapes, every one checked, with memory
 * traffic on a stream of its own to make warps drift apart. Part of chapter
 * 10's suite (tests/ch10-reduction/reduce.c), linked with it into every
 * step's test binary. */
#include <string.h>

#include "reduce_test.h"

/* One shape of launch the race tests repeat. */
typedef struct {
    int64_t n;
    int block;
    int launches; /* back to back, each on its own input and into its own output */
} race_shape;

/* Memory traffic on a stream of its own (it does not wait for the launches,
 * nor they for it) while the launches run: it moves the moment each warp's
 * loads come back, so that one warp runs ahead of another far more often than
 * on an idle GPU. */
typedef struct {
    cudaStream_t stream;
    void *buf;
} race_noise;

enum { RACE_NOISE_BYTES = 64 << 20, RACE_NOISE_EVERY = 16 /* launches */ };

static race_noise race_noise_start(void)
{
    race_noise z;
    CUDA_CHECK(cudaStreamCreateWithFlags(&z.stream, cudaStreamNonBlocking));
    z.buf = lab_dev_poisoned(RACE_NOISE_BYTES, "noise_d");
    return z;
}

static void race_noise_stop(race_noise *z)
{
    CUDA_CHECK(cudaStreamSynchronize(z->stream));
    CUDA_CHECK(cudaStreamDestroy(z->stream));
    lab_dev_free(z->buf);
}

/* What a shape's launches gave: how many were wrong, and the first. */
typedef struct {
    int wrong, first;
    char detail[200];
    int64_t n;
    reduce_params p; /* as the last launch ran */
} race_result;

/* A missing barrier lets a read come before the write it waits for, which
 * one launch may never happen to do: shape->launches launches back to back,
 * every one checked. Every input is digits (1..9): a stale partial lacks a
 * positive contribution, so the exact sum comes out smaller; the launches
 * cycle through several inputs, so that a value left in shared memory by the
 * previous launch is wrong for this one. Steps 1-2 sum in place: each launch
 * has its own copy. Copies lie 256 bytes apart at least, as cudaMalloc aligns
 * (step 8 reads 16 bytes at a time). */
static race_result race_launches(const race_shape *shape, reduce_kind kind, int variant, uint64_t seed)
{
    enum { INPUTS = 7 };
    const int64_t n = shape->n, pitch = (n + 63) / 64 * 64;
    const int copies = STEP->one_block ? shape->launches : INPUTS;
    reduce_t *x = lab_xmalloc(sizeof(reduce_t) * (size_t)(pitch * copies));
    memset(x, LAB_POISON_BYTE, sizeof(reduce_t) * (size_t)(pitch * copies)); /* between the copies: never read */
    reduce_t *got = lab_xmalloc(sizeof(reduce_t) * (size_t)shape->launches);
    reduce_ref_result ref[INPUTS];
    lab_rng rng = lab_rng_seeded(seed);
    for (int i = 0; i < INPUTS; i++) {
        cr_assert_eq(reduce_make_input("digits", kind.type, &rng, x + i * pitch, n), 0);
        reduce_ref(kind, x + i * pitch, n, &ref[i]);
        cr_assert(ref[i].exact, "the race tests compare exact sums");
    }
    for (int c = INPUTS; c < copies; c++)
        memcpy(x + c * pitch, x + (c % INPUTS) * pitch, sizeof(reduce_t) * (size_t)n);
    reduce_t *in_d = lab_dev_upload(x, sizeof(reduce_t) * (size_t)(pitch * copies), "input_d");
    reduce_t *out_d = lab_dev_poisoned(sizeof(reduce_t) * (size_t)shape->launches, "output_d");
    race_noise noise = race_noise_start();
    race_result r = {.wrong = 0, .first = -1, .n = n};
    for (int k = 0; k < shape->launches; k++) {
        if (k % RACE_NOISE_EVERY == 0)
            CUDA_CHECK(cudaMemsetAsync(noise.buf, k / RACE_NOISE_EVERY, RACE_NOISE_BYTES, noise.stream));
        r.p = (reduce_params){.kind = kind, .block = shape->block, .coarsen = 1, .variant = variant};
        const char *why = reduce_launch(in_d + (k % copies) * pitch, n, out_d + k, &r.p);
        cr_assert_null(why, "%s refused n=%lld block=%d: %s", lab_step_name, (long long)n, shape->block, why);
    }
    char where[160];
    snprintf(where, sizeof where, "%d launches of %s, n=%lld block=%d variant=%d", shape->launches, lab_step_name,
             (long long)n, shape->block, variant);
    lab_test_finish(LAB_LAUNCH_DEADLINE, where);
    race_noise_stop(&noise);
    lab_dev_download(got, out_d, sizeof(reduce_t) * (size_t)shape->launches);
    for (int k = 0; k < shape->launches; k++) {
        char why[200];
        if (!reduce_check(kind, got[k], &ref[k % INPUTS], reduce_tree_height(&r.p), why, sizeof why) && r.wrong++ == 0)
            r.first = k, snprintf(r.detail, sizeof r.detail, "%s", why);
    }
    lab_dev_free(in_d), lab_dev_free(out_d), free(x), free(got);
    return r;
}

/* A race shows in some launches only: thousands of launches of several
 * shapes, every one checked, and every shape's count in the message. Steps
 * 1-3: one block of 64 to 1024 threads (a missing barrier lets one warp run
 * ahead of another). Steps 4-8: hundreds of blocks of 1024, 256 and 64
 * threads, two elements per thread (the most trees per launch; --coarsen 1),
 * N a multiple of the segment and not. An int sum of digits for steps 4-8,
 * a float sum for 1-3 (exact: every partial sum is an integer below 2^24). */
GPU_TEST(reduce_gpu, every_launch_of_thousands_is_right)
{
    static const race_shape one_block[] = {
        {.n = 2048, .block = 1024, .launches = 3000}, {.n = 1024, .block = 512, .launches = 3000},
        {.n = 512, .block = 256, .launches = 3000},   {.n = 256, .block = 128, .launches = 3000},
        {.n = 128, .block = 64, .launches = 3000},
    };
    static const race_shape many_blocks[] = {
        {.n = 1 << 20, .block = 1024, .launches = 200},
        {.n = (1 << 20) + 3, .block = 256, .launches = 200},
        {.n = (1 << 18) + 1, .block = 64, .launches = 200},
    };
    const reduce_kind sum = STEP->one_block ? float_sum : all_kinds[0];
    const race_shape *shapes = STEP->one_block ? one_block : many_blocks;
    const int nshapes = STEP->one_block ? 5 : 3;
    char counts[1024] = "";
    int wrong = 0, at = 0;
    race_result first = {.wrong = 0};
    for (int s = 0; s < nshapes; s++)
        for (int v = 1; v <= (variant_count() > 0 ? variant_count() : 1); v++) {
            const race_result r = race_launches(&shapes[s], sum, variant_at(v), lab_test_seed(s + v));
            if (r.wrong > 0 && wrong == 0)
                first = r;
            wrong += r.wrong;
            at +=
                snprintf(counts + at, sizeof counts - (size_t)at, "%s n=%lld block=%d%s%s: %d of %d", at > 0 ? ";" : "",
                         (long long)shapes[s].n, shapes[s].block, variant_count() > 0 ? " variant " : "",
                         variant_count() > 0 ? STEP->lab.variants[v - 1] : "", r.wrong, shapes[s].launches);
        }
    cr_assert(wrong == 0,
              "%s: launches gave a wrong sum, in some runs only: a barrier missing? (threads read partial sums "
              "other threads have not written yet). Wrong launches per shape:%s. The first: launch %d of n=%lld "
              "block=%d grid=%d: %s%s",
              lab_step_name, counts, first.first, (long long)first.n, first.p.block, first.p.grid, first.detail,
              lab_todo_note());
}
