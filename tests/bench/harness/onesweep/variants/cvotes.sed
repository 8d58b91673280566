# cvotes: onesweep_agree_on_bit's vote written in C (as its comment reads) instead of PTX.
/^    unsigned int agree;$/,/^        : "r"(x), "r"(1u << b));$/c\
    const unsigned int ones = __ballot_sync(ONESWEEP_FULL_WARP, (x >> b) & 1);\
    const unsigned int agree = (x >> b) & 1 ? ones : ~ones;
