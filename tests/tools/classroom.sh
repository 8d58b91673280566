#!/usr/bin/env bash
# classroom.sh test STEP...: `make test` in a student handout (tests/tools/classroom.mk, handout-test).
# Every step you have started (a file of it differs from the exercise as handed out, or is gone:
# tests/tools/exercises.sh state, the test `make status` uses too) is built and
# checked as `make check` does (tests/tools/run-suites.sh check, whose result `make status` shows);
# a step you have not started is listed as such and costs nothing, so open TODOs never fail the run.
# The lab's own CPU suite runs too. Then the `make status` table.
# Exit status: 0 when every started step passed on a GPU; 1 when one failed or does not build;
# 3 when none failed but GPU tests did not run (no GPU visible: not a pass).
set -uo pipefail
mode=${1:-}; shift || true
[ "$mode" = test ] || { echo "classroom.sh test STEP..." >&2; exit 2; }
unset MAKEFLAGS MFLAGS MAKELEVEL
mk() { make --no-print-directory ${LAB_ARCH:+CUDA_ARCH="$LAB_ARCH"} "$@"; }
started=() fresh=()
while IFS=$'\t' read -r step state _; do
    if [ "$state" = untouched ]; then fresh+=("$step"); else started+=("$step"); fi
done < <(bash tests/tools/exercises.sh state "$@")
echo "make test: ${#started[@]} steps you have started are checked; ${#fresh[@]} not started are left alone."
worst=0
verdict() { [ "$1" = 1 ] && worst=1; [ "$1" = 3 ] && [ "$worst" = 0 ] && worst=3; }
if mk build/tests/common >build/handout-test-common.log 2>&1; then
    bash tests/tools/run-suites.sh suites build/tests/common >build/handout-test-common.log 2>&1 || verdict 1
    printf '  %-40s %s\n' "the lab's own CPU tests" "$(tail -n 1 build/handout-test-common.log)"
else
    printf '  %-40s %s\n' "the lab's own CPU tests" "do not build: build/handout-test-common.log"; verdict 1
fi
for s in "${started[@]}"; do
    mkdir -p "build/$s"
    if ! mk "build/$s/test" "build/$s/run" >"build/$s/handout-test-build.log" 2>&1; then
        err=$(grep -m1 -E '(^|[^A-Za-z_])(error|fatal error)[: ]|undefined reference' "build/$s/handout-test-build.log" | cut -c1-160)
        echo "FAIL $(date '+%Y-%m-%d %H:%M') does not build: ${err:-see build/$s/handout-test-build.log}" >"build/$s/test.result"
        printf '  %-40s %s\n' "$s" "does not build: ${err:-see build/$s/handout-test-build.log}"; verdict 1; continue
    fi
    bash tests/tools/run-suites.sh check "build/$s/test" >"build/$s/handout-test.log" 2>&1; rc=$?
    printf '  %-40s %s\n' "$s" "$(grep -E '^(PASS|FAIL|your kernel was not run)' "build/$s/handout-test.log" | tail -n1)"
    verdict "$rc"
done
echo
bash tests/tools/status.sh "$@"
echo
case $worst in
0) if [ ${#started[@]} = 0 ]; then echo "make test: you have not started a step yet (make status); make ch12-merge/step1 && ./run is one way in."
   else echo "make test: every step you have started passed on the GPU."; fi ;;
1) echo "make test: a step you have started fails (above); make check STEP=... shows its failures." ;;
3) echo "make test: your kernels were not run: no GPU visible. This is not a pass: run make test where there is an NVIDIA GPU." ;;
esac
exit $worst
