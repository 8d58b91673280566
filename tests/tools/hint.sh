#!/usr/bin/env bash
# hint.sh STEP [N] [K]: hints 1..N of each TODO of STEP (of TODO(K) alone when K is given), from the
# step's HINTS file, which `make exercises` writes from the solution (tests/tools/exercise.awk says
# its layout). Every TODO is shown, whether or not its comment is still in your files: a TODO whose
# comment you removed also shows its text, since your file no longer has it.
set -uo pipefail
step=$1 level=${2:-1} only=${3:-}
[[ $level =~ ^[1-9][0-9]*$ ]] || { echo "make hint: N must be 1, 2, 3, ... (got '$level')" >&2; exit 2; }
[ -z "$only" ] || [[ $only =~ ^[1-9][0-9]*$ ]] || { echo "make hint: TODO must be a TODO's number, 1, 2, ... (got '$only')" >&2; exit 2; }
hints=$step/HINTS
if [ ! -f "$hints" ]; then
    if [ -f "$step/.exercise" ] && grep -q ' HINTS$' "$step/.exercise"; then
        bash "$(dirname "${BASH_SOURCE[0]}")/exercises.sh" present "$step"; exit 2
    fi
    echo "$step has no hints: it has no TODOs"; exit 0
fi
# the TODOs whose comment is still in your files (a comment may run over several lines: its first)
open=$(cd "$step" && grep -ho '/\* TODO([0-9]*)' -- *.cu *.cuh *.h *.c 2>/dev/null | sed 's/[^0-9]//g' | sort -n | uniq)
more=$([ -d "solutions/$step" ] && echo "make diff STEP=$step shows the solution.")
awk -v open=" $(echo $open) " -v level="$level" -v only="$only" -v step="$step" -v more="$more" '
    function flush() { if (cur != "" && show) { print ""; print head; if (!isopen) { print "  (its TODO comment is no longer in your files; it said:)"; printf "%s", text }; printf "%s", (body != "" ? body : "  (no hint beyond the TODO'"'"'s text)\n") } }
    /^TODO\([0-9]+\)/ { flush(); t = $0; sub(/^TODO\(/, "", t); sub(/\).*/, "", t); cur = t; head = $0; text = body = ""; n = 0
                        isopen = index(open, " " t " ") > 0; show = only == "" || only == t; if (show) shown++; last[t] = 0; next }
    cur == "" { next }
    /^  [0-9]+\. / { n++; last[cur] = n; inhint = n <= level; if (inhint) body = body $0 "\n"; if (n == level + 1 && show) more_of[cur] = 1; next }
    /^     / && n > 0 { if (inhint) body = body $0 "\n"; next }
    /^    / && n == 0 { text = text $0 "\n"; next }
    END { flush()
          if (!shown) { printf "%s has no TODO(%s): its TODOs are TODO(1) to TODO(%d)\n", step, only, cur; exit 2 }
          print ""
          nm = 0; for (t in more_of) nm++
          if (nm > 0) printf "More: make hint STEP=%s N=%d%s", step, level + 1, (only != "" ? " TODO=" only : "")
          else printf "That was the last hint of %s", (only != "" ? "TODO(" only ")" : "each TODO")
          print (only == "" ? " (TODO=k shows TODO(k) alone)." : ".")
          if (more != "") print more }' "$hints"
