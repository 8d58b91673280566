#!/usr/bin/env bash
# check.sh STEP: `make check STEP=...` once its binaries are built: first, the TODOs left in the
# steps it builds on (LAB_CHECK_USES: the copies its build includes, the student's own for an
# exercise: their code runs in this step's tests), then the step's tests (tests/tools/run-suites.sh
# check: no GPU is not a pass), then compute-sanitizer on its ./run (memcheck, and racecheck where
# tests/sanitize.conf has a racecheck line for the step: tests/tools/sanitize.sh --check; not after
# a kernel that never finished), then the time it took. LAB_CHECK_START (seconds since the epoch)
# is when make check began, so the build counts too. Exit status: run-suites.sh's (0, 1, 3), or 1
# when a sanitizer found errors.
set -uo pipefail
step=$1
here=$(dirname "${BASH_SOURCE[0]}")
t_build=$(date +%s)
start=${LAB_CHECK_START:-$t_build}
unfinished=()
for u in ${LAB_CHECK_USES:-}; do
    left=$(bash "$here/step-info.sh" --todos "$u")
    [ -n "$left" ] || continue
    unfinished+=("$u")
    echo "note: $step builds on your $u, whose TODOs are not all done; its code runs in these tests too:"
    cut -c1-96 <<<"$left" | sed 's/^/    /'
    echo "  (make check STEP=$u checks that step first; make hint STEP=$u gives its hints)"
done
bash "$here/run-suites.sh" check "build/$step/test"
rc=$?
t_tests=$(date +%s)
t_san=$t_tests
[ "$rc" = 1 ] && [ ${#unfinished[@]} -gt 0 ] &&
    echo "note: the steps it builds on are not finished (${unfinished[*]}: TODOs above): finish them first."
if [ -s "build/$step/test.hang" ]; then
    echo "compute-sanitizer was not run: a kernel of the tests never finished (above), and would not under it either."
elif [ "$rc" != 3 ]; then
    if command -v compute-sanitizer >/dev/null; then
        bash "$here/sanitize.sh" --check "$step" || rc=1
        t_san=$(date +%s)
    else
        echo "compute-sanitizer is not on PATH (it ships with the CUDA Toolkit, in its bin/): memcheck and racecheck were not run; that is no fault of your code."
    fi
fi
printf 'make check took %d s (build %d s, tests %d s' $((t_san - start)) $((t_build - start)) $((t_tests - t_build))
[ "$t_san" != "$t_tests" ] && printf ', compute-sanitizer %d s' $((t_san - t_tests))
echo ")"
exit $rc
