/* merge.cu - ch12 step 6 (beyond the book): step 5's exact tiles, with each
 * thread merging a fixed number of outputs in registers and each tile
 * leaving in 16-byte stores: the merge at CUB's speed.
 * Beyond the book: the merge path of Green, McColl and Bader (ICS 2012) and
 * Odeh et al. (IPDPS Workshops 2012), the tile shape of CUB's DeviceMerge.
 * Two kernels, as in step 5:
 *   partition_tiles  one thread per tile boundary t * MP_TILE finds where the
 *                    merge path crosses it (merge_path_search): every block
 *                    starts with its exact inputs;
 *   merge_path_*     one block per tile: merge_path.cuh's merge_tile (load_tile,
 *                    merge_path_search, merge_thread_items, store_tile).
 * Keys are int or float, keys alone or with values: four thin kernels around
 * one inlined body, each with its key type and values as constants. The
 * tile's shape, MP_THREADS x MP_ITEMS, is compile-time (merge_path.cuh). */
#include "merge_host.h"
#include "merge_path.cuh"

/* One thread per tile boundary t (0..ntiles): part[t] = how many of A the
 * first t * MP_TILE outputs hold (part[ntiles] = m). */
__global__ void partition_tiles(const int *A, int m, const int *B, int n, int ntiles, int *part, int key_type)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t <= ntiles) {
        const int diag = (int)min((int64_t)t * MP_TILE, (int64_t)m + n);
        part[t] = merge_path_search(diag, A, m, B, n, key_type);
    }
}

/* Block b merges tile b: outputs [b * MP_TILE, + MP_TILE), fewer in the last. */
static __device__ __forceinline__ void merge_path_body(const int *A, const int *A_values, int m, const int *B,
                                                       const int *B_values, int n, int *C, int *C_values,
                                                       const int *part, const int has_values, const int key_type,
                                                       const int vector_ok)
{
    const int64_t c_begin = (int64_t)blockIdx.x * MP_TILE;
    const int c_len = (int)min((int64_t)MP_TILE, (int64_t)m + n - c_begin);
    merge_tile(A, A_values, m, B, B_values, n, C, C_values, (int)c_begin, c_len, part + blockIdx.x, has_values,
               key_type, vector_ok);
}

__global__ void __launch_bounds__(MP_THREADS, MP_KEYS_BLOCKS)
    merge_path_keys_int(const int *A, int m, const int *B, int n, int *C, const int *part, int vector_ok)
{
    merge_path_body(A, NULL, m, B, NULL, n, C, NULL, part, 0, MP_INT, vector_ok);
}

__global__ void __launch_bounds__(MP_THREADS, MP_KEYS_BLOCKS)
    merge_path_keys_float(const int *A, int m, const int *B, int n, int *C, const int *part, int vector_ok)
{
    merge_path_body(A, NULL, m, B, NULL, n, C, NULL, part, 0, MP_FLOAT, vector_ok);
}

__global__ void __launch_bounds__(MP_THREADS)
    merge_path_pairs_int(const int *A, const int *A_values, int m, const int *B, const int *B_values, int n, int *C,
                         int *C_values, const int *part, int vector_ok)
{
    merge_path_body(A, A_values, m, B, B_values, n, C, C_values, part, 1, MP_INT, vector_ok);
}

__global__ void __launch_bounds__(MP_THREADS)
    merge_path_pairs_float(const int *A, const int *A_values, int m, const int *B, const int *B_values, int n, int *C,
                           int *C_values, const int *part, int vector_ok)
{
    merge_path_body(A, A_values, m, B, B_values, n, C, C_values, part, 1, MP_FLOAT, vector_ok);
}

/* ---- the launcher ------------------------------------------------------------ */

static const void *merge_kernel_for(int has_values, int is_float)
{
    if (has_values)
        return is_float ? (const void *)merge_path_pairs_float : (const void *)merge_path_pairs_int;
    return is_float ? (const void *)merge_path_keys_float : (const void *)merge_path_keys_int;
}

const char *merge_launch(const merge_args *a, const merge_params *p)
{
    const int has_values = a->C_values != NULL;
    const void *kernel = merge_kernel_for(has_values, a->is_float);
    const size_t shared = mp_shared_bytes(has_values);
    int ntiles = 0; /* merge_grid of this step's shape (path_check): one block per tile */
    merge_ws ws;
    const char *why = merge_prepare(&merge_step_info, a, p, kernel, shared, &ntiles, &ws);
    if (why != NULL || ntiles == 0)
        return why;
    const int m = (int)a->m, n = (int)a->n, vector_ok = mp_aligned16(a->C) && mp_aligned16(a->C_values);
    int *part = ws.tile_co_ranks;
#ifndef MP_NO_PARTITION /* tests/bench/harness/mergepath's ladder: blocks search their own bounds (docs/ch12-merge.md) */
    partition_tiles<<<ceil_div((int64_t)ntiles + 1, 256), 256>>>(a->A, m, a->B, n, ntiles, part,
                                                                 a->is_float ? MP_FLOAT : MP_INT);
    CUDA_CHECK_LAUNCH();
#endif
    if (!has_values && !a->is_float)
        merge_path_keys_int<<<ntiles, MP_THREADS, shared>>>(a->A, m, a->B, n, a->C, part, vector_ok);
    else if (!has_values)
        merge_path_keys_float<<<ntiles, MP_THREADS, shared>>>(a->A, m, a->B, n, a->C, part, vector_ok);
    else if (!a->is_float)
        merge_path_pairs_int<<<ntiles, MP_THREADS, shared>>>(a->A, a->A_values, m, a->B, a->B_values, n, a->C,
                                                             a->C_values, part, vector_ok);
    else
        merge_path_pairs_float<<<ntiles, MP_THREADS, shared>>>(a->A, a->A_values, m, a->B, a->B_values, n, a->C,
                                                               a->C_values, part, vector_ok);
    CUDA_CHECK_LAUNCH();
    return NULL;
}

/* ---- what ./run and the tests ask of this step ---------------------------------- */

/* The launch has this step's compile-time shape, MP_THREADS x MP_ITEMS (merge_path.cuh):
 * merge_params must say so, and then lays out the workspace (a co-rank per tile boundary). */
static const char *path_check(int64_t m, int64_t n, const merge_params *p)
{
    (void)m, (void)n;
    if (p->block != MP_THREADS || p->coarsen != MP_ITEMS || p->tile != MP_TILE || p->grid != 0)
        return "merge_params must be this step's compile-time shape, its defaults: block MP_THREADS, coarsen "
               "MP_ITEMS, tile MP_THREADS x MP_ITEMS, grid 0 (merge_path.cuh)";
    return NULL;
}

/* MP_THREADS and MP_ITEMS in --help, as built. */
#define MP_STR_(x) #x
#define MP_STR(x)  MP_STR_(x)

/* Step 6's facts for ./run and the tests (merge.h) */
const merge_step merge_step_info = {
    .lab =
        {.about =
             "Step 6 (beyond the book): merge path. A partition kernel co-ranks every tile boundary, then\n"
             "each block merges one tile of " MP_STR(MP_THREADS) " threads x " MP_STR(
                 MP_ITEMS) " outputs, every thread's outputs in\n"
                           "registers, stored in 16-byte writes. The shape is compile-time (MP_THREADS, MP_ITEMS in\n"
                           "merge_path.cuh): this step takes no --block, --tile or --coarsen. Int or float keys "
                           "(--type),\n"
                           "with values unless --keys-only.\n",
         .default_n = MERGE_DEFAULT_TOTAL,
         .max_n = MERGE_MAX_TOTAL,
         .max_n_why = MERGE_MAX_N_WHY},
    .takes = MERGE_TAKES_M | MERGE_TAKES_DIST | MERGE_TAKES_TYPE,
    .defaults = {.block = MP_THREADS, .tile = MP_TILE, .coarsen = MP_ITEMS},
    .takes_values = 1,
    .tile_co_ranks = 1,
    .check = path_check,
};
