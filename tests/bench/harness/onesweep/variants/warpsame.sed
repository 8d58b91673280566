# warpsame: onesweep_count_digits adds a warp's 32 keys with one atomicAdd where they share a digit
# (runs of one digit: sorted or reversed keys), instead of 32 adds on one shared word.
/unsigned int \*counter = &row\[onesweep_digit(key\[u\], shift)\];/,/arrival\[u\] = atomicAdd(counter, 1u);/c\
        const unsigned int digit = onesweep_digit(key[u], shift), lane = threadIdx.x % 32;\
        const unsigned int digit_lane0 = __shfl_sync(ONESWEEP_FULL_WARP, digit, 0); /* every lane shuffles */\
        unsigned int *counter = &row[digit];\
        const int counted = arrival == NULL || first + u * 32 < valid;\
        if (__all_sync(ONESWEEP_FULL_WARP, counted && digit == digit_lane0)) {\
            unsigned int at = 0;\
            if (lane == 0)\
                at = atomicAdd(counter, 32u);\
            if (arrival != NULL)\
                arrival[u] = __shfl_sync(ONESWEEP_FULL_WARP, at, 0) + lane;\
        } else if (arrival == NULL)\
            atomicAdd(counter, 1u);\
        else if (counted)\
            arrival[u] = atomicAdd(counter, 1u);
