# cvotes: onesweep_peers_of's eight votes written in C (as its comment reads) instead of PTX.
/^        unsigned int agree; \/\* the lanes whose bit b is this lane's \*\//,/: "r"(digit), "r"(1u << b));/c\
        const unsigned int ones = __ballot_sync(ONESWEEP_FULL_WARP, (digit >> b) & 1);\
        const unsigned int agree = (digit >> b) & 1 ? ones : ~ones;
