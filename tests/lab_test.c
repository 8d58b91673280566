/* lab_test.c - shared test helpers. */
#include "lab_test.h"

const uint64_t lab_test_seeds[LAB_TEST_NSEEDS] = {20240601, 77, 4242};

void lab_test_need_gpu(void)
{
    char why[256];
    if (!lab_gpu_available(why, sizeof why))
        cr_skip_test("%s", why);
}
