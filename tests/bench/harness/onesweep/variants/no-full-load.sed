# no-full-load: onesweep_load_tile tests every key of a full tile against the tile's end, as it does
# the last tile's (the step before 2026-11-28): the tests, kept as predicates through the pass, cost
# instructions in every phase that reads them
s/^    if (valid == ONESWEEP_TILE) {$/    if (0) {/
