#!/usr/bin/env bash
# Runs Criterion test binaries and sums what they report.
#   run-suites.sh suites BIN...     every suite must pass; prints each Synthesis
#                                   line, the skipped count (Criterion leaves skips
#                                   out of Synthesis) and a total. The maintainers'
#                                   run (make test, CI): tests that need a GPU skip.
#   run-suites.sh check BIN         a student's step (make check): as suites, but a
#                                   test that did not run is not a pass: when GPU
#                                   tests skipped, it says so and exits 3. The result
#                                   is kept in <bin>.result for `make status`.
#                                   Without a GPU it says how many host tests ran
#                                   a function the student fills in (one its
#                                   HINTS names): tests/tools/step-info.sh has
#                                   each test process log the step's functions it
#                                   enters to $LAB_STEP_TRACE.
#   run-suites.sh exercises BIN...  every unmodified exercise must FAIL its tests
#                                   and name its TODO in the failure message.
# A suite with Tested: 0 and nothing skipped is a false pass and fails the run.
# Each binary's hang file is <bin>.hang (lab_test.c): the first of its tests to find the GPU stuck
# writes there which test and why, and the suite's GPU tests after it skip; tests/tools/check.sh
# reads it (compute-sanitizer does not run a kernel that never ends).
# LAB_SUITES_AT_ONCE=K runs K binaries at a time (their reports still print in order).
set -uo pipefail
mode=$1; shift
jobs=${LAB_TEST_JOBS:-4}
at_once=${LAB_SUITES_AT_ONCE:-1}
outdir=$(mktemp -d); trap 'rm -rf "$outdir"' EXIT
if [ $# = 0 ]; then echo "!! run-suites.sh $mode: no test binary to run"; exit 1; fi
# run every binary first, at most $at_once at a time; each one's output and exit status to files
k=0
for bin in "$@"; do
    k=$((k + 1))
    rm -f "$bin.hang"
    ( [ "$mode" = check ] && export LAB_STEP_TRACE=$outdir/$k.trace
      LAB_HANG_FILE=$bin.hang "$bin" --jobs "$jobs" --tap="$bin.tap" >"$outdir/$k.out" 2>&1; echo $? >"$outdir/$k.rc" ) &
    while [ "$(jobs -rp | wc -l)" -ge "$at_once" ]; do wait -n; done
done
wait
tot_tested=0 tot_pass=0 tot_fail=0 tot_crash=0 tot_skip=0 bad=0

field() { sed -n "s/.*Synthesis:.*$1: \([0-9]*\).*/\1/p" <<<"$2" | tail -n1; }
# ran_todo_code BIN TRACE: how many test processes entered a function that holds a TODO of the
# step (the functions its HINTS names; any function of the step's files when it names none)
ran_todo_code() {
    local bin=$1 trace=$2 step hints funcs base
    [ -s "$trace" ] || { echo 0; return; }
    step=${bin#build/}; step=${step%/test}; hints=${step#solutions/}/HINTS
    funcs=" $(sed -n 's/^TODO([0-9]*) ([^,]*, in \(.*\)())$/\1/p' "$hints" 2>/dev/null | sort -u | tr '\n' ' ') "
    base=$(nm "$bin" 2>/dev/null | awk '$3 == "__executable_start" { print $1; exit }')
    while read -r pid off; do printf '%s %x\n' "$pid" $((0x$off + 0x${base:-0})); done <"$trace" |
        awk -v funcs="$funcs" 'NR == FNR { n = $0; sub(/^[0-9a-f]+ [A-Za-z] /, "", n); sub(/[(.].*/, "", n); name[$1] = n; next }
            { a = $2; while (length(a) < 16) a = "0" a
              if (funcs == "  " || index(funcs, " " name[a] " ") > 0) ran[$1] = 1 }
            END { n = 0; for (p in ran) n++; print n }' <(nm -C --defined-only "$bin" 2>/dev/null) -
}

k=0
for bin in "$@"; do
    k=$((k + 1))
    name=${bin#build/}; name=${name%/test}
    tap=$bin.tap
    out=$(cat "$outdir/$k.out"); rc=$(cat "$outdir/$k.rc")
    tested=$(field Tested "$out"); passing=$(field Passing "$out")
    failing=$(field Failing "$out"); crashing=$(field Crashing "$out")
    skipped=$(grep -c '# SKIP' "$tap" 2>/dev/null); skipped=${skipped:-0}
    why=$(sed -n 's/.*# SKIP //p' "$tap" 2>/dev/null | sort | uniq -c | sort -rn | head -n1 | sed 's/^ *[0-9]* //')
    if [ -z "$tested" ]; then
        echo "$out"; echo "!! $name: no Synthesis line (exit $rc): the suite did not run"; bad=1; continue
    fi
    case $mode in
    suites | check)
        if [ "$rc" != 0 ] || [ "$failing" != 0 ] || [ "$crashing" != 0 ]; then
            echo "$out" | grep -v '^\[RUN \]\|^\[PASS\]'; bad=1
        fi
        line=$(grep -o 'Synthesis:.*' <<<"$out" | tail -n1)
        printf '%-44s %s | Skipped: %s%s\n' "$name" "$line" "$skipped" "${why:+ ($why)}"
        [ -s "$bin.hang" ] && echo "stopped: $(head -n1 "$bin.hang"): the suite's GPU tests after it were not run"
        if [ "$tested" = 0 ] && [ "$skipped" = 0 ]; then
            echo "!! $name: Tested: 0 with nothing skipped is a false pass"; bad=1
        fi
        tot_tested=$((tot_tested + tested)); tot_pass=$((tot_pass + passing))
        tot_fail=$((tot_fail + failing)); tot_crash=$((tot_crash + crashing)); tot_skip=$((tot_skip + skipped))
        ;;
    exercises)
        if [ "$failing" != 0 ] || [ "$crashing" != 0 ]; then
            if grep -q 'TODO(' <<<"$out"; then
                echo "ok  $name: unmodified exercise fails ($failing failing) and names its TODO:$(grep -o '[a-z_]*\.[ch]u*:[0-9]*: TODO([0-9]*)' <<<"$out" | sort -u | head -n 3 | tr '\n' ' ')"
            else
                echo "!! $name: fails, but no message names its TODO"; bad=1
            fi
        elif [ "$skipped" != 0 ]; then
            echo "--  $name: not provable here: the tests that would catch it skip ($why)"
            tot_skip=$((tot_skip + skipped))
        else
            echo "!! $name: the unmodified exercise PASSES its tests: its TODO is not real"; bad=1
        fi
        ;;
    esac
done

if [ "$mode" = check ]; then
    result=$bin.result
    if [ "$bad" != 0 ] || [ "$tot_fail" != 0 ] || [ "$tot_crash" != 0 ]; then
        echo "FAIL $(date '+%Y-%m-%d %H:%M') $tot_pass of $tot_tested tests passed" >"$result"
        hung=$([ -s "$bin.hang" ] && echo " ($tot_skip more not run: a kernel never finished)")
        echo "FAIL: $((tot_fail + tot_crash)) of $tot_tested tests failed$hung; the messages above say where."
        exit 1
    fi
    # a test skipped for want of a GPU is a kernel that did not run; other skips (a launch form
    # this machine lacks, such as mpirun) are named but do not stand in for the GPU tests
    gpu_skips=$(for b in "$@"; do grep -h '# SKIP' "$b.tap" 2>/dev/null; done | grep -c 'no NVIDIA GPU visible\|NVIDIA driver')
    other=$((tot_skip - gpu_skips))
    if [ "$gpu_skips" != 0 ]; then
        # the host tests whose process entered a function the student fills in
        ran=0 k=0
        for b in "$@"; do k=$((k + 1)); ran=$((ran + $(ran_todo_code "$b" "$outdir/$k.trace"))); done
        echo "NOT RUN $(date '+%Y-%m-%d %H:%M') ${why:-skipped}" >"$result"
        echo "your kernel was not run: ${why:-its tests were skipped} ($tot_skip tests skipped)."
        if [ "$ran" = 0 ]; then
            echo "None of the $tot_pass host tests that passed ran your code (a function with a TODO): they check the lab's own code."
        else
            echo "$ran of the $tot_pass host tests that passed ran your code (a function with a TODO); the rest check the lab's own code."
        fi
        echo "This is not a pass: run make check on a machine with an NVIDIA GPU (README: Getting a GPU)."
        exit 3
    fi
    [ "$other" -gt 0 ] && echo "note: $other tests skipped for another reason:" &&
        for b in "$@"; do sed -n 's/.*# SKIP /  /p' "$b.tap" 2>/dev/null; done | sort -u
    echo "PASS $(date '+%Y-%m-%d %H:%M') $tot_pass of $tot_tested tests passed on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)" >"$result"
    echo "PASS: all $tot_pass tests passed on the GPU."
    exit 0
fi
if [ "$mode" = suites ]; then
    echo "Total over $# suites: Synthesis: Tested: $tot_tested | Passing: $tot_pass | Failing: $tot_fail | Crashing: $tot_crash"
    echo "Skipped: $tot_skip$([ "$tot_skip" != 0 ] && echo ' (tests that need a GPU skip when none is visible)')"
    echo "$tot_pass passed, $((tot_fail + tot_crash)) failed, $tot_skip skipped"
    if [ "$tot_tested" = 0 ]; then echo "!! no test ran at all"; bad=1; fi
fi
exit $bad
