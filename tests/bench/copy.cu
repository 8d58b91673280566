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

static int run_size(const lab_run *run, int64_t n, const void *ctx)
{
    (void)ctx;
    bench_check_size(n);
    const size_t bytes = sizeof(uint32_t) * (size_t)n;
    uint32_t *x = (uint32_t *)lab_xmalloc(bytes), *y = (uint32_t *)lab_xmalloc(bytes);
    lab_rng rng = lab_rng_seeded(run->seed);
    for (int64_t i = 0; i < n; i++)
        x[i] = (uint32_t)lab_rng_next(&rng) | 1u; /* never zero */
    work w = {.src = lab_dev_upload(x, bytes, "src"), .dst = lab_dev_poisoned(bytes, "dst"), .bytes = bytes};
    launch(&w);
    lab_dev_download(y, w.dst, bytes);
    const int pass = memcmp(x, y, bytes) == 0;
    const lab_timing t = lab_time_device(launch, &w, run->reps);
    bench_report(run, "copy", "elem=4B", n, 2.0 * (double)bytes, t, pass, "the copy differs from its source");
    lab_dev_free((void *)w.src), lab_dev_free(w.dst);
    free(x), free(y);
    return pass;
}

int main(int argc, char **argv)
{
    return bench_main(argc, argv, "copy",
                      "cudaMemcpyAsync device to device of -n 4-byte elements: the bandwidth ceiling.", NULL, 0,
                      run_size, NULL);
}
