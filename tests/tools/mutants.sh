#!/usr/bin/env bash
# mutants.sh SED...: proves the suites catch wrong variants. Each
# tests/mutants/<chapter>/<name>.sed starts with two comment lines,
#   # step: solutions/ch12-merge/step3-tiled
#   # file: merge.cu
# and edits a copy of that step (under build/mutsrc/) into a wrong variant
# (a missing __syncthreads, a B-first tie, ...). The step's suite, built against
# the copy, must then fail. Without a GPU, mutants that only GPU tests can
# catch are reported as not provable here.
set -uo pipefail
bad=0 caught=0 unprovable=0
mkdir -p build/mutsrc
mdirs=() names=() whys=()
for sed_file in "$@"; do
    name=$(basename "$sed_file" .sed)
    step=$(sed -n 's/^# step: *//p' "$sed_file" | head -n1)
    file=$(sed -n 's/^# file: *//p' "$sed_file" | head -n1)
    if [ ! -f "$step/$file" ]; then echo "!! $name: $step/$file does not exist"; bad=1; continue; fi
    mdir=build/mutsrc/$name/${step#solutions/}
    rm -rf "$mdir"; mkdir -p "$mdir"; cp "$step"/*.cu "$step"/*.cuh "$step"/*.h "$step"/*.c "$step"/Makefile "$mdir"/ 2>/dev/null # the Makefile names the steps it uses (LAB_USES)
    sed -i -f "$sed_file" "$mdir/$file"
    if cmp -s "$step/$file" "$mdir/$file"; then echo "!! $name: the sed script changed nothing in $step/$file"; bad=1; continue; fi
    mdirs+=("$mdir"); names+=("$name"); whys+=("$(sed -n 's/^# why: *//p' "$sed_file" | head -n1)")
done
# build every wrong variant in one parallel make
make --no-print-directory -s -k -j"$(nproc)" MUTANT_STEPS="${mdirs[*]}" $(printf "build/%s/test " "${mdirs[@]}") >build/mutsrc/build.log 2>&1
# run them, LAB_SUITES_AT_ONCE at a time; one failure is enough: each stops at its first
for k in "${!mdirs[@]}"; do
    bin=build/${mdirs[$k]}/test name=${names[$k]}
    [ -x "$bin" ] || continue
    ( "$bin" --fail-fast --jobs "${LAB_TEST_JOBS:-4}" --tap="build/mutsrc/$name.tap" >"build/mutsrc/$name.out" 2>&1 ) &
    while [ "$(jobs -rp | wc -l)" -ge "${LAB_SUITES_AT_ONCE:-1}" ]; do wait -n; done
done
wait
for k in "${!mdirs[@]}"; do
    name=${names[$k]} why=${whys[$k]} bin=build/${mdirs[$k]}/test
    if [ ! -x "$bin" ]; then echo "!! $name: the wrong variant does not build (build/mutsrc/build.log)"; bad=1; continue; fi
    out=$(cat "build/mutsrc/$name.out")
    failing=$(sed -n 's/.*Synthesis:.*Failing: \([0-9]*\).*Crashing: \([0-9]*\).*/\1 \2/p' <<<"$out" | awk '{print $1 + $2}')
    skipped=$(grep -c '# SKIP' "build/mutsrc/$name.tap" 2>/dev/null)
    if [ "${failing:-0}" -gt 0 ] || grep -q '^not ok' "build/mutsrc/$name.tap" 2>/dev/null; then
        first=$(grep -m1 '^\[FAIL\]' <<<"$out" | sed 's/^\[FAIL\] //; s/: (.*//')
        echo "caught     $name ($why): first failing test ${first:-?}"; caught=$((caught + 1))
    elif [ "${skipped:-0}" -gt 0 ]; then
        echo "unprovable $name ($why): its tests need a GPU and skipped"; unprovable=$((unprovable + 1))
    else
        echo "!! NOT CAUGHT $name ($why): the suite passes a wrong variant"; bad=1
    fi
done
echo "wrong variants: $caught caught, $unprovable not provable without a GPU, $# in all"
exit $bad
