#!/usr/bin/env bash
# mutants.sh [--repeat N] SED...: proves the suites catch wrong variants. Each
# tests/mutants/<chapter>/<name>.sed starts with comment lines,
#   # step: solutions/ch12-merge/step3-tiled
#   # file: merge.cu                       (or a file of a step it uses, by its path under
#                                            solutions/: ch13-sort/step7-onesweep/onesweep.cuh;
#                                            its edited copy goes beside the step's files, where
#                                            their #include "onesweep.cuh" finds it first)
#   # why: missing __syncthreads between loading a tile and merging it
#   # needs: racecheck                    (optional: memcheck or racecheck)
# and edits a copy of that step (under build/mutsrc/) into a wrong variant
# (a missing __syncthreads, a B-first tie, ...). The step's suite, built against
# the copy, must then fail. A variant that `needs` a compute-sanitizer tool is
# also run through it, on its ./run built from the same copy (memcheck on
# exact-size buffers, with the step's arguments from tests/sanitize.conf: its
# racecheck line for racecheck), as make check does; it is caught when the suite
# or that tool fails. Without a GPU, mutants that only GPU tests (or a tool) can
# catch are reported as not provable here.
#   --repeat N   runs each variant's suite (and tool) N times and reports
#                "caught K of N": a race must be caught every time, so K < N fails.
# Every variant is built in one parallel make; LAB_SUITES_AT_ONCE variants run at once.
set -uo pipefail
repeat=1
if [ "${1:-}" = --repeat ]; then
    repeat=${2:-}; shift 2
    [[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "mutants.sh: --repeat takes a whole number of 1 or more" >&2; exit 2; }
fi
here=$(dirname "${BASH_SOURCE[0]}")
bad=0 caught=0 unprovable=0
gpu=$(nvidia-smi -L 2>/dev/null | head -n1)
mkdir -p build/mutsrc
mdirs=() names=() whys=() needs=() steps=()
for sed_file in "$@"; do
    name=$(basename "$sed_file" .sed)
    step=$(sed -n 's/^# step: *//p' "$sed_file" | head -n1)
    file=$(sed -n 's/^# file: *//p' "$sed_file" | head -n1)
    need=$(sed -n 's/^# needs: *//p' "$sed_file" | head -n1)
    case $need in "" | memcheck | racecheck) ;;
    *) echo "!! $name: '# needs: $need': memcheck or racecheck"; bad=1; continue ;; esac
    src=$step/$file; case $file in */*) src=solutions/$file ;; esac # a used step's file: by its path
    if [ ! -f "$src" ]; then echo "!! $name: $src does not exist"; bad=1; continue; fi
    mdir=build/mutsrc/$name/${step#solutions/}
    rm -rf "$mdir"; mkdir -p "$mdir"; cp "$step"/*.cu "$step"/*.cuh "$step"/*.h "$step"/*.c "$step"/Makefile "$src" "$mdir"/ 2>/dev/null
    dst=$mdir/$(basename "$file")
    # every command of the script must change the file: one that no longer matches (a renamed
    # name, a reformatted line) would leave a different, maybe uncompilable, variant
    stale=$(grep -vE '^#|^$' "$sed_file" | while IFS= read -r cmd; do
        printf '%s\n' "$cmd" >build/mutsrc/one.sed
        sed -f build/mutsrc/one.sed "$src" | cmp -s - "$src" && echo "$cmd"; done)
    if [ -n "$stale" ]; then echo "!! $name: a line of its sed script changes nothing in $src: ${stale:0:120}"; bad=1; continue; fi
    sed -i -f "$sed_file" "$dst"
    if cmp -s "$src" "$dst"; then echo "!! $name: the sed script changed nothing in $src"; bad=1; continue; fi
    mdirs+=("$mdir"); names+=("$name"); needs+=("$need"); steps+=("$step")
    whys+=("$(sed -n 's/^# why: *//p' "$sed_file" | head -n1)")
done
[ ${#mdirs[@]} -gt 0 ] || { echo "wrong variants: none to run"; exit $bad; }
# build every wrong variant in one parallel make: its test binary, and its ./run when a tool needs it
targets=()
for k in "${!mdirs[@]}"; do
    targets+=("build/${mdirs[$k]}/test"); [ -n "${needs[$k]}" ] && targets+=("build/${mdirs[$k]}/run")
done
make --no-print-directory -s -k -j"$(nproc)" MUTANT_STEPS="${mdirs[*]}" "${targets[@]}" >build/mutsrc/build.log 2>&1
# one_variant K: its rounds; per round a line "suite|tool RESULT WHAT" in build/mutsrc/<name>.rounds
one_variant() {
    local k=$1 name=${names[$1]} bin=build/${mdirs[$1]}/test run=build/${mdirs[$1]}/run need=${needs[$1]} r out rc
    local rounds=build/mutsrc/$name.rounds
    : >"$rounds"
    for r in $(seq 1 "$repeat"); do
        "$bin" --fail-fast --jobs "${LAB_TEST_JOBS:-4}" --tap="build/mutsrc/$name.tap" >"build/mutsrc/$name.out" 2>&1
        out=$(cat "build/mutsrc/$name.out")
        local failing skipped first
        failing=$(sed -n 's/.*Synthesis:.*Failing: \([0-9]*\).*Crashing: \([0-9]*\).*/\1 \2/p' <<<"$out" | awk '{print $1 + $2}')
        skipped=$(grep -c '# SKIP' "build/mutsrc/$name.tap" 2>/dev/null)
        if [ "${failing:-0}" -gt 0 ] || grep -q '^not ok' "build/mutsrc/$name.tap" 2>/dev/null; then
            first=$(grep -m1 '^\[FAIL\]' <<<"$out" | sed 's/^\[FAIL\] //; s/: (.*//')
            echo "caught first failing test ${first:-?}" >>"$rounds"; continue
        fi
        if [ -n "$need" ] && [ -n "$gpu" ] && [ -x "$run" ]; then
            out=$(bash "$here/sanitize.sh" --one "$need" "${steps[$k]}" "$run"); rc=$?
            case $rc in
            1) echo "caught $out" >>"$rounds"; continue ;;
            0) echo "passed $out" >>"$rounds"; continue ;;
            esac
        fi
        if [ "${skipped:-0}" -gt 0 ]; then echo "unprovable" >>"$rounds"
        else echo "passed the suite passes it" >>"$rounds"; fi
    done
}
for k in "${!mdirs[@]}"; do
    [ -x "build/${mdirs[$k]}/test" ] || continue
    one_variant "$k" &
    while [ "$(jobs -rp | wc -l)" -ge "${LAB_SUITES_AT_ONCE:-1}" ]; do wait -n; done
done
wait
for k in "${!mdirs[@]}"; do
    name=${names[$k]} why=${whys[$k]}${needs[$k]:+; needs ${needs[$k]}}
    if [ ! -x "build/${mdirs[$k]}/test" ] || { [ -n "${needs[$k]}" ] && [ ! -x "build/${mdirs[$k]}/run" ]; }; then
        echo "!! $name: the wrong variant does not build (build/mutsrc/build.log)"; bad=1; continue
    fi
    rounds=build/mutsrc/$name.rounds
    n_caught=$(grep -c '^caught' "$rounds") n_unprov=$(grep -c '^unprovable' "$rounds")
    first=$(grep -m1 '^caught' "$rounds" | sed 's/^caught //')
    missed=$(grep -m1 '^passed' "$rounds" | sed 's/^passed //')
    if [ "$n_unprov" = "$repeat" ]; then
        echo "unprovable $name ($why): its tests need a GPU and skipped"; unprovable=$((unprovable + 1))
    elif [ "$n_caught" = "$repeat" ]; then
        if [ "$repeat" = 1 ]; then echo "caught     $name ($why): $first"
        else echo "caught     $name ($why): caught $n_caught of $repeat ($first)"; fi
        caught=$((caught + 1))
    elif [ "$n_caught" = 0 ]; then
        echo "!! NOT CAUGHT $name ($why): ${missed:-the suite passes it}$([ "$repeat" = 1 ] || echo ", $repeat of $repeat runs")"; bad=1
    else
        echo "!! caught $n_caught of $repeat $name ($why): passed $((repeat - n_caught)) times (${missed:-the suite passed})"; bad=1
    fi
done
echo "wrong variants: $caught caught$([ "$repeat" = 1 ] || echo " every time of $repeat"), $unprovable not provable without a GPU, ${#mdirs[@]} in all"
exit $bad
