/* Exercise: fill in each TODO; `make hint STEP=ch12-merge/step6` gives graded hints. */
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
    merge_path_pairs_float(const int *A, const int *A_values, int m, const int *B, const int *B_values, int n,
                           int *C, int *C_values, const int *part, int vector_ok)
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
    /* the caller's parameters are checked; the launch has this step's compile-time shape */
    const char *why = merge_check(&merge_step_info, a->m, a->n, a->is_float, has_values, p);
    merge_params shape = *p;
    shape.block = MP_THREADS, shape.coarsen = MP_ITEMS, shape.tile = MP_TILE, shape.grid = 0;
    const void *kernel = merge_kernel_for(has_values, a->is_float);
    const size_t shared = mp_shared_bytes(has_values);
    int ntiles = 0;
    merge_ws ws;
    if (why == NULL)
        why = merge_prepare(&merge_step_info, a, &shape, kernel, shared, &ntiles, &ws);
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

/* The workspace is laid out from p->tile (merge_temp_bytes): the partition of
 * this step's MP_TILE-output tiles fits when p->tile is at most MP_TILE. */
static const char *path_check(int64_t m, int64_t n, const merge_params *p)
{
    (void)m, (void)n;
    if (p->tile < 1 || p->tile > MP_TILE)
        return "merge_params.tile must be 1 to MP_TILE (MP_THREADS x MP_ITEMS): the workspace (merge_temp_bytes) "
               "holds a co-rank per tile boundary";
    return NULL;
}

#define MERGE_PATH_ABOUT_(threads, items)                                                                    \
    "Step 6 (beyond the book): merge path. A partition kernel co-ranks every tile boundary, then\n"          \
    "each block merges one tile of " #threads " threads x " #items " outputs, every thread's outputs in\n"   \
    "registers, stored in 16-byte writes. The shape is compile-time (MP_THREADS, MP_ITEMS in\n"              \
    "merge_path.cuh): this step takes no --block, --tile or --coarsen. Int or float keys (--type),\n"        \
    "with values unless --keys-only.\n"
#define MERGE_PATH_ABOUT(threads, items) MERGE_PATH_ABOUT_(threads, items)

const merge_step merge_step_info = {
    .defaults = {.block = MP_THREADS, .grid = 0, .tile = MP_TILE, .coarsen = MP_ITEMS, .printed = 0},
    .default_n = 1 << 24,
    .spec = {.options = LAB_OPT_M | LAB_OPT_DIST | LAB_OPT_TYPE | LAB_OPT_KEYS_ONLY,
             .dists = merge_dists,
             .types = merge_types,
             .max_n = MERGE_MAX_TOTAL,
             .about = MERGE_PATH_ABOUT(MP_THREADS, MP_ITEMS)},
    .max_n_why = MERGE_MAX_N_WHY,
    .block_need = LAB_BLOCK_ANY,
    .takes_values = 1,
    .tile_co_ranks = 1,
    .printed = 0,
    .check = path_check,
};
