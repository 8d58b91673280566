#!/usr/bin/env bash
# exercises.sh write|check SOLUTION_STEP...
#   write: regenerates each exercise step (ch*/stepN-name/) from solutions/.
#   check: fails when a committed exercise differs from what write would make.
set -euo pipefail
mode=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
for sol in "$@"; do
    step=${sol#solutions/}
    main=$(cd "$sol" && ls *.cu | head -n1)
    out=$tmp/$step; mkdir -p "$out"
    # headers first, then the kernel file, so TODO numbers follow the reading order
    files=$(cd "$sol" && { ls *.h 2>/dev/null || true; ls *.cu; })
    (cd "$sol" && awk -v step="$step" -v outdir="$out" -v main="$main" -f "$OLDPWD/tests/exercise.awk" $files)
    for f in README.md Makefile; do [ -f "$sol/$f" ] && cp "$sol/$f" "$out/$f"; done
    if [ "$mode" = write ]; then
        mkdir -p "$step"
        find "$step" -maxdepth 1 -type f -delete
        cp "$out"/* "$step"/
        echo "wrote $step"
    elif ! diff -r -x run "$out" "$step" >"$tmp/diff" 2>&1; then
        echo "!! $step differs from what \`make exercises\` generates from $sol:"; head -n 20 "$tmp/diff"; status=1
    fi
done
[ "$mode" = check ] && [ "$status" = 0 ] && echo "exercises: all $# match solutions/ (make exercises)"
exit $status
