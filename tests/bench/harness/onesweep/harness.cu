/* harness.cu - the speed and tuning harness of ch13 step 7 (the single-pass
 * radix sort): its modes' dispatch, and the one include of the step's own
 * source. run.sh copies solutions/ch13-sort/step7-onesweep/ into
 * build/harness-onesweep/src/<variant>/, applies the variant's sed scripts (a
 * measured alternative, or one of the step's wrong variants from
 * tests/mutants/ch13-sort/), and compiles this file (the step's kernels: the
 * ptxas lines are this file's), check.cu and speed.cu against it with the
 * variant's -D flags; inputs.cu (the inputs, the CPU reference) once for all;
 * harness.h is what they share. Modes:
 *   harness check          every size and distribution, keys only and pairs,
 *                          both entry points (onesweep_sort: input kept;
 *                          onesweep_sort_buffers: in place), against a CPU
 *                          stable LSD radix sort; 2^28 + 4099 once, exactly
 *   harness quick [stop]   a shorter suite (stop: at the first wrong run)
 *   harness repeat R       R runs of a fixed set (the missing-fence variant):
 *                          how many of the R runs gave a wrong result
 *   harness speed [pairs]  cub::DeviceRadixSort and ours, same inputs, same
 *                          process, at 2^20, 2^24, 2^28, keys only and pairs
 *                          (pairs: 2^28 keys, pairs at 2^24 and 2^28 only)
 *   harness profile N keys|pairs [cub]   a warm-up and one sort (for ncu);
 *                          cub: cub::DeviceRadixSort's instead of ours
 * Every output is poisoned (0xA5 bytes) before a run, with one poisoned guard
 * word after it, and checked element by element; values are a distinct
 * payload per input position (~i), so stability is checked exactly; the
 * inputs are checked unchanged. Lines starting with "ROW|" feed run.sh's
 * summary table. Exit status: 0 when every result was right, 1 otherwise. */
#include "onesweep.cuh" /* the step's (a variant's copy of it) */
#include "harness.h"

/* The blocks an SM holds of the pass kernel for keys (pairs 0) or pairs (1), after onesweep_fit. */
static int blocks_per_sm(int pairs)
{
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, pairs ? (const void *)onesweep_pairs : (const void *)onesweep_keys, ONESWEEP_THREADS,
        onesweep_shared_bytes(pairs)));
    return blocks;
}

/* speed's row of the step's occupancy: the blocks an SM holds and the tile's shape. */
void print_occupancy_row(void)
{
    printf("ROW|%s|blocks per SM (occupancy API)|keys %d, pairs %d|tile %d x %d, pairs' shared memory %zu B + static\n",
           HARNESS_NAME, blocks_per_sm(0), blocks_per_sm(1), ONESWEEP_THREADS, ONESWEEP_KEYS_PER_THREAD,
           onesweep_shared_bytes(1));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s check|quick [stop]|repeat R|speed [pairs]|profile N keys|pairs [cub]\n", argv[0]);
        return 2;
    }
    lab_require_gpu(argv[0]);
    int dev = 0;
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("%s: %s (%d SMs), tile %d x %d = %d keys, blocks/SM asked %d (pairs %d), look-back window %d (%s)\n",
           HARNESS_NAME, prop.name, prop.multiProcessorCount, ONESWEEP_THREADS, ONESWEEP_KEYS_PER_THREAD, ONESWEEP_TILE,
           ONESWEEP_MIN_BLOCKS, ONESWEEP_MIN_BLOCKS_PAIRS, ONESWEEP_LOOKBACK_WINDOW, HARNESS_WHAT);
    const int stop = argc >= 3 && strcmp(argv[2], "stop") == 0;
    int ok;
    if (strcmp(argv[1], "check") == 0)
        ok = mode_check(1, stop);
    else if (strcmp(argv[1], "quick") == 0)
        ok = mode_check(0, stop);
    else if (strcmp(argv[1], "repeat") == 0 && argc >= 3)
        ok = mode_repeat(atoi(argv[2]));
    else if (strcmp(argv[1], "speed") == 0)
        ok = mode_speed(argc >= 3 && strcmp(argv[2], "pairs") == 0);
    else if (strcmp(argv[1], "profile") == 0 && argc >= 4)
        ok = mode_profile(atoll(argv[2]), strcmp(argv[3], "pairs") == 0, argc >= 5 && strcmp(argv[4], "cub") == 0);
    else {
        fprintf(stderr, "unknown mode %s\n", argv[1]);
        return 2;
    }
    return ok ? 0 : 1;
}
