#!/usr/bin/env bash
# status.sh STEP...: every exercise step: untouched, edited or missing a file (tests/tools/exercises.sh
# state: the one test of that), TODOs left, whether it builds (its ./run is up to date with your
# files), and the result of its last `make check`, marked when a file of the step (or of a step it
# builds on) changed since.
set -uo pipefail
here=$(dirname "${BASH_SOURCE[0]}")
printf '%-40s %-10s %-10s %-10s %s\n' step "your files" "TODOs left" builds "last make check"
gone=()
while IFS=$'\t' read -r step state missing edited; do
    todos=$(cat "$step"/*.cu "$step"/*.cuh "$step"/*.h "$step"/*.c 2>/dev/null | grep -c '/\* TODO([0-9]*)')
    if [ ! -x "build/$step/run" ]; then built="not yet"
    elif make -q "build/$step/run" >/dev/null 2>&1; then built=yes
    else built="stale"; fi
    result=$(cat "build/$step/test.result" 2>/dev/null || echo "never run")
    if [ -f "build/$step/test.result" ]; then
        dirs="$step $(sed -n 's/^LAB_USES *:= *//p' "$step/Makefile" 2>/dev/null)"
        newer=$(for d in $dirs; do find "$d" -maxdepth 1 -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.h' -o -name '*.c' \) \
            -newer "build/$step/test.result"; done 2>/dev/null | head -n1)
        [ -z "$newer" ] || result="$result (before you changed ${newer#./})"
    fi
    printf '%-40s %-10s %-10s %-10s %s\n' "$step" "$state" "$todos" "$built" "$result"
    [ "$state" = missing ] && gone+=("$step")
done < <(bash "$here/exercises.sh" state "$@")
echo
for step in "${gone[@]}"; do bash "$here/exercises.sh" present "$step"; done
echo "your files: 'edited' when one differs from the exercise as handed out, 'missing' when one is gone."
echo "builds: 'stale' means you changed the step since its last build (make STEP builds it)."
echo "last make check: PASS counts only when its GPU tests ran; NOT RUN means no GPU was visible;"
echo "  '(before you changed FILE)': that result is of an earlier version of your files."
