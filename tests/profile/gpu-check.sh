#!/usr/bin/env bash
# gpu-check.sh - make profile on a GPU machine, checked: the solutions of a few steps of each
# chapter are profiled (as make profile does) and the counter of each step's lesson must move the
# way its README says. Needs a GPU and ncu with the counters open (exit 3 or 5 otherwise, one
# line); exit 1 when a counter moved the other way (each check prints ok or FAIL with both
# figures). About two minutes on an H100.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. tests/profile/lib.sh

# STEP_A STEP_B KEY RELATION WHY: counter KEY of B is RELATION (lt: below, gt: above) A's
checks=(
    "ch10-reduction/step1-simple ch10-reduction/step2-convergent active gt whole warps retire instead of diverging"
    "ch10-reduction/step1-simple ch10-reduction/step2-convergent ld_req lt each time step reads a contiguous half"
    "ch10-reduction/step4-segmented ch10-reduction/step5-coarsened atomics lt coarsening: fewer blocks, one atomic each"
    "ch12-merge/step2-basic ch12-merge/step3-tiled ld_coal lt the tiles are loaded coalesced"
    "ch12-merge/step3-tiled ch12-merge/step4-circular l2_read_x lt the circular buffers load only what the last iteration consumed"
    "ch13-sort/step1-radix-naive ch13-sort/step2-radix-local l2_x lt fewer, smaller scans: fewer bytes through L2 per iteration"
    "ch13-sort/step2-radix-local ch13-sort/step3-radix-multibit launches lt an r-bit digit per iteration: fewer iterations"
    "ch13-sort/step2-radix-local ch13-sort/step3-radix-multibit l2_x lt fewer passes over the keys"
)

prof_need_gpu
prof_find_ncu
steps=()
for c in "${checks[@]}"; do
    read -r a b _ <<<"$c"
    for s in "$a" "$b"; do case " ${steps[*]:-} " in *" $s "*) ;; *) steps+=("$s") ;; esac; done
done
runs=()
for s in "${steps[@]}"; do runs+=("$PROF_BUILD/solutions/$s/run"); done
${MAKE:-make} --no-print-directory -j"$(nproc 2>/dev/null || echo 4)" "$PROF_TRACE_LIB" "${runs[@]}" >/dev/null

work=$PROF_BUILD/profile/gpu-check
for s in "${steps[@]}"; do
    echo "gpu-check: profiling solutions/$s"
    (
        prof_conf "$s"
        prof_measure "$PROF_BUILD/solutions/$s/run" "$work/$s" "solutions/$s"
    )
done

bad=0
for c in "${checks[@]}"; do
    read -r a b k rel why <<<"$c"
    awk -v k="$k" -v rel="$rel" -v a="${a#*/}" -v b="${b#*/}" -v why="$why" -f tests/profile/counters.awk \
        -f tests/profile/compare.awk "$work/$a.csv" "$work/$b.csv" || bad=1
done
[ $bad = 0 ] && echo "gpu-check: every counter moved the way the READMEs say" && exit 0
echo "gpu-check: a counter moved the other way (above): check the step or its README's claim" >&2
exit 1
