/* merge.c - ch12's merge steps (2 on): every merge kernel against the stable
 * CPU merge, over the key types and values the step's descriptor says it
 * takes; the printed bugs the step replays, each failing on its own input;
 * and, on the CPU, the checks, the workspace and the reference itself.
 * Int keys are tagged (merge.h): the raw order of equal keys is scrambled, so
 * a tie taken from B first, out of input order, or by raw value fails. A
 * step's own tests are in tests/ch12-merge/<step folder>.c. */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lab_test.h"
#include "merge_host.h"
#include "merge_ref.h"

static const char *params_str(const merge_params *p, char *buf, size_t len)
{
    snprintf(buf, len, "block=%d grid=%d tile=%d coarsen=%d printed=%d", p->block, p->grid, p->tile, p->coarsen,
             p->printed);
    return buf;
}

/* Runs the step on in and returns the number of wrong elements of C (keys or
 * values), the first described in first; -1 if the kernel faulted (which only
 * the printed variants may do). A write past a buffer fails in the download. */
static int64_t merge_errors(const merge_inputs *in, const merge_params *p, char *first, size_t first_len)
{
    const int64_t total = in->m + in->n;
    const int values = in->A_values != NULL;
    int *C = lab_xmalloc(sizeof(int) * (size_t)total), *want = lab_xmalloc(sizeof(int) * (size_t)total);
    int *C_values = values ? lab_xmalloc(sizeof(int) * (size_t)total) : NULL;
    int *want_values = values ? lab_xmalloc(sizeof(int) * (size_t)total) : NULL;
    char buf[128];
    merge_ref(in, want, want_values);
    merge_args a = merge_upload(in, merge_temp_bytes(&merge_step_info, in->m, in->n, p));
    const char *why = merge_launch(&a, p);
    cr_assert_null(why, "merge_launch refused m=%lld n=%lld %s: %s", (long long)in->m, (long long)in->n,
                   params_str(p, buf, sizeof buf), why ? why : "");
    int64_t errors = -1;
    char where[200];
    snprintf(where, sizeof where, "m=%lld n=%lld %s", (long long)in->m, (long long)in->n,
             params_str(p, buf, sizeof buf));
    if (lab_test_finish(LAB_LAUNCH_DEADLINE, where) == cudaSuccess) {
        merge_download(&a, C, C_values);
        errors = merge_compare(in, C, C_values, want, want_values, 0, first, first_len).count;
        merge_free(&a);
    }
    free(C), free(want), free(C_values), free(want_values);
    return errors;
}

/* Fresh inputs of a distribution, of every kind the step merges (int keys,
 * and float keys and pairs where its descriptor says so); asserts C is
 * exactly the stable merge. */
static void check_merge(int64_t m, int64_t n, const char *dist, uint64_t seed, const merge_params *p)
{
    const merge_step *s = &merge_step_info;
    char buf[128], first[512];
    for (int is_float = 0; is_float <= ((s->takes & MERGE_TAKES_TYPE) != 0); is_float++)
        for (int values = 0; values <= s->takes_values; values++) {
            merge_inputs in;
            cr_assert_eq(merge_inputs_make(&in, dist, seed, m, n, is_float, values, MERGE_TAG_ORIGIN), 0);
            const int64_t errors = merge_errors(&in, p, first, sizeof first);
            cr_assert_eq(errors, 0, "%lld wrong outputs%s: first %s -- m=%lld n=%lld dist=%s type=%s %s seed=%llu %s%s",
                         (long long)errors, errors < 0 ? " (the kernel faulted)" : "", first, (long long)m,
                         (long long)n, dist, is_float ? "float" : "int", values ? "pairs" : "keys",
                         (unsigned long long)seed, params_str(p, buf, sizeof buf), lab_todo_note());
            merge_inputs_free(&in);
        }
}

/* block, grid, tile, coarsen: powers of two and not, tiles that are and are not multiples of the block */
static const merge_params param_sets[] = {
    {.block = 128, .grid = 0, .tile = 1024, .coarsen = 16}, {.block = 32, .grid = 0, .tile = 64, .coarsen = 2},
    {.block = 96, .grid = 7, .tile = 96, .coarsen = 3},     {.block = 64, .grid = 0, .tile = 100, .coarsen = 5},
    {.block = 256, .grid = 0, .tile = 2048, .coarsen = 8},  {.block = 33, .grid = 0, .tile = 50, .coarsen = 1},
};
#define NPARAMS (sizeof param_sets / sizeof param_sets[0])

/* Parameter set q of the sweeps: param_sets[q], and last (q == NPARAMS) the step's defaults. */
static const merge_params *param_set(size_t q)
{
    return q < NPARAMS ? &param_sets[q] : &merge_step_info.defaults;
}

/* A parameter set the step refuses (a block its kernels cannot use, or, in step 6, any shape but
 * its compile-time one) is left out of its sweeps. */
static int step_takes(const merge_params *p)
{
    return merge_check(&merge_step_info, 1000, 1000, 0, 0, p) == NULL;
}

static const int small_sizes[][2] = {{0, 0},      {1, 0},       {0, 1},     {1, 1},     {5, 4},        {100, 37},
                                     {1000, 999}, {4097, 3001}, {10000, 0}, {0, 10000}, {33000, 31000}};
#define NSMALL (sizeof small_sizes / sizeof small_sizes[0])

static void sweep_small(size_t param_first, size_t param_last)
{
    for (size_t q = param_first; q < param_last; q++)
        for (size_t z = 0; z < NSMALL && step_takes(param_set(q)); z++)
            for (int d = 0; merge_dists[d] != NULL; d++)
                check_merge(small_sizes[z][0], small_sizes[z][1], merge_dists[d], lab_test_seed((int)(z + d + q)),
                            param_set(q));
}

GPU_TEST(merge_gpu, small_and_odd_sizes_params_0_to_2)
{
    sweep_small(0, 3);
}
GPU_TEST(merge_gpu, small_and_odd_sizes_params_3_to_5_and_defaults)
{
    sweep_small(3, NPARAMS + 1);
}

/* Two large merges with each of three parameter sets (those the step takes; its defaults always). */
GPU_TEST(merge_gpu, at_least_2_pow_24_elements)
{
    const merge_params wide = {.block = 256, .grid = 0, .tile = 2048, .coarsen = 32};
    const merge_params odd = {.block = 96, .grid = 1001, .tile = 1000, .coarsen = 8};
    const merge_params *const sets[] = {&param_sets[0], &wide, &odd, &merge_step_info.defaults};
    for (int s = 0; s < 4; s++)
        if (step_takes(sets[s])) {
            check_merge((1 << 23) + 5, (1 << 23) - 3, s % 2 ? "dups" : "uniform", lab_test_seed(s), sets[s]);
            check_merge((1 << 24) - 7, 1 << 23, s % 2 ? "interleaved" : "a-above", lab_test_seed(s + 1), sets[s]);
        }
}

GPU_TEST(merge_gpu, duplicates_straddle_tile_and_block_boundaries)
{
    for (size_t q = 0; q <= NPARAMS; q++)
        for (int delta = -1; delta <= 1 && step_takes(param_set(q)); delta++) {
            const int m = 3 * param_set(q)->tile + delta, n = 5 * param_set(q)->tile - delta;
            check_merge(m, n, "dups", lab_test_seed((int)q), param_set(q));
            check_merge(m, n, "equal", lab_test_seed((int)q), param_set(q));
        }
}

/* Every key equal: the output must be all of A, in order, then all of B. */
GPU_TEST(merge_gpu, ties_take_A_first_and_keep_input_order)
{
    for (size_t q = 0; q <= NPARAMS; q++)
        if (step_takes(param_set(q))) {
            check_merge(5000, 3000, "equal", lab_test_seed(0), param_set(q));
            check_merge(70, 9000, "equal", lab_test_seed(1), param_set(q));
        }
}

GPU_TEST(merge_gpu, several_seeds_default_parameters)
{
    for (int s = 0; s < LAB_TEST_NSEEDS; s++)
        for (int d = 0; merge_dists[d] != NULL; d++) {
            if (step_takes(&param_sets[0]))
                check_merge(300000 + s, 200001, merge_dists[d], lab_test_seed(s), &param_sets[0]);
            check_merge(300000 + s, 200001, merge_dists[d], lab_test_seed(s), &merge_step_info.defaults);
        }
}

/* ---- races and reads past the end ----------------------------------------------------- */

/* Where a test merge keeps a buffer: device memory, or pinned host memory that the kernel reads
 * or writes over the bus. Over the bus each access takes microseconds and the warps' accesses
 * queue: some warps get their data long before others, so a warp that does not wait at a
 * barrier reads what another warp has not loaded yet (inputs on the host), or overwrites what a
 * slower warp still reads (outputs on the host: the slow warps are those whose stores wait). */
typedef struct {
    void *dev;  /* what the kernel gets */
    void *host; /* on the host: where the CPU reads and writes it (NULL: in device memory) */
    char *map;  /* on the host: the mapping, with an unreadable page after the buffer */
    size_t map_bytes;
} test_buf;

/* bytes of `from` (NULL: poisoned) in device memory, or on the host ending exactly where an
 * unreadable page begins: a kernel that reads past its end faults there, every time (where the
 * GPU can map user memory: cudaHostRegister; elsewhere it is CUDA's pinned memory, unfenced). */
static test_buf test_buf_make(const void *from, size_t bytes, int on_host, const char *name)
{
    test_buf b = {.dev = NULL};
    if (!on_host) {
        b.dev = from != NULL ? lab_dev_upload(from, bytes, name) : lab_dev_poisoned(bytes, name);
        return b;
    }
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), body = bytes > 0 ? (bytes + page - 1) / page * page : page;
    b.map_bytes = body + page;
    b.map = mmap(NULL, b.map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert(b.map != MAP_FAILED && mprotect(b.map + body, page, PROT_NONE) == 0, "mmap of %s", name);
    if (cudaHostRegister(b.map, body, cudaHostRegisterMapped) != cudaSuccess) {
        /* a machine that cannot map user memory for the GPU: pinned memory of CUDA's own, no fence after it */
        cudaGetLastError();
        munmap(b.map, b.map_bytes);
        b.map = NULL;
        CUDA_CHECK(cudaHostAlloc((void **)&b.map, body, cudaHostAllocMapped));
    }
    b.host = bytes > 0 ? b.map + body - bytes : b.map; /* empty: any readable place will do */
    if (from != NULL)
        memcpy(b.host, from, bytes);
    else
        memset(b.host, LAB_POISON_BYTE, bytes);
    CUDA_CHECK(cudaHostGetDevicePointer(&b.dev, b.host, 0));
    return b;
}

static void test_buf_free(test_buf *b)
{
    if (b->host == NULL) {
        lab_dev_free(b->dev);
    } else if (cudaHostUnregister(b->map) == cudaSuccess) {
        munmap(b->map, b->map_bytes);
    } else { /* cudaHostAlloc's (test_buf_make) */
        cudaGetLastError();
        CUDA_CHECK(cudaFreeHost(b->map));
    }
}

/* Where the race tests keep A and B, and C. */
typedef struct {
    int inputs_on_host, output_on_host;
    const char *what;
} placement;
static const placement in_device = {.what = "A, B and C in device memory"};
static const placement inputs_on_host = {.inputs_on_host = 1,
                                         .what = "A and B in pinned host memory, each ending at an unreadable page"};
static const placement output_on_host = {.output_on_host = 1, .what = "C in pinned host memory"};

/* The step merges in (its buffers placed as pl says, uploaded once) `launches` times, each into a
 * freshly poisoned C, stopping at the first wrong one: how many launches gave a C that is not
 * want (the first wrong element described in first). A kernel that faults fails the test. */
static int wrong_launches(const merge_inputs *in, const int *want, const merge_params *p, const placement *pl,
                          int launches, char *first, size_t first_len)
{
    const size_t a_bytes = sizeof(int) * (size_t)in->m, b_bytes = sizeof(int) * (size_t)in->n;
    const size_t c_bytes = a_bytes + b_bytes;
    char buf[128];
    test_buf A = test_buf_make(in->A, a_bytes, pl->inputs_on_host, "A");
    test_buf B = test_buf_make(in->B, b_bytes, pl->inputs_on_host, "B");
    test_buf C = test_buf_make(NULL, c_bytes, pl->output_on_host, "C");
    merge_args a = {.A = A.dev,
                    .m = in->m,
                    .B = B.dev,
                    .n = in->n,
                    .C = C.dev,
                    .temp = lab_dev_poisoned(merge_temp_bytes(&merge_step_info, in->m, in->n, p), "temp_d")};
    int *got = lab_xmalloc(c_bytes), wrong = 0;
    for (int l = 0; l < launches && wrong == 0; l++) {
        if (C.host != NULL)
            memset(C.host, LAB_POISON_BYTE, c_bytes);
        else
            lab_poison_device(C.dev, c_bytes);
        const char *why = merge_launch(&a, p);
        cr_assert_null(why, "merge_launch refused m=%lld n=%lld %s: %s", (long long)in->m, (long long)in->n,
                       params_str(p, buf, sizeof buf), why ? why : "");
        char where[320];
        snprintf(where, sizeof where, "launch %d of %d, m=%lld n=%lld %s, %s", l + 1, launches, (long long)in->m,
                 (long long)in->n, params_str(p, buf, sizeof buf), pl->what);
        const cudaError_t err = lab_test_finish(LAB_RACE_DEADLINE, where);
        cr_assert_eq(err, cudaSuccess,
                     "the kernel faulted (%s): it read or wrote outside its buffers (with %s, "
                     "a read past the end of A or B faults) -- m=%lld n=%lld %s%s",
                     cudaGetErrorString(err), pl->what, (long long)in->m, (long long)in->n,
                     params_str(p, buf, sizeof buf), lab_todo_note());
        if (C.host != NULL)
            memcpy(got, C.host, c_bytes);
        else
            lab_dev_download(got, C.dev, c_bytes);
        if (memcmp(got, want, c_bytes) != 0 && wrong++ == 0)
            merge_compare(in, got, NULL, want, NULL, 0, first, first_len);
    }
    free(got);
    lab_dev_free(a.temp);
    test_buf_free(&A), test_buf_free(&B), test_buf_free(&C);
    return wrong;
}

/* The shapes of the race tests, for a step that takes them (step 6 runs its own shape): 32
 * warps a block, whose warps drift furthest apart, down to one warp a block; tile shares of
 * 1, 2, 8, 12 and 32 outputs, tiles that are and are not a multiple of the block; several
 * tiles per block, so a tile's shared memory still holds the last tile's keys. */
static const merge_params race_sets[] = {
    {.block = 1024, .grid = 0, .tile = 2048, .coarsen = 16}, {.block = 1024, .grid = 0, .tile = 8192, .coarsen = 32},
    {.block = 256, .grid = 0, .tile = 3000, .coarsen = 47},  {.block = 128, .grid = 0, .tile = 1664, .coarsen = 16},
    {.block = 64, .grid = 0, .tile = 100, .coarsen = 25},    {.block = 32, .grid = 0, .tile = 1024, .coarsen = 128},
    {.block = 512, .grid = 0, .tile = 512, .coarsen = 8},
};
#define NRACE (sizeof race_sets / sizeof race_sets[0])

/* Race shape q: race_sets[q], and last (q == NRACE) the step's defaults. */
static const merge_params *race_set(size_t q)
{
    return q < NRACE ? &race_sets[q] : &merge_step_info.defaults;
}

/* Tagged keys, merged `launches` times with each race shape the step takes and its defaults,
 * buffers placed as pl says: every launch must be the stable merge. Uniform tagged keys are
 * distinct words that rise from tile to tile: a tile that reads what no warp has loaded yet (the
 * last tile's keys), or what the next tile already overwrote, changes some output. */
static void check_races(int64_t m, int64_t n, uint64_t seed, const placement *pl, int launches)
{
    merge_inputs in;
    char buf[128], first[512] = "";
    cr_assert_eq(merge_inputs_make(&in, "uniform", seed, m, n, 0, 0, MERGE_TAG_ORIGIN), 0);
    int *want = lab_xmalloc(sizeof(int) * (size_t)(m + n));
    merge_ref(&in, want, NULL);
    for (size_t q = 0; q <= NRACE; q++)
        if (step_takes(race_set(q))) {
            const int wrong = wrong_launches(&in, want, race_set(q), pl, launches, first, sizeof first);
            cr_assert_eq(wrong, 0,
                         "a launch of %d gave a wrong merge, the others may not (a race: is a __syncthreads "
                         "missing?): first %s -- m=%lld n=%lld uniform seed=%llu %s, %s%s",
                         launches, first, (long long)m, (long long)n, (unsigned long long)seed,
                         params_str(race_set(q), buf, sizeof buf), pl->what, lab_todo_note());
        }
    free(want);
    merge_inputs_free(&in);
}

/* A warp that reads another warp's part of a tile before it is loaded (a barrier missing after a
 * load) or overwrites a part another warp still reads (a barrier missing before a store or the
 * next load) gives a wrong merge only when the warps drift apart. These tests make them drift,
 * launch many times, and fail at the first wrong launch. */
GPU_TEST(merge_race, many_launches_in_device_memory)
{
    check_races(300007, 200003, lab_test_seed(0), &in_device, 12);
    check_races((1 << 20) + 5, (1 << 20) - 3, lab_test_seed(1), &in_device, 6);
}

GPU_TEST(merge_race, inputs_read_over_the_bus)
{
    check_races(300007, 200003, lab_test_seed(2), &inputs_on_host, 8);
}

GPU_TEST(merge_race, outputs_written_over_the_bus)
{
    check_races(300007, 200003, lab_test_seed(3), &output_on_host, 8);
}

/* A and B each end where an unreadable page begins: a kernel that reads past either end (a
 * tile load not bounded by what is left of the input) faults, with every parameter set and
 * sizes that leave the last block a partial tile. */
GPU_TEST(merge_bounds, reads_stay_inside_A_and_B)
{
    static const int sizes[][2] = {{1, 0}, {0, 1}, {5, 4}, {100, 37}, {1000, 999}, {4097, 3001}, {33000, 31000}};
    char first[512] = "";
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        merge_inputs in;
        const int64_t m = sizes[z][0], n = sizes[z][1];
        cr_assert_eq(merge_inputs_make(&in, "uniform", lab_test_seed((int)z), m, n, 0, 0, MERGE_TAG_ORIGIN), 0);
        int *want = lab_xmalloc(sizeof(int) * (size_t)(m + n));
        merge_ref(&in, want, NULL);
        for (size_t q = 0; q <= NPARAMS; q++)
            if (step_takes(param_set(q)))
                cr_assert_eq(wrong_launches(&in, want, param_set(q), &inputs_on_host, 1, first, sizeof first), 0,
                             "wrong merge: first %s -- m=%lld n=%lld, %s%s", first, (long long)m, (long long)n,
                             inputs_on_host.what, lab_todo_note());
        free(want);
        merge_inputs_free(&in);
    }
}

/* ---- the printed code: each bug the step replays fails on its own input (docs/errata.md) ---- */

/* A counterexample to the printed tiled kernels (on Fig 12.13; errata): 2 blocks of 2 threads, tile 4. */
static const int cA[] = {0, 1, 4, 5, 5, 7, 8, 9}, cB[] = {1, 1, 3, 6, 6, 7, 9};

/* Wrong outputs of the step on these keys (tagged by origin) with p. */
static int64_t run_fixed(const int *keys_A, int m, const int *keys_B, int n, merge_params p)
{
    int A[16], B[16];
    char first[512];
    memcpy(A, keys_A, sizeof(int) * (size_t)m), memcpy(B, keys_B, sizeof(int) * (size_t)n);
    merge_tag(A, m, 0, MERGE_TAG_ORIGIN), merge_tag(B, n, 1, MERGE_TAG_ORIGIN);
    const merge_inputs in = {.m = m, .n = n, .tagged = MERGE_TAG_ORIGIN, .A = A, .B = B};
    return merge_errors(&in, &p, first, sizeof first);
}

/* The fixed code passes the input; with `bit` set, the printed code fails it
 * (when the step replays that bug at all). */
static void printed_fails(unsigned bit, const int *A, int m, const int *B, int n, merge_params p, const char *what)
{
    if (!(merge_step_info.printed & bit))
        return;
    cr_assert_eq(run_fixed(A, m, B, n, p), 0, "%s: the fixed code must merge this input%s", what, lab_todo_note());
    p.printed = (int)bit;
    cr_assert_neq(run_fixed(A, m, B, n, p), 0, "%s: the printed code must fail on this input", what);
}

/* The counterexample's launch: 2 blocks of 2 threads, tile 4. */
static const merge_params counter_p = {.block = 2, .grid = 2, .tile = 4, .coarsen = 4};

GPU_TEST(merge_printed, counterexample_passes_fixed_code)
{
    if (!step_takes(&counter_p))
        return; /* step 6: its shape is compile-time; its own tests run tiny merges */
    const merge_params p = counter_p;
    cr_assert_eq(run_fixed(cA, 8, cB, 7, p), 0,
                 "A=0,1,4,5,5,7,8,9 B=1,1,3,6,6,7,9 block=2 grid=2 tile=4: wrong merge%s", lab_todo_note());
}

GPU_TEST(merge_printed, printed_integer_ceil_loses_outputs)
{
    /* 15 outputs: over 2 blocks (steps 3, 4) (m+n)/gridDim.x = 7 leaves C[14] unwritten;
     * over 4 threads (step 2) (m+n)/(blockDim.x*gridDim.x) = 3 leaves C[12..14] */
    const merge_params p = counter_p;
    printed_fails(MERGE_PRINTED_CEIL, cA, 8, cB, 7, p, "A=0,1,4,5,5,7,8,9 B=1,1,3,6,6,7,9 block=2 grid=2 tile=4");
}

GPU_TEST(merge_printed, printed_consumed_count_reads_stale_tile)
{
    /* One block, tile 4: the second tile holds B = 5 then stale 2,3,4; the printed
     * co_rank(tile_size, A_S, tile_size, B_S, tile_size) counts 0 A consumed, not 3. */
    static const int A[] = {6, 7, 8, 9, 11, 12, 13, 14, 15, 16}, B[] = {1, 2, 3, 4, 5};
    const merge_params p = {.block = 2, .grid = 1, .tile = 4, .coarsen = 4};
    printed_fails(MERGE_PRINTED_CONSUMED, A, 10, B, 5, p, "A=6..9,11..16 B=1..5 block=2 grid=1 tile=4");
}

GPU_TEST(merge_printed, printed_loader_rereads_held_elements)
{
    const merge_params p = counter_p;
    printed_fails(MERGE_PRINTED_LOADER, cA, 8, cB, 7, p, "A=0,1,4,5,5,7,8,9 B=1,1,3,6,6,7,9 block=2 grid=2 tile=4");
}

GPU_TEST(merge_printed, printed_fix_slip_bounds_B_by_A_length)
{
    /* A has 2 elements: the slip's min(B_S_consumed, A_length - B_loaded) records 2 of B loaded, not 4 */
    static const int A[] = {1, 50}, B[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    const merge_params p = {.block = 2, .grid = 1, .tile = 4, .coarsen = 4};
    printed_fails(MERGE_PRINTED_NOTE_SLIP, A, 2, B, 10, p, "A=1,50 B=2..11 block=2 grid=1 tile=4");
}

/* ---- on the CPU: the checks, the workspace, the reference --------------------- */

Test(merge_params, refuses_what_cannot_run)
{
    const merge_step *s = &merge_step_info;
    merge_params zero_block = s->defaults, big_block = s->defaults, no_coarsen = s->defaults;
    const merge_params *ok = &s->defaults;
    const merge_args none = {.m = 100, .n = 100};
    zero_block.block = 0, big_block.block = 2048, no_coarsen.coarsen = 0;
    cr_assert_not_null(merge_check(s, 50, 50, 0, 0, &zero_block), "block 0 must be refused");
    cr_assert_not_null(merge_check(s, 50, 50, 0, 0, &big_block), "block 2048 must be refused");
    cr_assert_not_null(merge_launch(&none, &big_block), "merge_launch must refuse block 2048 before touching the GPU");
    if (s->takes & MERGE_TAKES_COARSEN)
        cr_assert_not_null(merge_check(s, 50, 50, 0, 0, &no_coarsen), "coarsen 0 must be refused");
    cr_assert_not_null(merge_check(s, (int64_t)1 << 30, (int64_t)1 << 30, 0, 0, ok), "m + n >= 2^31 must be refused");
    cr_assert_null(merge_check(s, 500000, 500000, 0, 0, ok), "the step's defaults must run");
    cr_assert_eq(merge_check(s, 50, 50, 1, 0, ok) == NULL, (s->takes & MERGE_TAKES_TYPE) != 0,
                 "float keys are taken exactly when the step takes --type");
    cr_assert_eq(merge_check(s, 50, 50, 0, 1, ok) == NULL, s->takes_values,
                 "values are taken exactly when the descriptor says so");
    cr_assert_eq(merge_grid(1000000, &param_sets[0]), ceil_div(1000000, 128 * 16),
                 "derived grid covers m + n with block * coarsen per block");
    cr_assert_eq(merge_temp_bytes(s, 50, 50, &big_block), merge_temp_bytes(s, 50, 50, ok),
                 "merge_temp_bytes checks nothing: its size does not depend on a refused block");
}

Test(merge_params, workspace_is_what_the_step_declares)
{
    const merge_step *s = &merge_step_info;
    const size_t bytes = merge_temp_bytes(s, 1000000, 700001, &s->defaults);
    if (s->tile_co_ranks)
        cr_assert_geq(bytes, sizeof(int) * ((size_t)ceil_div(1700001, s->defaults.tile) + 1),
                      "the co-rank of every tile boundary must fit the workspace");
    else
        cr_assert_eq(bytes, 0, "a step that declares no workspace needs none");
}

/* The reference on pairs and on float keys: sorted, a permutation of the
 * inputs, and stable (the values of equal keys rise: A's before B's). */
Test(merge_ref_host, pairs_and_floats_stable_for_every_distribution)
{
    static const int sizes[][2] = {{0, 0}, {1, 0}, {0, 1}, {7, 5}, {1000, 3}, {4096, 4095}};
    for (int is_float = 0; is_float < 2; is_float++)
        for (int d = 0; merge_dists[d] != NULL; d++)
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                merge_inputs in;
                const int64_t m = sizes[z][0], n = sizes[z][1], total = m + n;
                cr_assert_eq(
                    merge_inputs_make(&in, merge_dists[d], lab_test_seed((int)z), m, n, is_float, 1, MERGE_TAG_ORIGIN),
                    0);
                int *C = lab_xmalloc(sizeof(int) * (size_t)total), *V = lab_xmalloc(sizeof(int) * (size_t)total);
                char *seen = calloc((size_t)total + 1, 1);
                int nonzero = total == 0;
                merge_ref(&in, C, V);
                for (int64_t k = 0; k < total; k++) {
                    float f;
                    memcpy(&f, &C[k], sizeof f);
                    cr_assert(!is_float || f == f, "%s: a NaN key at C[%lld]", merge_dists[d], (long long)k);
                    nonzero |= is_float ? f != 0.0f : C[k] != 0;
                    cr_assert(V[k] >= 1 && V[k] <= total && !seen[V[k]],
                              "%s: C_values[%lld] = %d is not a fresh payload", merge_dists[d], (long long)k, V[k]);
                    seen[V[k]] = 1;
                    if (k > 0) {
                        cr_assert(merge_key_le(&in, C[k - 1], C[k]), "%s: C not sorted at %lld", merge_dists[d],
                                  (long long)k);
                        cr_assert(!merge_key_le(&in, C[k], C[k - 1]) || V[k - 1] < V[k],
                                  "%s: equal keys out of order at C[%lld] (float=%d)", merge_dists[d], (long long)k,
                                  is_float);
                    }
                }
                cr_assert(nonzero, "%s: every key is zero (float=%d)", merge_dists[d], is_float);
                free(C), free(V), free(seen);
                merge_inputs_free(&in);
            }
}

Test(merge_ref_host, float_keys_take_both_signs_and_tie_minus_zero)
{
    merge_inputs in;
    cr_assert_eq(merge_inputs_make(&in, "dups", lab_test_seed(0), 1200, 1300, 1, 1, MERGE_TAG_NONE), 0);
    int negative = 0, positive = 0, minus_zero = 0;
    for (int64_t j = 0; j < in.n; j++) {
        float f;
        memcpy(&f, &in.B[j], sizeof f);
        negative |= f<0.0f, positive |= f> 0.0f, minus_zero |= (uint32_t)in.B[j] == 0x80000000u;
    }
    cr_assert(negative && positive && minus_zero, "dups as floats: both signs and B's -0.0 expected");
    int *want = lab_xmalloc(sizeof(int) * 2501);
    merge_co_rank_ref(&in, want);
    cr_assert_eq(want[2500], 1200, "the last co-rank is m");
    free(want);
    merge_inputs_free(&in);
}

/* The check names a tie taken the wrong way, and an output never written. */
Test(merge_ref_host, compare_describes_wrong_ties_and_poison)
{
    int A[] = {5, 5, 9}, B[] = {5, 7}, want[5], got[5];
    char first[512];
    merge_tag(A, 3, 0, MERGE_TAG_ORIGIN), merge_tag(B, 2, 1, MERGE_TAG_ORIGIN);
    const merge_inputs in = {.m = 3, .n = 2, .tagged = MERGE_TAG_ORIGIN, .A = A, .B = B};
    merge_ref(&in, want, NULL);
    memcpy(got, want, sizeof got);
    got[1] = want[2], got[2] = want[1]; /* B's 5 before A's second 5 */
    lab_mismatch mm = merge_compare(&in, got, NULL, want, NULL, 0, first, sizeof first);
    cr_assert_eq(mm.count, 2);
    cr_assert(strstr(first, "from B[0]") != NULL && strstr(first, "wrong order") != NULL, "described as: %s", first);
    got[1] = want[1], got[2] = want[2], got[4] = (int)LAB_POISON_WORD;
    mm = merge_compare(&in, got, NULL, want, NULL, 0, first, sizeof first);
    cr_assert(mm.count == 1 && mm.first == 4 && strstr(first, "never written") != NULL, "described as: %s", first);
}
