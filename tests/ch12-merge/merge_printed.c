/* merge_printed.c - ch12's merge steps (2 on): the printed code. Each bug
 * of the book's figures that the step replays (merge_step_info.printed)
 * fails on its own input, which the fixed code merges (docs/errata.md).
 * Part of chapter 12's merge suite (tests/ch12-merge/merge.c), linked with
 * it into every merge step's test binary. */
#include <string.h>

#include "merge_test.h"

/* A counterexample to the printed tiled kernels (on Fig 12.13; errata): 2 blocks of 2 threads, tile 4. */
static const int cA[] = {0, 1, 4, 5, 5, 7, 8, 9}, cB[] = {1, 1, 3, 6, 6, 7, 9};

/* Wrong outputs of the step on these keys (tagged by origin) with p. */
static int64_t run_fixed(const int *keys_A, int m, const int *keys_B, int n, merge_params p)
{
    int A[16], B[16];
    char first[512];
    memcpy(A, keys_A, sizeof(int) * (size_t)m), memcpy(B, keys_B, sizeof(int) * (size_t)n);
    merge_tag(A, m, 0, MERGE_TAG_ORIGIN), merge_tag(B, n, 1, MERGE_TAG_ORIGIN);
    const merge_inputs in = {.m = m, .n = n, .tagged = MERGE_TAG_ORIGIN, .A = A, .B = B};
    return merge_errors(&in, &p, first, sizeof first);
}

/* The fixed code passes the input; with `bit` set, the printed code fails it
 * (when the step replays that bug at all). */
static void printed_fails(unsigned bit, const int *A, int m, const int *B, int n, merge_params p, const char *what)
{
    if (!(merge_step_info.printed & bit))
        return;
    cr_assert_eq(run_fixed(A, m, B, n, p), 0, "%s: the fixed code must merge this input%s", what, lab_todo_note());
    p.printed = (int)bit;
    cr_assert_neq(run_fixed(A, m, B, n, p), 0, "%s: the printed code must fail on this input", what);
}

/* The counterexample's launch: 2 blocks of 2 threads, tile 4. */
static const merge_params counter_p = {.block = 2, .grid = 2, .tile = 4, .coarsen = 4};

GPU_TEST(merge_printed, counterexample_passes_fixed_code)
{
    if (!step_takes(&counter_p))
        return; /* step 6: its shape is compile-time; its own tests run tiny merges */
    const merge_params p = counter_p;
    cr_assert_eq(run_fixed(cA, 8, cB, 7, p), 0,
                 "A=0,1,4,5,5,7,8,9 B=1,1,3,6,6,7,9 block=2 grid=2 tile=4: wrong merge%s", lab_todo_note());
}

GPU_TEST(merge_printed, printed_integer_ceil_loses_outputs)
{
    /* 15 outputs: over 2 blocks (steps 3, 4) (m+n)/gridDim.x = 7 leaves C[14] unwritten;
     * over 4 threads (step 2) (m+n)/(blockDim.x*gridDim.x) = 3 leaves C[12..14] */
    const merge_params p = counter_p;
    printed_fails(MERGE_PRINTED_CEIL, cA, 8, cB, 7, p, "A=0,1,4,5,5,7,8,9 B=1,1,3,6,6,7,9 block=2 grid=2 tile=4");
}

GPU_TEST(merge_printed, printed_consumed_count_reads_stale_tile)
{
    /* One block, tile 4: the second tile holds B = 5 then stale 2,3,4; the printed
     * co_rank(tile_size, A_S, tile_size, B_S, tile_size) counts 0 A consumed, not 3. */
    static const int A[] = {6, 7, 8, 9, 11, 12, 13, 14, 15, 16}, B[] = {1, 2, 3, 4, 5};
    const merge_params p = {.block = 2, .grid = 1, .tile = 4, .coarsen = 4};
    printed_fails(MERGE_PRINTED_CONSUMED, A, 10, B, 5, p, "A=6..9,11..16 B=1..5 block=2 grid=1 tile=4");
}

GPU_TEST(merge_printed, printed_loader_rereads_held_elements)
{
    const merge_params p = counter_p;
    printed_fails(MERGE_PRINTED_LOADER, cA, 8, cB, 7, p, "A=0,1,4,5,5,7,8,9 B=1,1,3,6,6,7,9 block=2 grid=2 tile=4");
}

GPU_TEST(merge_printed, printed_fix_slip_bounds_B_by_A_length)
{
    /* A has 2 elements: the slip's min(B_S_consumed, A_length - B_loaded) records 2 of B loaded, not 4 */
    static const int A[] = {1, 50}, B[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    const merge_params p = {.block = 2, .grid = 1, .tile = 4, .coarsen = 4};
    printed_fails(MERGE_PRINTED_NOTE_SLIP, A, 2, B, 10, p, "A=1,50 B=2..11 block=2 grid=1 tile=4");
}
