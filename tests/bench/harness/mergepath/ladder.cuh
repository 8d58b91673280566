/* ladder.cuh - tests/bench/harness/mergepath's ladder: ch12 step 6 (and ch13 step 8's merge
 * passes) rebuilt with one idea taken out at a time, to measure what each
 * gained (docs/ch12-merge.md, docs/ch13-merge-path-sort.md). Force-included before the
 * steps' own merge.cu and sort.cu (nvcc -include ladder.cuh), with switches:
 *   -DMP_NO_PARTITION     no partition kernel (the launchers skip it): two
 *                         threads of each block search the tile's bounds on
 *                         global memory first;
 *   -DMP_NO_STAGING       no shared-memory inputs: each thread searches and
 *                         merges straight from global memory;
 *   -DMP_NO_REGISTERS     step 5's way: each thread merges into a second shared
 *                         tile, a loop of run-time length (no outputs in
 *                         registers);
 *   -DMP_NO_VECTOR_STORES 4-byte stores instead of 16-byte ones.
 * It includes the step's merge_path.cuh with its merge_tile and
 * mp_shared_bytes renamed, and defines the variant merge_tile that the steps'
 * kernels then call. With no switch, merge_tile is the step's own. The block
 * sort of ch13 step 8 is not a merge tile: it stays as it is in every build. */
#ifndef MP_LADDER_CUH
#define MP_LADDER_CUH

#define merge_tile      merge_tile_step
#define mp_shared_bytes mp_shared_bytes_step
#include "merge_path.cuh"
#undef merge_tile
#undef mp_shared_bytes

#if defined(MP_NO_PARTITION) || defined(MP_NO_STAGING) || defined(MP_NO_REGISTERS) || defined(MP_NO_VECTOR_STORES)
#define MP_LADDER_VARIANT 1
#else
#define MP_LADDER_VARIANT 0
#endif

/* Without registers, staged inputs need a second shared tile for the outputs. */
#if defined(MP_NO_REGISTERS) && !defined(MP_NO_STAGING)
#define MP_BUFFERS 2
#else
#define MP_BUFFERS 1
#endif

static inline size_t mp_shared_bytes(int has_values)
{
    return mp_shared_bytes_step(has_values) * MP_BUFFERS;
}

#if MP_LADDER_VARIANT

/* Reads one past a range's end: in global memory they are skipped. */
#define MP_PEEK(X, at, end) ((at) < (end) ? (X)[at] : 0)

/* shared S[0, c_len) to out: the step's copy_out, or 4-byte words only */
static __device__ __forceinline__ void ladder_copy_out(const int *S, int *out, int c_len, const int vector_ok)
{
#ifdef MP_NO_VECTOR_STORES
    (void)vector_ok;
#pragma unroll 4
    for (int x = threadIdx.x; x < c_len; x += MP_THREADS)
        out[x] = S[x];
#else
    copy_out(S, out, c_len, vector_ok, MP_THREADS);
#endif
}

/* The register merge of A_s[a, a_end) and B_s[b, b_end) (two arrays: from
 * global memory without staging); from[] counts B's positions after A's
 * (b + b_shift). */
static __device__ __forceinline__ void ladder_merge_items(const int *A_s, int a, int a_end, const int *B_s, int b,
                                                          int b_end, int b_shift, int keys[MP_ITEMS],
                                                          int from[MP_ITEMS], const int key_type)
{
    int key_a = MP_PEEK(A_s, a, a_end), key_b = MP_PEEK(B_s, b, b_end);
#pragma unroll
    for (int i = 0; i < MP_ITEMS; i++) {
        const int take_b = b < b_end && (a >= a_end || key_less(key_b, key_a, key_type));
        keys[i] = take_b ? key_b : key_a;
        from[i] = take_b ? b + b_shift : a;
        if (take_b) {
            b++;
            key_b = MP_PEEK(B_s, b, b_end);
        } else {
            a++;
            key_a = MP_PEEK(A_s, a, a_end);
        }
    }
}

/* Without registers: the thread's outputs go straight into the shared output
 * tile O (and O_v), a loop of run-time length. */
static __device__ void ladder_merge_to_shared(const int *A_s, int a, int a_end, const int *B_s, int b, int b_end,
                                              const int *A_v, const int *B_v, int *O, int *O_v, int count,
                                              const int has_values, const int key_type)
{
    for (int k = 0; k < count; k++) {
        const int take_b = b < b_end && (a >= a_end || key_less(B_s[b], A_s[a], key_type));
        O[k] = take_b ? B_s[b] : A_s[a];
        if (has_values)
            O_v[k] = take_b ? B_v[b] : A_v[a];
        if (take_b)
            b++;
        else
            a++;
    }
}

/* The tile's bounds in A: the partition's, or searched here by two threads. */
static __device__ __forceinline__ void ladder_tile_inputs(const int *A, int m, const int *B, int n, int c_begin,
                                                          int c_len, const int *part, int *a_begin, int *a_end,
                                                          const int key_type)
{
#ifdef MP_NO_PARTITION
    __shared__ int bounds[2];
    if (threadIdx.x < 2)
        bounds[threadIdx.x] = merge_path_search(c_begin + threadIdx.x * c_len, A, m, B, n, key_type);
    __syncthreads();
    *a_begin = bounds[0];
    *a_end = bounds[1];
    (void)part;
#else
    *a_begin = part[0];
    *a_end = c_begin + c_len == m + n ? m : part[1];
    (void)B, (void)key_type;
#endif
}

#endif /* MP_LADDER_VARIANT */

/* The tile the steps' kernels merge: the step's own, or the variant. */
static __device__ __forceinline__ void merge_tile(const int *A, const int *A_values, int m, const int *B,
                                                  const int *B_values, int n, int *C, int *C_values, int c_begin,
                                                  int c_len, const int *part, const int has_values, const int key_type,
                                                  const int vector_ok)
{
#if !MP_LADDER_VARIANT
    merge_tile_step(A, A_values, m, B, B_values, n, C, C_values, c_begin, c_len, part, has_values, key_type, vector_ok);
#else
    extern __shared__ int4 mp_shared[];
    int *S = (int *)mp_shared, *S_v = S + MP_SLOTS;
    int a_begin, a_end;
    ladder_tile_inputs(A, m, B, n, c_begin, c_len, part, &a_begin, &a_end, key_type);
    const int b_begin = c_begin - a_begin, a_len = a_end - a_begin, b_len = c_len - a_len;
    const int diag = min((int)threadIdx.x * MP_ITEMS, c_len);
#ifdef MP_NO_STAGING
    const int *A_s = A + a_begin, *B_s = B + b_begin;
    const int a0 = merge_path_search(diag, A_s, a_len, B_s, b_len, key_type);
    const int b0 = diag - a0, b_end = b_len, b_shift = a_len;
#else
    load_tile(A + a_begin, A_values + a_begin, B + b_begin, B_values + b_begin, a_len, c_len, S, S_v, has_values);
    __syncthreads();
    const int *A_s = S, *B_s = S;
    const int a0 = merge_path_search(diag, S, a_len, S + a_len, b_len, key_type);
    const int b0 = a_len + diag - a0, b_end = c_len, b_shift = 0;
#endif
#ifdef MP_NO_REGISTERS
    const int skip = (MP_BUFFERS - 1) * (has_values ? 2 : 1) * MP_SLOTS; /* after the staged inputs, if any */
    int *O = S + skip, *O_v = S_v + skip;
#ifdef MP_NO_STAGING
    const int *Av_s = A_values + a_begin, *Bv_s = B_values + b_begin;
#else
    const int *Av_s = S_v, *Bv_s = S_v;
#endif
    (void)b_shift;
    ladder_merge_to_shared(A_s, a0, a_len, B_s, b0, b_end, Av_s, Bv_s, O + diag, O_v + diag,
                           min(MP_ITEMS, c_len - diag), has_values, key_type);
    __syncthreads();
    ladder_copy_out(O, C + c_begin, c_len, vector_ok);
    if (has_values)
        ladder_copy_out(O_v, C_values + c_begin, c_len, vector_ok);
#else
    int keys[MP_ITEMS], from[MP_ITEMS], values[MP_ITEMS];
    ladder_merge_items(A_s, a0, a_len, B_s, b0, b_end, b_shift, keys, from, key_type);
    if (has_values) {
#pragma unroll
        for (int i = 0; i < MP_ITEMS; i++) {
#ifdef MP_NO_STAGING
            const int f = from[i];
            values[i] = diag + i >= c_len ? 0 : f < a_len ? A_values[a_begin + f] : B_values[b_begin + f - a_len];
#else
            values[i] = S_v[from[i]];
#endif
        }
    }
    stage_thread_items(keys, values, S, S_v, has_values);
    ladder_copy_out(S, C + c_begin, c_len, vector_ok);
    if (has_values)
        ladder_copy_out(S_v, C_values + c_begin, c_len, vector_ok);
#endif
#endif
}

#endif
