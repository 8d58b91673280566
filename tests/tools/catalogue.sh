#!/usr/bin/env bash
# catalogue.sh MODE - docs/catalogue.txt, the one source of every step's label.
#   list      the catalogue as `make list` prints it (100 columns)
#   check     every solution step has one line, and its README opens with that line's title,
#             figures and idea; the chapter guides name each step with the same figures
#   readmes   rewrites the first lines of each solution README from the catalogue (maintainers)
#   field STEP N   one field of a step's line (1 step, 2 figures, 3 origin, 4 title, 5 idea)
set -euo pipefail
cat=docs/catalogue.txt
rows() { grep -v '^[[:space:]]*\(#\|$\)' "$cat" | sed 's/[[:space:]]*|[[:space:]]*/|/g'; }
field() { rows | awk -F'|' -v s="$1" -v n="$2" '$1 == s { print $n }'; }
header() { # the README's first lines for a step
    local step=$1 ch num
    ch=${step%%-*}; num=$(sed 's/.*\/step\([0-9]*\).*/\1/' <<<"$step")
    printf '# %s step %s: %s\n\nFigures: %s\nIdea: %s\n' "$ch" "$num" "$(field "$step" 4)" "$(field "$step" 2)" "$(field "$step" 5)"
}
mode=${1:-list}
case $mode in
list)
    rows | awk -F'|' '
        function wrap(text, indent, width,   n, i, line, words) {
            n = split(text, words, " "); line = ""
            for (i = 1; i <= n; i++) {
                if (length(line) + length(words[i]) + 1 > width - indent && line != "") { printf "%*s%s\n", indent, "", line; line = "" }
                line = line (line == "" ? "" : " ") words[i]
            }
            if (line != "") printf "%*s%s\n", indent, "", line
        }
        { split($1, p, "/"); if (p[1] != last) { printf "%s%s\n", (NR > 1 ? "\n" : ""), p[1]; last = p[1] }
          figs = $3 == "beyond" ? "beyond the book" : $3 == "listing" ? "not in the book" : $2
          printf "  %-22s %-24s %s\n", p[2], figs, (length($4) > 50 ? substr($4, 1, 47) "..." : $4)
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
        g=docs/${s%%/*}.md
        if [ -f "$g" ] && ! grep -qF -- "$figs" "$g"; then echo "!! $g never names $s's figures '$figs'"; bad=1; fi
    done < <(rows)
    [ "$bad" = 0 ] && echo "catalogue: every step's README and guide use its line in $cat"
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
