# candidates.mk - tests/bench/harness/mergepath's candidates for ch13 step 8 (sortspeed.cu).
# CAND_BUILDS: builds of cand.cu (the step's sort.cu, included). `step` is the step as it is
# (sort.cu's own shape: block sort 1024 x 17, merges 512 x 17, since 2026-11-27); every other
# build is one tile shape (threads x keys a thread) for both the block sort and the merges, and
# the __launch_bounds__ min blocks of its keys kernels (k; the step's: SORT_SM_THREADS / threads,
# 32 registers) and pairs kernels (p; the step's: none); k1 or p1: registers unbounded. 512x15
# is the step's shape before 2026-11-27 (ch12 step 6's).
CAND_BUILDS = step 512x15 512x15k2 512x15k3 512x15p3 512x13 512x11 512x17 512x17k3 512x17k2 512x19k3 \
              512x23k2 256x17 256x17k1 256x15 1024x15 1024x17 1024x17k1 1024x11
one_shape = -DMP_THREADS=$(1) -DMP_ITEMS=$(2) -DBLOCK_SORT_THREADS=$(1)
C_step     =
C_512x15   = $(call one_shape,512,15)
C_512x15k2 = $(call one_shape,512,15) -DCAND_KEYS_BLOCKS=2
C_512x15k3 = $(call one_shape,512,15) -DCAND_KEYS_BLOCKS=3
C_512x15p3 = $(call one_shape,512,15) -DCAND_PAIRS_BLOCKS=3
C_512x13   = $(call one_shape,512,13)
C_512x11   = $(call one_shape,512,11)
C_512x17   = $(call one_shape,512,17)
C_512x17k3 = $(call one_shape,512,17) -DCAND_KEYS_BLOCKS=3
C_512x17k2 = $(call one_shape,512,17) -DCAND_KEYS_BLOCKS=2
C_512x19k3 = $(call one_shape,512,19) -DCAND_KEYS_BLOCKS=3
C_512x23k2 = $(call one_shape,512,23) -DCAND_KEYS_BLOCKS=2
C_256x17   = $(call one_shape,256,17)
C_256x17k1 = $(call one_shape,256,17) -DCAND_KEYS_BLOCKS=1
C_256x15   = $(call one_shape,256,15)
C_1024x15  = $(call one_shape,1024,15)
C_1024x17  = $(call one_shape,1024,17)
C_1024x17k1 = $(call one_shape,1024,17) -DCAND_KEYS_BLOCKS=1
C_1024x11  = $(call one_shape,1024,11)

# CAND_ROWS: what sortspeed runs, in order, each BUILD or SORT>MERGE (the block sort by one
# build, the merge passes by another whose tile divides it by 2^k: k fewer merge passes), then
# +w (the partition a warp a tile) and +1t (the pairs merge through one shared tile, as CUB).
# First the step (its own shape: the same kernels as 1024x17>512x17), then the shapes and bounds
# (CUB's own on sm_90, Policy600, is 256 x 17), then larger block sorts, then +w and +1t on the
# likely ones.
CAND_ROWS = step 512x15 512x15k2 512x15k3 512x15p3 512x13 512x11 512x17 512x17k3 512x17k2 512x19k3 \
            512x23k2 256x17 256x17k1 256x15 1024x15 1024x11 1024x17 1024x17k1 \
            1024x15>512x15 1024x17>512x17 1024x17>512x17k3 1024x17>256x17k1 512x17>256x17k1 \
            512x15+w 512x17+w 1024x17>512x17+w 512x15+1t 512x17+1t 1024x17>512x17+w+1t 256x17k1+w+1t
