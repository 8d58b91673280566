/* Exercise: fill in each TODO; `make hint STEP=ch12-merge/step6` gives graded hints. */
/* merge_path.cuh - ch12 step 6 (beyond the book): the merge path inside one
 * tile, in registers; the device helpers of this step's merge (merge.cu) and
 * of chapter 13's merge sort at CUB's speed (ch13 step 8 includes this file,
 * the solution's, never a copy).
 * A tile of MP_TILE outputs is merged by MP_THREADS threads, MP_ITEMS outputs
 * each (the shape of CUB's sm90 merge), in phases:
 *   merge_path_search   chapter 12's co_rank, written as one binary search
 *                       along a cross diagonal (the merge path): the
 *                       partition of the tiles and each thread's start;
 *   load_tile           the tile's exact inputs (step 5's idea) into shared
 *                       memory, MP_ITEMS loads per thread in flight at once,
 *                       each with L2's 256-byte prefetch (load_prefetch_256);
 *   merge_thread_items  MP_ITEMS outputs in registers, a fixed count fully
 *                       unrolled: one comparison and one shared read each;
 *   store_tile          registers to shared memory, then to C in coalesced
 *                       16-byte stores.
 * Ties take A first (stable). Keys compare as int (through MERGE_KEY: the
 * tests' origin tags, merge.h), float (by value) or unsigned (chapter 13's
 * transformed keys), chosen by a constant argument of the inlined bodies, so
 * each kernel has one comparison and no second copy of the code.
 * Papers: O. Green, R. McColl, D. A. Bader, "GPU Merge Path - A GPU Merging
 * Algorithm", ICS 2012; S. Odeh, O. Green, Z. Mwassi, O. Shmueli, Y. Birk,
 * "Merge Path - Parallel Merging Made Simple", IPDPS Workshops 2012. */
#ifndef MERGE_PATH_CUH
#define MERGE_PATH_CUH

#include "launch.h"
#include "merge.h"

/* Threads per block and outputs per thread (compile-time: the outputs live in
 * registers); a tile is their product. MP_ITEMS odd: a thread's MP_ITEMS
 * consecutive shared words fall in distinct banks, so do the warp's. */
#ifndef MP_THREADS
#define MP_THREADS 512
#endif
#ifndef MP_ITEMS
#define MP_ITEMS 15
#endif
#define MP_TILE (MP_THREADS * MP_ITEMS)
#if MP_TILE % 4 != 0
#error "MP_THREADS * MP_ITEMS must be a multiple of 4: tiles start on 16-byte boundaries"
#endif
/* One shared array of a tile: the tile, and slack the register merge may read
 * (never use) past its last input, rounded up to whole int4s. */
#define MP_SLOTS ((MP_TILE + MP_ITEMS + 1 + 3) / 4 * 4)

/* The key types: a constant argument, so the unused comparisons vanish. */
enum { MP_INT = 0, MP_FLOAT = 1, MP_UINT = 2 };

/* The resident threads an SM of the architecture being compiled holds (launch.h). */
#define MP_SM_THREADS LAB_SM_THREADS

/* Keys kernels are compiled for a full SM (on sm_90, 2048 threads: 32
 * registers each, four blocks of 512); asking more blocks than the SM holds
 * would only be ignored, with a warning. Pairs kernels take what they need
 * (two blocks of 512 per SM). Compile-time, as the shape: -DMP_KEYS_BLOCKS=2
 * gives each keys thread up to 64 registers instead. */
#ifndef MP_KEYS_BLOCKS
#define MP_KEYS_BLOCKS (MP_SM_THREADS / MP_THREADS > 0 ? MP_SM_THREADS / MP_THREADS : 1)
#endif

/* A merge tile's shared memory: one array of keys (and one of values). */
static inline size_t mp_shared_bytes(int has_values)
{
    return sizeof(int) * (size_t)MP_SLOTS * (has_values ? 2 : 1);
}

/* 1 when p is 16-byte aligned, as the vector stores need (NULL is: nothing is stored through it). */
static inline int mp_aligned16(const void *p)
{
    return ((uintptr_t)p & 15) == 0;
}

/* b's key is strictly below a's. B goes before A only then: that is the
 * whole of stability. */
static __device__ __forceinline__ int key_less(int b, int a, const int key_type)
{
    if (key_type == MP_FLOAT)
        return __int_as_float(b) < __int_as_float(a);
    if (key_type == MP_UINT)
        return (unsigned int)b < (unsigned int)a;
    return MERGE_KEY(b) < MERGE_KEY(a);
}

/* The merge path (Green et al.; Odeh et al.): how many of A are among the
 * first diag outputs of the stable merge of A[0,m) and B[0,n). Fig 12.5's
 * co_rank, as one binary search on the cross diagonal i + j = diag. */
static __device__ __forceinline__ int merge_path_search(int diag, const int *A, int m, const int *B, int n,
                                                        const int key_type)
{
    /* TODO(1): the merge path: binary search for i in [max(0, diag - n), min(diag, m)], the number
       of A's among the first diag outputs: A[mid] is among them unless B's key beside it on the
       diagonal, B[diag - 1 - mid], is strictly less (key_less); return i */
    (void)A, (void)B, (void)n, (void)key_type;
    return diag < m ? diag : m;
}

/* One global load through the read-only path, asking L2 to fetch the whole
 * 256-byte block around it (PTX ld.global.nc.L2::256B): a warp's 128-byte
 * load then brings in the next one too. Measured on one H100 (2026-11-27,
 * a sweep beside CUB, 2^27 + 2^27 int keys): 0.979x -> 1.008x CUB. */
static __device__ __forceinline__ int load_prefetch_256(const int *p)
{
#if __CUDA_ARCH__ >= 800
    int v;
    asm("ld.global.nc.L2::256B.s32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
#else
    return *p; /* the hint needs sm_80: a plain load on sm_75 */
#endif
}

/* The tile's inputs into shared S[0, c_len): A's a_len first, then B's (and
 * their values into S_v). Striped, so each load instruction of a warp reads
 * 128 contiguous bytes; all MP_ITEMS loads are issued before the first shared
 * store, so each thread has many in flight. */
static __device__ __forceinline__ void load_tile(const int *A, const int *A_values, const int *B, const int *B_values,
                                                 int a_len, int c_len, int *S, int *S_v, const int has_values)
{
    int k[MP_ITEMS], v[MP_ITEMS];
#pragma unroll
    for (int i = 0; i < MP_ITEMS; i++) {
        const int at = i * MP_THREADS + threadIdx.x;
        k[i] = v[i] = 0; /* defined everywhere: ptxas then keeps them all in registers */
        if (at < c_len) {
            k[i] = at < a_len ? load_prefetch_256(A + at) : load_prefetch_256(B + at - a_len);
            if (has_values)
                v[i] = at < a_len ? load_prefetch_256(A_values + at) : load_prefetch_256(B_values + at - a_len);
        }
    }
#pragma unroll
    for (int i = 0; i < MP_ITEMS; i++) {
        const int at = i * MP_THREADS + threadIdx.x;
        if (at < c_len) {
            S[at] = k[i];
            if (has_values)
                S_v[at] = v[i];
        }
    }
}

/* The register merge: MP_ITEMS outputs of merging S[a, a_end) with S[b, b_end)
 * into keys[], and the position in S each came from into from[] (for the
 * values). Past both ends (a partial tile) the outputs are junk no one stores. */
static __device__ __forceinline__ void merge_thread_items(const int *S, int a, int a_end, int b, int b_end,
                                                          int keys[MP_ITEMS], int from[MP_ITEMS], const int key_type)
{
    /* TODO(2): the register merge: exactly MP_ITEMS outputs, keys[i] and from[i] (its position in
       S), from the two fronts S[a] and S[b]: output i takes B's front when b < b_end and (a >=
       a_end or B's key is strictly less: key_less), else A's; ties take A first */
    (void)a_end, (void)b, (void)b_end, (void)key_type;
    for (int i = 0; i < MP_ITEMS; i++) {
        keys[i] = S[a + i];
        from[i] = a + i;
    }
}

/* Each thread's MP_ITEMS outputs (and values) into S at threadIdx.x * MP_ITEMS,
 * in output order, once every thread is done reading S. */
static __device__ __forceinline__ void stage_thread_items(const int keys[MP_ITEMS], const int values[MP_ITEMS], int *S,
                                                          int *S_v, const int has_values)
{
    __syncthreads(); /* every thread is done reading what S holds */
#pragma unroll
    for (int i = 0; i < MP_ITEMS; i++) {
        S[threadIdx.x * MP_ITEMS + i] = keys[i];
        if (has_values)
            S_v[threadIdx.x * MP_ITEMS + i] = values[i];
    }
    __syncthreads(); /* the whole tile is staged */
}

/* Shared S[0, c_len) to out[0, c_len), coalesced: 16-byte stores when out is
 * 16-byte aligned (vector_ok), 4-byte words for the rest. threads: the
 * block's, a literal at each call (MP_THREADS here; ch13 step 8's block sort
 * passes its own), so the loops' stride is compile-time. */
static __device__ __forceinline__ void copy_out(const int *S, int *out, int c_len, const int vector_ok,
                                                const int threads)
{
    int done = 0;
    if (vector_ok) {
        const int4 *S4 = (const int4 *)S;
        int4 *out4 = (int4 *)out;
        done = c_len & ~3;
#pragma unroll 4
        for (int x = threadIdx.x; x < (c_len >> 2); x += threads)
            out4[x] = S4[x];
    }
#pragma unroll 4
    for (int x = done + threadIdx.x; x < c_len; x += threads)
        out[x] = S[x];
}

/* Registers to global memory: staged in S in output order (the inputs there
 * are dead), then copied out in wide, coalesced stores. */
static __device__ __forceinline__ void store_tile(const int keys[MP_ITEMS], const int values[MP_ITEMS], int *S,
                                                  int *S_v, int *C, int *C_values, int c_len, const int has_values,
                                                  const int vector_ok)
{
    stage_thread_items(keys, values, S, S_v, has_values);
    copy_out(S, C, c_len, vector_ok, MP_THREADS);
    if (has_values)
        copy_out(S_v, C_values, c_len, vector_ok, MP_THREADS);
}

/* One tile: outputs C[c_begin, c_begin + c_len) of the stable merge of A[0,m)
 * and B[0,n), values moved with their keys when has_values. part points at
 * the partition's entry for this tile: part[0] A's where the tile starts,
 * part[1] where it ends (the merge's last tile ends at m). The body of every
 * merge kernel of this step and of chapter 13 step 8's merge passes. */
static __device__ __forceinline__ void merge_tile(const int *A, const int *A_values, int m, const int *B,
                                                  const int *B_values, int n, int *C, int *C_values, int c_begin,
                                                  int c_len, const int *part, const int has_values, const int key_type,
                                                  const int vector_ok)
{
    extern __shared__ int4 mp_shared[];
    int *S = (int *)mp_shared, *S_v = S + MP_SLOTS; /* keys, then values */
    const int a_begin = part[0];
    const int a_end = c_begin + c_len == m + n ? m : part[1];
    const int a_len = a_end - a_begin, b_begin = c_begin - a_begin;
    load_tile(A + a_begin, A_values + a_begin, B + b_begin, B_values + b_begin, a_len, c_len, S, S_v, has_values);
    __syncthreads(); /* the tile is staged before anyone searches it */
    /* S holds A's part, then B's: this thread's outputs start diag into the tile */
    const int diag = min((int)threadIdx.x * MP_ITEMS, c_len);
    const int a = merge_path_search(diag, S, a_len, S + a_len, c_len - a_len, key_type);
    int keys[MP_ITEMS], from[MP_ITEMS], values[MP_ITEMS];
    merge_thread_items(S, a, a_len, a_len + diag - a, c_len, keys, from, key_type);
    if (has_values) {
#pragma unroll
        for (int i = 0; i < MP_ITEMS; i++)
            values[i] = S_v[from[i]]; /* the value staged beside the key the merge took */
    }
    store_tile(keys, values, S, S_v, C + c_begin, C_values + c_begin, c_len, has_values, vector_ok);
}

#endif
