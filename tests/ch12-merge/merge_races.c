/* merge_races.c - ch12's merge steps (2 on): races and reads past the end.
 * Each race shape the step takes, launched many times with its buffers in
 * device memory or in pinned host memory (read or written over the bus, so
 * the warps drift apart), must give the stable merge every time; A and B
 * each end at an unreadable page, so a read past either end faults. Part of
 * chapter 12's merge suite (tests/ch12-merge/merge.c), linked with it into
 * every merge step's test binary. */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "merge_test.h"

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
