#!/usr/bin/env bash
# catalogue.sh MODE - docs/catalogue.txt, the one source of every step's label.
#   list      the catalogue as `make list` prints it (100 columns)
#   check     every solution step has one line, and its README opens with that line's title,
#             figures and idea
#   readmes   rewrites the first lines of each solution README from the catalogue (maintainers)
#   field STEP N   one field of a step's line (1 step, 2 figures, 3 origin, 4 title, 5 idea)
#   labels    STEP TAB LABEL per step: the label `make list`, README.md's table and the guides
#             show (make docs-check compares them)
# A step's label: its figures, "Fig 12.9" or "Figs 12.10-12.14" when they are numbers, else as
# written ("section 12.6 exercise", "warp-synchronous listing"); a step beyond the book whose
# figures field names a section adds "; beyond the book".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
cat=docs/catalogue.txt
rows() { grep -v '^[[:space:]]*\(#\|$\)' "$cat" | sed 's/[[:space:]]*|[[:space:]]*/|/g; s/^[[:space:]]*//; s/[[:space:]]*$//'; }
LABEL_AWK='function label(figs, origin,   main, l) {
        main = figs; sub(/\(.*/, "", main)
        if (figs ~ /^[0-9]/) l = (main ~ /[,-]/ ? "Figs " : "Fig ") figs; else l = figs
        if (origin == "beyond" && l != "beyond the book") l = l "; beyond the book"
        return l }'

field() { rows | awk -F'|' -v s="$1" -v n="$2" '$1 == s { print $n }'; }
header() { # the README's first lines for a step
    local step=$1 ch num
    ch=${step%%-*}; num=$(sed 's/.*\/step\([0-9]*\).*/\1/' <<<"$step")
    printf '# %s step %s: %s\n\nFigures: %s\nIdea: %s\n' "$ch" "$num" "$(field "$step" 4)" "$(field "$step" 2)" "$(field "$step" 5)"
}
mode=${1:-list}
case $mode in
labels) rows | awk -F'|' "$LABEL_AWK"' { printf "%s\t%s\n", $1, label($2, $3) }' ;;
list)
    rows | awk -F'|' "$LABEL_AWK"'
        function wrap(text, indent, width,   n, i, line, words) {
            n = split(text, words, " "); line = ""
            for (i = 1; i <= n; i++) {
                if (length(line) + length(words[i]) + 1 > width - indent && line != "") { printf "%*s%s\n", indent, "", line; line = "" }
                line = line (line == "" ? "" : " ") words[i]
            }
            if (line != "") printf "%*s%s\n", indent, "", line
        }
        { split($1, p, "/"); if (p[1] != last) { printf "%s%s\n", (NR > 1 ? "\n" : ""), p[1]; last = p[1] }
          l = label($2, $3); w = length(l) > 24 ? length(l) : 24; room = 100 - 2 - 22 - 1 - w - 1
          printf "  %-22s %-*s %s\n", p[2], w, l, (length($4) > room ? substr($4, 1, room - 3) "..." : $4)
          wrap($5, 6, 100) }'
    printf '\n`make STEP && ./run` builds a step, e.g. `make ch12-merge/step3 && ./run` (stepN or stepN-name).\n' ;;
field) field "$2" "$3" ;;
check)
    bad=0
    for d in solutions/ch*/step*/; do
        s=${d#solutions/}; s=${s%/}
        if [ -z "$(field "$s" 1)" ]; then echo "!! $s: no line in $cat"; bad=1; continue; fi
        if ! diff <(header "$s") <(head -n 4 "solutions/$s/README.md") >/dev/null; then
            echo "!! solutions/$s/README.md does not open with its catalogue line (make catalogue-readmes):"
            diff <(header "$s") <(head -n 4 "solutions/$s/README.md") | sed 's/^/     /' | head -n 8 || true; bad=1
        fi
    done
    while IFS='|' read -r s figs origin _; do
        [ -d "solutions/$s" ] || { echo "!! $cat names $s, which has no folder under solutions/"; bad=1; continue; }
    done < <(rows)
    # (the guides' and README.md's labels: tests/tools/docs-check.sh, against `labels` above)
    [ "$bad" = 0 ] && echo "catalogue: every step's README uses its line in $cat"
    exit $bad ;;
readmes)
    for d in solutions/ch*/step*/; do
        s=${d#solutions/}; s=${s%/}
        [ -n "$(field "$s" 1)" ] || continue
        f=solutions/$s/README.md
        # keep everything after the old header block (title, blank, Figures:, Idea:)
        rest=$(awk 'NR == 1 { next } !done && (/^$/ || /^Figures:/ || /^Idea:/) { next } { done = 1; print }' "$f")
        { header "$s"; echo; printf '%s\n' "$rest"; } >"$f.new" && mv "$f.new" "$f"
        echo "wrote the header of $f"
    done ;;
*) echo "catalogue.sh: list, check, readmes or field" >&2; exit 2 ;;
esac
