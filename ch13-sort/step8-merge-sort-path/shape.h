/* shape.h - ch13 step 8's shape, the one fact sort.cu and the speed
 * harness (tests/bench/harness/mergepath, which includes it before chapter
 * 12's merge_path.cuh reads MP_THREADS and MP_ITEMS) both take: the merges'
 * tile (MP_THREADS x MP_ITEMS) and the block sort's block (BLOCK_SORT_THREADS).
 * A build may set any of them with -D. */
#ifndef SORT_SHAPE_H
#define SORT_SHAPE_H

/* The shape, measured beside cub::DeviceMergeSort on an H100 (tests/bench/harness/mergepath's
 * sortspeed, 2026-11-27, 2^26 int keys; its builds set their own), by the shared memory a block
 * of the build's GPU may take (launch.h): 1024 x 17 block sorts need 136 KiB for pairs (A100,
 * H100), 512 x 17 68 KiB (sm_86, sm_89, sm_120: 99), chapter 12's 512 x 15 60 KiB (sm_75: 64; and
 * a build for several GPUs at once). Keys live in registers: compile-time; the result line prints it. */
#include "launch.h"
#if LAB_SHARED_OPTIN_KIB >= 136
#define SORT_SHAPE_ITEMS 17   /* 512 x 17 merges alone: 1.001x CUB's keys, 1.033x pairs */
#define SORT_SHAPE_BLOCK 1024 /* 17408-key block sorts, two merge tiles: a pass fewer; 1.028x keys, 1.042x pairs */
#elif LAB_SHARED_OPTIN_KIB >= 70
#define SORT_SHAPE_ITEMS 17
#define SORT_SHAPE_BLOCK 512
#else
#define SORT_SHAPE_ITEMS 15 /* ch12 step 6's: 0.938x keys, 0.924x pairs */
#define SORT_SHAPE_BLOCK 512
#endif
#ifndef MP_THREADS
#define MP_THREADS 512 /* the merge passes' block */
#endif
#ifndef MP_ITEMS
#define MP_ITEMS SORT_SHAPE_ITEMS /* keys a thread, both kernels */
#endif
#ifndef BLOCK_SORT_THREADS
#define BLOCK_SORT_THREADS SORT_SHAPE_BLOCK /* the block sort's block */
#endif

#endif
