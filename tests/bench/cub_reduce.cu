/* cub_reduce.cu - chapter 10's baseline for `make bench`: what a user would
 * call instead of the steps, cub::DeviceReduce::Sum, Max or Min over int or
 * float, on the input ./run makes (reduce_make_input), checked against the
 * CPU reference and timed like ./run. Effective bytes: each element read once
 * (4 per element), as reduce_driver.c counts. */
#include <cub/device/device_reduce.cuh>

#include "bench_tool.h"
#include "reduce_ref.h"

/* The tool's own options (its --op, --type, --dist). */
typedef struct {
    const char *op, *type, *dist;
} args;

typedef struct {
    void *temp;
    size_t temp_bytes;
    const void *in;
    void *out;
    int n;
    reduce_kind kind;
} work;

template <typename T> static cudaError_t reduce_typed(const work *w, void *temp, size_t &temp_bytes)
{
    const T *in = (const T *)w->in;
    T *out = (T *)w->out;
    if (w->kind.op == REDUCE_SUM)
        return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, w->n);
    if (w->kind.op == REDUCE_MAX)
        return cub::DeviceReduce::Max(temp, temp_bytes, in, out, w->n);
    return cub::DeviceReduce::Min(temp, temp_bytes, in, out, w->n);
}

/* temp == NULL: only sets temp_bytes (CUB's size query). */
static cudaError_t reduce_cub(const work *w, void *temp, size_t &temp_bytes)
{
    return w->kind.type == REDUCE_FLOAT ? reduce_typed<float>(w, temp, temp_bytes)
                                        : reduce_typed<int>(w, temp, temp_bytes);
}

static void launch(void *ctx)
{
    const work *w = (const work *)ctx;
    size_t bytes = w->temp_bytes;
    CUDA_CHECK(reduce_cub(w, w->temp, bytes));
}

static int run_size(const lab_run *run, int64_t n, const void *ctx)
{
    const args *a = (const args *)ctx;
    static const char *const names[] = {"cub::DeviceReduce::Sum", "cub::DeviceReduce::Max", "cub::DeviceReduce::Min"};
    bench_check_size(n);
    work w;
    memset(&w, 0, sizeof w);
    if (reduce_parse_kind(a->op, a->type, &w.kind) != 0) {
        fprintf(stderr, "cub_reduce: --op must be sum, max or min and --type int or float (got %s, %s)\n", a->op,
                a->type);
        exit(LAB_EXIT_USAGE);
    }
    reduce_t *x = (reduce_t *)lab_xmalloc(sizeof(reduce_t) * (size_t)n);
    lab_rng rng = lab_rng_seeded(run->seed);
    if (reduce_make_input(a->dist, w.kind.type, &rng, x, n) != 0) {
        fprintf(stderr, "cub_reduce: unknown --dist %s (digits negative mixed uniform)\n", a->dist);
        exit(LAB_EXIT_USAGE);
    }
    reduce_ref_result ref;
    reduce_ref(w.kind, x, n, &ref);
    w.n = (int)n;
    w.in = lab_dev_upload(x, sizeof(reduce_t) * (size_t)n, "input");
    w.out = lab_dev_poisoned(sizeof(reduce_t), "output");
    CUDA_CHECK(reduce_cub(&w, NULL, w.temp_bytes));
    w.temp = lab_dev_poisoned(w.temp_bytes, "CUB temp");
    launch(&w);
    reduce_t got;
    lab_dev_download(&got, w.out, sizeof got);
    /* Float sums: CUB's order is its own; 2^16 sequential additions per
     * element bounds any tree it uses at these sizes, loosely but safely. */
    char why[256] = "";
    const int pass = reduce_check(w.kind, got, &ref, (int64_t)1 << 16, why, sizeof why);
    const lab_timing t = lab_time_device(launch, &w, run->reps);
    char params[96];
    snprintf(params, sizeof params, "op=%s type=%s dist=%s", reduce_op_name(w.kind.op), reduce_type_name(w.kind.type),
             a->dist);
    bench_report(run, names[w.kind.op], params, n, 4.0 * (double)n, t, pass, why);
    lab_dev_free((void *)w.in), lab_dev_free(w.out), lab_dev_free(w.temp);
    free(x);
    return pass;
}

int main(int argc, char **argv)
{
    args a = {.op = "sum", .type = "float", .dist = "digits"}; /* reduce_driver.c's default input */
    const lab_opt opts[] = {
        {.name = "--dist",
         .kind = LAB_ARG_NAME,
         .at = &a.dist,
         .names = reduce_dists,
         .metavar = "D",
         .help = "input distribution"},
        {.name = "--type",
         .kind = LAB_ARG_NAME,
         .at = &a.type,
         .names = reduce_all_types,
         .metavar = "T",
         .help = "element type"},
        {.name = "--op",
         .kind = LAB_ARG_NAME,
         .at = &a.op,
         .names = reduce_all_ops,
         .metavar = "OP",
         .help = "operator"},
    };
    return bench_main(argc, argv, "cub_reduce", "cub::DeviceReduce over -n sizes, on ./run's inputs.", opts,
                      (int)(sizeof opts / sizeof opts[0]), run_size, &a);
}
