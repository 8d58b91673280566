#!/usr/bin/env bash
# hint.sh STEP N: for each TODO still open in your files of STEP, hints 1..N from its HINTS file.
set -uo pipefail
step=$1 level=${2:-1}
[[ $level =~ ^[1-9][0-9]*$ ]] || { echo "make hint: N must be 1, 2, 3, ... (got '$level')" >&2; exit 2; }
hints=$step/HINTS
[ -f "$hints" ] || { echo "$step has no hints: it has no TODOs"; exit 0; }
open=$(cd "$step" && grep -ho '/\* TODO([0-9]*)' -- *.cu *.cuh *.h *.c 2>/dev/null | sed 's/[^0-9]//g' | sort -n | uniq)
if [ -z "$open" ]; then echo "$step: no TODO is left in your files. make check STEP=$step runs its tests."; exit 0; fi
awk -v open=" $(echo $open) " -v level="$level" '
    /^TODO\([0-9]+\)/ { t = $0; sub(/^TODO\(/, "", t); sub(/\).*/, "", t); show = index(open, " " t " ") > 0
                        if (show) { print ""; print; shown++ }; n = 0; next }
    /^  [0-9]+\. / { n++; if (show && n <= level) print; if (show && n == level + 1) more[t] = 1; next }
    END { if (!shown) exit
          print ""
          if (length(more) > 0) printf "More: make hint STEP=%s N=%d. ", step, level + 1
          else printf "That was the last hint of each. "
          print "make diff STEP=" step " shows the solution." }' step="$step" "$hints"
