/* emu_step.cpp - one step file (EMU_FILE: merge.cu or sort.cu, converted by
 * emu.py) compiled for the CPU emulation, with ladder.cuh first in a ladder
 * build (EMU_LADDER), as nvcc -include does for the GPU. */
#include "emu.h"
#ifdef EMU_LADDER
#include "ladder.cuh"
#endif
#include EMU_FILE
