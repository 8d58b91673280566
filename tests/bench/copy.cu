/* copy.cu - the bandwidth ceiling of `make bench`: cudaMemcpyAsync device to
 * device of n 4-byte elements, timed like ./run. Effective bytes: 8 per
 * element (read once, written once), so its GB/s is the most any step that
 * moves its bytes once can reach. */
#include "bench_tool.h"

typedef struct {
    const void *src;
    void *dst;
    size_t bytes;
} work;

static void launch(void *ctx)
{
    const work *w = (const work *)ctx;
    CUDA_CHECK(cudaMemcpyAsync(w->dst, w->src, w->bytes, cudaMemcpyDeviceToDevice, 0));
}

static int run_size(const lab_opts *o, int64_t n, const void *ctx)
{
    (void)ctx;
    bench_check_size(n);
    const size_t bytes = sizeof(uint32_t) * (size_t)n;
    uint32_t *x = (uint32_t *)lab_xmalloc(bytes), *y = (uint32_t *)lab_xmalloc(bytes);
    lab_rng rng = lab_rng_seeded(o->seed);
    for (int64_t i = 0; i < n; i++)
        x[i] = (uint32_t)lab_rng_next(&rng) | 1u; /* never zero */
    work w = {lab_dev_upload(x, bytes, "src"), lab_dev_poisoned(bytes, "dst"), bytes};
    launch(&w);
    lab_dev_download(y, w.dst, bytes);
    const int pass = memcmp(x, y, bytes) == 0;
    const lab_timing t = lab_time_device(launch, &w, o->reps);
    bench_report(o, "copy", "elem=4B", n, 2.0 * (double)bytes, t, pass, "the copy differs from its source");
    lab_dev_free((void *)w.src), lab_dev_free(w.dst);
    free(x), free(y);
    return pass;
}

int main(int argc, char **argv)
{
    lab_opts o = lab_opts_defaults();
    lab_opt_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.about = "cudaMemcpyAsync device to device of -n 4-byte elements: the bandwidth ceiling.";
    return bench_main(argc, argv, &o, &spec, "copy", run_size, NULL);
}
