/* lab_test.c - shared test helpers. */
#include "lab_test.h"

const uint64_t lab_test_seeds[LAB_TEST_NSEEDS] = {20240601, 77, 4242};

uint64_t lab_test_seed(int i)
{
    return lab_test_seeds[i % LAB_TEST_NSEEDS];
}

void lab_test_need_gpu(void)
{
    char why[256];
    if (!lab_gpu_available(why, sizeof why))
        cr_skip_test("%s", why);
}

/* A kernel wrote past the end of a buffer the test handed it: a failed test
 * that names the buffer and the offset (common/devmem.c finds it). */
void lab_dev_guard_failed(const char *why)
{
    cr_assert_fail("%s%s", why, lab_todo_note());
}

/* The test build runs under AddressSanitizer: CUDA maps memory where ASan's
 * shadow gap lies, and Criterion's runner is not ours to leak-check. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "protect_shadow_gap=0:detect_leaks=0:allocator_may_return_null=1";
}
