#!/usr/bin/env bash
# Runs Criterion test binaries and sums what they report.
#   run-suites.sh suites BIN...     every suite must pass; prints each Synthesis
#                                   line, the skipped count (Criterion leaves skips
#                                   out of Synthesis) and a total.
#   run-suites.sh exercises BIN...  every unmodified exercise must FAIL its tests
#                                   and name its TODO in the failure message.
# A suite with Tested: 0 and nothing skipped is a false pass and fails the run.
set -uo pipefail
mode=$1; shift
jobs=${LAB_TEST_JOBS:-4}
tot_tested=0 tot_pass=0 tot_fail=0 tot_crash=0 tot_skip=0 bad=0

field() { sed -n "s/.*Synthesis:.*$1: \([0-9]*\).*/\1/p" <<<"$2" | tail -n1; }

for bin in "$@"; do
    name=${bin#build/}; name=${name%/test}
    tap=$bin.tap
    out=$("$bin" --jobs "$jobs" --tap="$tap" 2>&1); rc=$?
    tested=$(field Tested "$out"); passing=$(field Passing "$out")
    failing=$(field Failing "$out"); crashing=$(field Crashing "$out")
    skipped=$(grep -c '# SKIP' "$tap" 2>/dev/null); skipped=${skipped:-0}
    why=$(sed -n 's/.*# SKIP //p' "$tap" 2>/dev/null | sort | uniq -c | sort -rn | head -n1 | sed 's/^ *[0-9]* //')
    if [ -z "$tested" ]; then
        echo "$out"; echo "!! $name: no Synthesis line (exit $rc): the suite did not run"; bad=1; continue
    fi
    case $mode in
    suites)
        if [ "$rc" != 0 ] || [ "$failing" != 0 ] || [ "$crashing" != 0 ]; then
            echo "$out" | grep -v '^\[RUN \]\|^\[PASS\]'; bad=1
        fi
        line=$(grep -o 'Synthesis:.*' <<<"$out" | tail -n1)
        printf '%-44s %s | Skipped: %s%s\n' "$name" "$line" "$skipped" "${why:+ ($why)}"
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

if [ "$mode" = suites ]; then
    echo "Total over $# suites: Synthesis: Tested: $tot_tested | Passing: $tot_pass | Failing: $tot_fail | Crashing: $tot_crash"
    echo "Skipped: $tot_skip$([ "$tot_skip" != 0 ] && echo ' (tests that need a GPU skip when none is visible)')"
    echo "$tot_pass passed, $((tot_fail + tot_crash)) failed, $tot_skip skipped"
    if [ "$tot_tested" = 0 ]; then echo "!! no test ran at all"; bad=1; fi
fi
exit $bad
