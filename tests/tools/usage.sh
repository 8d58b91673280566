#!/usr/bin/env bash
# usage.sh [ERROR]: the commands and the steps; with ERROR, that first (make's answer to a wrong name).
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
cat <<'TEXT'
Commands (README.md says more):
  make ch12-merge/step3 && ./run        build your version of a step and run it (stepN or stepN-name)
  make solutions/ch12-merge/step3       the same for the solution (where solutions/ is there)
  ./run --help                          the step's options
  make check STEP=ch12-merge/step3      that step's tests against your version (needs a GPU)
  make hint STEP=ch12-merge/step3 [N=2] graded hints for the TODOs you have left
  make diff STEP=ch12-merge/step3       your file against the solution (shows the solution)
  make status                           every step: untouched, TODOs left, builds, passed
  make list                             the catalogue: every step, its figures and its idea
  make test                             every suite against the solutions (maintainers)
  make sanitize | bench | plots         compute-sanitizer, benchmarks against CUB, plots
  make exercises [FORCE=1]              regenerate the exercises (keeps your edits unless FORCE=1)
  make clean                            remove build/ and ./run
Variables: V=1 shows every command; CUDA_ARCH=90 builds for one GPU architecture.
TEXT
printf '\nSteps:\n'
for ch in ch10-reduction ch12-merge ch13-sort; do
    [ -d "$ch" ] || continue
    (cd "$ch" && ls -d step*/ 2>/dev/null | sed 's|/$||' | tr '\n' ' ') | fold -s -w 82 |
        awk -v ch="$ch" '{ printf "  %-16s %s\n", NR == 1 ? ch : "", $0 }'
done
[ $# -gt 0 ] && printf '\nmake: %s\n' "$*" >&2
exit 0
