# candidates.mk - tests/bench/harness/mergepath's candidates for ch13 step 8 (sortspeed.cu).
# CAND_BUILDS: builds of cand.cu (the step's sort.cu, included), each a tile shape (threads x
# keys a thread) and the __launch_bounds__ min blocks of its keys kernels (k; the step's:
# SORT_SM_THREADS / threads, 32 registers) and pairs kernels (p; the step's: none); k1 or p1:
# registers unbounded. 512x15 is the step as it is.
CAND_BUILDS = 512x15 512x15k2 512x15k3 512x15p3 512x13 512x11 512x17 512x17k3 512x17k2 512x19k3 \
              512x23k2 256x17 256x17k1 256x15 1024x15 1024x17 1024x17k1 1024x11
C_512x15   = -DMP_THREADS=512 -DMP_ITEMS=15
C_512x15k2 = -DMP_THREADS=512 -DMP_ITEMS=15 -DCAND_KEYS_BLOCKS=2
C_512x15k3 = -DMP_THREADS=512 -DMP_ITEMS=15 -DCAND_KEYS_BLOCKS=3
C_512x15p3 = -DMP_THREADS=512 -DMP_ITEMS=15 -DCAND_PAIRS_BLOCKS=3
C_512x13   = -DMP_THREADS=512 -DMP_ITEMS=13
C_512x11   = -DMP_THREADS=512 -DMP_ITEMS=11
C_512x17   = -DMP_THREADS=512 -DMP_ITEMS=17
C_512x17k3 = -DMP_THREADS=512 -DMP_ITEMS=17 -DCAND_KEYS_BLOCKS=3
C_512x17k2 = -DMP_THREADS=512 -DMP_ITEMS=17 -DCAND_KEYS_BLOCKS=2
C_512x19k3 = -DMP_THREADS=512 -DMP_ITEMS=19 -DCAND_KEYS_BLOCKS=3
C_512x23k2 = -DMP_THREADS=512 -DMP_ITEMS=23 -DCAND_KEYS_BLOCKS=2
C_256x17   = -DMP_THREADS=256 -DMP_ITEMS=17
C_256x17k1 = -DMP_THREADS=256 -DMP_ITEMS=17 -DCAND_KEYS_BLOCKS=1
C_256x15   = -DMP_THREADS=256 -DMP_ITEMS=15
C_1024x15  = -DMP_THREADS=1024 -DMP_ITEMS=15
C_1024x17  = -DMP_THREADS=1024 -DMP_ITEMS=17
C_1024x17k1 = -DMP_THREADS=1024 -DMP_ITEMS=17 -DCAND_KEYS_BLOCKS=1
C_1024x11  = -DMP_THREADS=1024 -DMP_ITEMS=11

# CAND_ROWS: what sortspeed runs, in order, each BUILD or SORT>MERGE (the block sort by one
# build, the merge passes by another whose tile divides it by 2^k: k fewer merge passes), then
# +w (the partition a warp a tile) and +1t (the pairs merge through one shared tile, as CUB).
# First the shapes and bounds (CUB's own on sm_90, Policy600, is 256 x 17), then larger block
# sorts, then +w and +1t on the likely ones.
CAND_ROWS = 512x15 512x15k2 512x15k3 512x15p3 512x13 512x11 512x17 512x17k3 512x17k2 512x19k3 \
            512x23k2 256x17 256x17k1 256x15 1024x15 1024x11 1024x17 1024x17k1 \
            1024x15>512x15 1024x17>512x17 1024x17>512x17k3 1024x17>256x17k1 512x17>256x17k1 \
            512x15+w 512x17+w 1024x17>512x17+w 512x15+1t 512x17+1t 1024x17>512x17+w+1t 256x17k1+w+1t
