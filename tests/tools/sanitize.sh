#!/usr/bin/env bash
# sanitize.sh [--check] STEP...: compute-sanitizer (memcheck, racecheck, synccheck,
# initcheck) over each step's ./run on a small input (make sanitize).
#   --check      make check's runs: memcheck, and racecheck where the conf has a
#                racecheck line for the step, each reported in a line or two
#                (--memcheck-only: the same)
#   --can-run    exits 2 with one line when compute-sanitizer or a GPU is not
#                there (make sanitize asks before it builds anything)
#   --one TOOL STEP RUN   TOOL on the ./run binary RUN with STEP's arguments
#                (its racecheck line for racecheck, else its args line), one
#                line; exit 0 clean, 1 errors or ./run failed, 3 not run (no
#                compute-sanitizer, no GPU) (tests/tools/mutants.sh)
# tests/sanitize.conf may give a step its own arguments, extra runs (printed
# variants), and mark the runs documented as unsafe, which may report.
#   args  <step> <./run arguments>
#   extra <step> <./run arguments>      also sanitize this run; allowed to report
#   allow <step>                        every run of the step may report
#   options <step> <compute-sanitizer options>  given to every tool for this step
#   racecheck <step> <./run arguments>  make check also runs racecheck on this run (each such line)
# memcheck runs on exact-size buffers (LAB_EXACT_BUFFERS=1), so a read past the end is reported.
set -uo pipefail
conf=tests/sanitize.conf
tools=${SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}
brief=0
# a step's lines in the conf, under its own path or its solution's
lookup() { awk -v k="$1" -v s="$2" -v t="solutions/${2#solutions/}" '$1 == k && ($2 == s || $2 == t) { $1 = ""; $2 = ""; sub(/^ +/, ""); print }' "$conf" 2>/dev/null; }
# sanitize TOOL STEP RUN LOG ARGS...: one run; memcheck on exact-size buffers (common/devmem.h), so
# a read past the end is reported. Exit 99: the sanitizer found errors; otherwise ./run's own status.
sanitize() {
    local tool=$1 step=$2 run=$3 log=$4
    shift 4
    LAB_EXACT_BUFFERS=$([ "$tool" = memcheck ] && echo 1 || echo 0) \
    compute-sanitizer --tool "$tool" --error-exitcode 99 $(lookup options "$step" | head -n1) "$run" "$@" -q >"$log" 2>&1
}
case ${1:-} in
--one)
    tool=$2 step=$3 run=$4
    command -v compute-sanitizer >/dev/null || { echo "not run: compute-sanitizer is not on PATH"; exit 3; }
    # racecheck: every racecheck line of the step (the first failure ends it), else its args line
    all=$([ "$tool" = racecheck ] && lookup racecheck "$step")
    [ -n "$all" ] || all=$(lookup args "$step" | head -n1)
    while IFS= read -r args; do
        args=${args:--n 2^16 --reps 1}
        sanitize "$tool" "$step" "$run" "$run.$tool.log" $args
        rc=$?
        summary=$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$run.$tool.log" | sed 's/^========= //')
        case $rc in
        0) echo "compute-sanitizer $tool: clean (./run $args)" ;;
        99) echo "compute-sanitizer $tool: ${summary:-errors} (./run $args)"; exit 1 ;;
        3) echo "not run: no GPU (compute-sanitizer $tool)"; exit 3 ;;
        *) echo "compute-sanitizer $tool: ./run $args exited $rc"; exit 1 ;;
        esac
    done <<<"$all"
    exit 0 ;;
--check | --memcheck-only) brief=1; shift ;;
--can-run)
    command -v compute-sanitizer >/dev/null ||
        { echo "make sanitize: compute-sanitizer is not on PATH (it ships with the CUDA Toolkit, in its bin/); nothing was built" >&2; exit 2; }
    nvidia-smi -L >/dev/null 2>&1 ||
        { echo "make sanitize: no NVIDIA GPU visible (nvidia-smi finds none): compute-sanitizer runs the steps on a GPU; nothing was built" >&2; exit 2; }
    exit 0 ;;
esac
command -v compute-sanitizer >/dev/null || { echo "sanitize: compute-sanitizer is not on PATH (it ships with the CUDA Toolkit)"; exit 2; }
bad=0
# one_step STEP: its runs under every tool, one line each; non-zero when one fails
one_step() {
    local step=$1 args allowed runs r run_args tool log rc summary what sbad=0
    args=$(lookup args "$step" | head -n1); args=${args:--n 2^16 --reps 1}
    allowed=$(grep -c "^allow \(solutions/\)\?${step#solutions/}\$" "$conf" 2>/dev/null)
    runs=("$args") run_tools=("$tools")
    [ "$brief" = 1 ] || while IFS= read -r extra; do [ -n "$extra" ] && runs+=("$extra") run_tools+=("$tools"); done < <(lookup extra "$step")
    # make check: racecheck on the run the conf names for it
    if [ "$brief" = 1 ]; then
        run_tools=(memcheck)
        while IFS= read -r race; do [ -n "$race" ] && runs+=("$race") run_tools+=(racecheck); done < <(lookup racecheck "$step")
    fi
    for r in "${!runs[@]}"; do
        run_args=${runs[$r]}
        for tool in ${run_tools[$r]}; do
            log=build/$step/sanitize-$tool-$r.log
            sanitize "$tool" "$step" "build/$step/run" "$log" $run_args
            rc=$?
            summary=$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | sed 's/^========= //')
            # exit 99: the sanitizer found errors; 1: ./run's own check failed
            what=$([ "$rc" = 99 ] && echo "${summary:-errors}" || echo "./run exit $rc, sanitizer: ${summary:-no summary}")
            if [ "$brief" = 1 ]; then
                if [ "$rc" = 99 ]; then
                    echo "compute-sanitizer $tool found errors in $step's ./run $run_args:"
                    grep -m 6 -E '^========= (Invalid|    at|Program hit|    by|Error: Race|Race reported|Warning: Race|    Write|    Read)' "$log"
                    echo "  (${summary:-errors}; the whole report: $log)"; sbad=1
                elif [ "$rc" = 0 ]; then echo "compute-sanitizer $tool: clean ($step's ./run $run_args)"
                else echo "compute-sanitizer $tool: ./run exited $rc (the tests above say why)"; sbad=1; fi
                continue
            fi
            if [ "$rc" = 0 ]; then
                printf 'clean    %-44s %-10s %s\n' "$step" "$tool" "$run_args"
            elif [ "$r" -gt 0 ] || [ "${allowed:-0}" != 0 ]; then
                printf 'allowed  %-44s %-10s %s: %s (documented as unsafe)\n' "$step" "$tool" "$run_args" "$what"
            else
                printf '!! FAIL  %-44s %-10s %s: %s (see %s)\n' "$step" "$tool" "$run_args" "$what" "$log"; sbad=1
            fi
        done
    done
    return $sbad
}
# SANITIZE_AT_ONCE=K sanitizes K steps at a time (their lines still print in order)
at_once=${SANITIZE_AT_ONCE:-1}
outdir=$(mktemp -d); trap 'rm -rf "$outdir"' EXIT
k=0
for step in "$@"; do
    k=$((k + 1))
    ( one_step "$step" >"$outdir/$k.out" 2>&1; echo $? >"$outdir/$k.rc" ) &
    while [ "$(jobs -rp | wc -l)" -ge "$at_once" ]; do wait -n; done
done
wait
for k in $(seq 1 $#); do
    cat "$outdir/$k.out"
    [ "$(cat "$outdir/$k.rc")" = 0 ] || bad=1
done
exit $bad
