# variants.mk - the ladder's builds (ladder.cuh's switches), shared by the GPU
# harness (Makefile) and the CPU emulation (emu/Makefile); harness.cu's
# MP_VARIANTS lists them in the same order.
LADDER = no_partition no_staging no_registers no_vector_stores book partition partition_staging
F_no_partition      = -DMP_NO_PARTITION
F_no_staging        = -DMP_NO_STAGING
F_no_registers      = -DMP_NO_REGISTERS
F_no_vector_stores  = -DMP_NO_VECTOR_STORES
F_book              = -DMP_NO_PARTITION -DMP_NO_STAGING -DMP_NO_REGISTERS -DMP_NO_VECTOR_STORES
F_partition         = -DMP_NO_STAGING -DMP_NO_REGISTERS -DMP_NO_VECTOR_STORES
F_partition_staging = -DMP_NO_REGISTERS -DMP_NO_VECTOR_STORES
