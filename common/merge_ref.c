/* merge_ref.c - chapter 12's CPU reference and input generators. */
#include "merge.h"

#include <string.h>

const char *const merge_dists[] = {"uniform", "equal", "a-below", "a-above", "interleaved", "dups", NULL};

/* Sorted keys from `first`, rising by `rise` per element on average, by a
 * random 0, 1, 2, ... so that ties occur. */
static void sorted_keys(int *X, int len, lab_rng *rng, int first, double rise)
{
    int key = first;
    for (int i = 0; i < len; i++) {
        X[i] = key;
        key += rise < 1.0 ? (lab_rng_unit(rng) < rise) : (int)lab_rng_below(rng, (uint32_t)(2.0 * rise));
    }
}

static void tag(int *X, int len, int tag_base)
{
    for (int i = 0; i < len; i++)
        X[i] = (X[i] << 8) | tag_base | (i & 0x7f);
}

int merge_make_inputs(const char *dist, lab_rng *rng, int *A, int m, int *B, int n, int tagged)
{
    const int64_t limit = tagged ? (1 << 23) - 2 : (1 << 30);
    const int64_t total = (int64_t)m + n;
    /* mean rise per element so the keys of one array stay below limit */
    /* mean rise per element; a rise is at most twice the mean, so keys stay below 0.9 * limit */
    const double step = total > 0 ? 0.45 * (double)limit / (double)total : 1.0;
    if (strcmp(dist, "uniform") == 0) {
        sorted_keys(A, m, rng, 1, step);
        sorted_keys(B, n, rng, 1, step);
    } else if (strcmp(dist, "equal") == 0) {
        for (int i = 0; i < m; i++)
            A[i] = 7;
        for (int j = 0; j < n; j++)
            B[j] = 7;
    } else if (strcmp(dist, "a-below") == 0 || strcmp(dist, "a-above") == 0) {
        int *low = dist[2] == 'b' ? A : B, *high = dist[2] == 'b' ? B : A;
        const int low_len = dist[2] == 'b' ? m : n, high_len = dist[2] == 'b' ? n : m;
        sorted_keys(low, low_len, rng, 1, step);
        const int top = low_len > 0 ? low[low_len - 1] : 1;
        sorted_keys(high, high_len, rng, top + 1, step); /* strictly above every low key */
    } else if (strcmp(dist, "interleaved") == 0) {
        /* A odd, B even: the two arrays alternate (q > 1 only when too long to fit) */
        const int64_t q = (m > n ? m : n) / (limit / 2 - 1) + 1;
        for (int i = 0; i < m; i++)
            A[i] = 1 + 2 * (int)(i / q);
        for (int j = 0; j < n; j++)
            B[j] = 2 + 2 * (int)(j / q);
    } else if (strcmp(dist, "dups") == 0) {
        /* twelve distinct keys: long runs of ties that straddle tiles and blocks */
        for (int i = 0; i < m; i++)
            A[i] = 1 + (int)(i * (int64_t)12 / m);
        for (int j = 0; j < n; j++)
            B[j] = 1 + (int)(j * (int64_t)12 / n);
    } else {
        return -1;
    }
    if (tagged) {
        tag(A, m, 0x00);
        tag(B, n, 0x80);
    }
    return 0;
}

int merge_default_grid(int64_t total, const merge_params *p)
{
    const int64_t per_block = (int64_t)p->block * p->coarsen;
    const int64_t grid = (total + per_block - 1) / per_block;
    return grid > 0 ? (int)grid : 1;
}

const char *merge_check_params(const merge_params *p, int64_t total, int *grid)
{
    if (p->block < 1 || p->block > 1024)
        return "block must be 1 to 1024 threads";
    if (p->coarsen < 1 || p->grid < 0)
        return "coarsen must be at least 1 and grid not negative";
    if (total > MERGE_MAX_TOTAL)
        return "m + n must stay below 2^31 (int indices, as in the book)";
    *grid = p->grid > 0 ? p->grid : merge_default_grid(total, p);
    return NULL;
}

const char *merge_fit_shared(const void *kernel, size_t shared)
{
    int dev = 0, max_shared = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (shared > (size_t)max_shared)
        return "tile too large for the block's shared memory";
    if (shared > 48 * 1024) /* above 48 KB a kernel must opt in */
        CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
    return NULL;
}
