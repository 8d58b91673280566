#!/usr/bin/env bash
# catalogue.sh SOLUTION_STEP...: one line per step from its README's
# "Figures:" and "Idea:" lines.
printf '%-16s %-24s %-26s %s\n' chapter step "book figures" "the one idea it adds"
for s in "$@"; do
    rel=${s#solutions/}; ch=${rel%%/*}; st=${rel#*/}
    figs=$(sed -n 's/^Figures: *//p' "$s/README.md" 2>/dev/null | head -n1)
    idea=$(sed -n 's/^Idea: *//p' "$s/README.md" 2>/dev/null | head -n1)
    printf '%-16s %-24s %-26s %s\n' "$ch" "$st" "${figs:-?}" "${idea:-?}"
done
