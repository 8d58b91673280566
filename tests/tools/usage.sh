#!/usr/bin/env bash
# usage.sh [ERROR]: the commands (every one README.md lists) and the steps; with ERROR, that first
# (make's answer to a wrong name). In a student handout (no solutions/) the instructors' commands are
# left out.
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
sol=$([ -d solutions ] && echo yes)
echo "Commands (README.md says more):"
cat <<'TEXT'
  make ch12-merge/step3 && ./run        build your version of a step, run it (stepN or stepN-name)
  ./run --help                          the step's options
  make check STEP=ch12-merge/step3      that step's tests against your version (needs a GPU)
  make hint STEP=ch12-merge/step3 [N=2] graded hints for the step's TODOs [TODO=k: one of them]
  make status                           every step: untouched, TODOs left, builds, passed
  make list                             the catalogue: every step, its figures and its idea
  make profile STEP=ch12-merge/step3    Nsight Compute's counters, beside the step before [FULL=1]
  make all                              every step and its tests, built (make -j8 all: 8 at once)
TEXT
if [ -n "$sol" ]; then cat <<'TEXT'
  make solutions/ch12-merge/step3       build the solution, and point ./run at it
  make diff STEP=ch12-merge/step3       your file against the solution (shows the solution)
  make solution STEP=ch12-merge/step3   the solution's files as a student reads them
  make test                             every suite on the solutions, wrong variants (maintainers)
  make sanitize                         compute-sanitizer over every solution step
  make bench [CHAPTERS="ch12-merge"]    benchmarks against CUB and the copy ceiling (on a GPU)
  make plots                            the plots, from the benchmarks' CSVs
  make mutants                          the wrong variants, each caught by its suite (in make test)
  make profile-collect [CHAPTERS=...]   every solution step's counters, for the committed profile
  make exercises [STEP=...] [FORCE=1]   regenerate the exercises (keeps your edits unless FORCE=1)
  make exercises-check                  the exercises are what make exercises writes (CI)
  make handout [OUT=dir]                the students' tree, without solutions (leak-checked)
  make handout-check [OUT=dir]          the leak check alone, on a handout made earlier
  make grade [STUDENT=dir] [STEP=...]   score a student's steps on a GPU (Gradescope, JUnit, TAP)
  make docs-check                       the docs agree with the catalogue, the errata and the tree
  make catalogue-readmes                each step README's first line from docs/catalogue.txt
TEXT
else cat <<'TEXT'
  make test                             every step you have started, checked
  make grade [STEP=...]                 your steps scored as your instructor's grader does (on a GPU)
TEXT
fi
cat <<'TEXT'
  make help                             this list
  make clean                            remove build/ and the ./run links
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
