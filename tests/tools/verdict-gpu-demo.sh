#!/usr/bin/env bash
# verdict-gpu-demo.sh [7] [8]: issue 37 items 7 and 8 on a GPU machine (both by default; about 6-8
# minutes on one H100 with 16 cores: run it with a 600 s limit, or one item per call). From the
# instructors' tree, a handout made into a scratch folder (DEMO_DIR=dir keeps it; default a
# temporary folder, removed at the end) is a student's tree:
#   7. its ch12 step 3 filled with the solution's files over its step 1 as handed out (step 3 builds
#      on step 1): make check in the handout says first which TODOs of step 1 are left, then fails;
#      make grade in the handout (in place) and make grade STUDENT=handout in this tree give one
#      verdict, 0 points, naming them. Then step 1 filled too: make check passes, both grades give
#      full marks.
#   8. its ch13 steps 7 and 9 filled with the solution's files (step 9 builds on step 7, and its
#      suite runs ./run): make check STEP=ch13-sort/step9 passes, and make grade STUDENT=handout
#      STEP=ch13-sort/step9 scores it full marks, every test run and passed.
# Then a table: each expectation and what happened; exit 1 when one is not met, 3 with no GPU.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi -L >/dev/null 2>&1 || { echo "verdict-gpu-demo.sh: no NVIDIA GPU visible (nvidia-smi finds none): it runs on a GPU machine"; exit 3; }
export NCCL_NVLS_ENABLE=0
unset MAKEFLAGS MFLAGS MAKELEVEL
top=$(pwd)
items=" ${*:-7 8} "
if [ -n "${DEMO_DIR:-}" ]; then tmp=$DEMO_DIR; rm -rf "$tmp"; mkdir -p "$tmp"; else tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; fi
t0=$(date +%s)
rows=() bad=0
row() { rows+=("$(printf '%-4s  %-66s %-22s %s' "$4" "$1" "$2" "$3")"); [ "$4" = ok ] || bad=1; }   # WHAT EXPECTED GOT ok|FAIL
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
j=$(nproc 2>/dev/null || echo 8)

h=$tmp/handout
echo "== make handout OUT=$h"
make --no-print-directory handout OUT="$h" 2>&1 | tail -n 2
[ -f "$h/Makefile" ] || { echo "make handout failed"; exit 1; }
[ -d .deps ] && ln -s "$top/.deps" "$h/.deps"
ex() { (cd "$h" && ls -d "$1"-*/ 2>/dev/null | head -n1 | sed 's|/$||'); }
fill() { local f; for f in solutions/"$1"/*.cu solutions/"$1"/*.cuh solutions/"$1"/*.h solutions/"$1"/*.c; do [ -f "$f" ] && cp "$f" "$h/$1/"; done; }
# check STEP TAG: make check in the handout (log $tmp/check-TAG.log, exit status in rc)
check() { make --no-print-directory -C "$h" -j"$j" check STEP="$1" >"$tmp/check-$2.log" 2>&1; rc=$?; }
# grades STEP TAG: the handout's own grade (in place) and this tree's grade of the handout; their table rows in vh, vi
grades() {
    make --no-print-directory -C "$h" grade STEP="$1" GRADE_OUT="$tmp/grade-h-$2" >"$tmp/grade-h-$2.log" 2>&1
    make --no-print-directory grade STUDENT="$h" STEP="$1" GRADE_OUT="$tmp/grade-i-$2" >"$tmp/grade-i-$2.log" 2>&1
    local d; d=$(ex "$1")
    vh=$(grep "^$d " "$tmp/grade-h-$2/table.txt" 2>/dev/null) vi=$(grep "^$d " "$tmp/grade-i-$2/table.txt" 2>/dev/null)
    printf '   handout (in place):         %s\n   this tree, STUDENT=handout: %s\n' "$vh" "$vi" | cut -c1-230
}
full() { awk '{ split($2, t, "/"); split($3, p, "/"); exit !(t[1] == t[2] && t[1] > 0 && p[1] == p[2] && p[1] > 0) }' <<<"$1"; }

if [[ $items == *" 7 "* ]]; then
    s1=$(ex ch12-merge/step1) s3=$(ex ch12-merge/step3)
    fill "$s3"
    echo "== 7. $s3 filled with the solution's files, over $s1 as handed out"
    check ch12-merge/step3 s3-over-untouched
    grep -E '^note|^    ch12|Synthesis|^FAIL|^PASS' "$tmp/check-s3-over-untouched.log" | head -n 8 | cut -c1-200
    note=$(grep -n "^note: $s3 builds on your $s1" "$tmp/check-s3-over-untouched.log" | head -n1 | cut -d: -f1)
    syn=$(grep -n 'Synthesis' "$tmp/check-s3-over-untouched.log" | head -n1 | cut -d: -f1)
    row "make check of step 3 over step 1 untouched: fails" "exit non-zero" "exit $rc" "$([ "$rc" != 0 ] && echo ok || echo FAIL)"
    row "  ... saying first which TODOs of step 1 are left" "before the tests" "line ${note:-none} (tests: ${syn:-none})" \
        "$([ -n "$note" ] && [ -n "$syn" ] && [ "$note" -lt "$syn" ] && echo ok || echo FAIL)"
    grades ch12-merge/step3 s3-over-untouched
    row "  ... make grade, in the handout and here: one verdict, 0 points" "equal rows, 0/10" "$(awk '{ print $3 }' <<<"$vi")" \
        "$([ -n "$vi" ] && [ "$vh" = "$vi" ] && [[ $vi == *" 0/"* ]] && echo ok || echo FAIL)"
    row "  ... naming step 1's TODOs" "in the reason" "$(grep -c "builds on unfinished steps ($s1: TODO(1)" <<<"$vi") mention" \
        "$([[ $vi == *"builds on unfinished steps ($s1: TODO(1)"* ]] && echo ok || echo FAIL)"
    fill "$s1"
    echo "== 7. and with $s1 filled too"
    check ch12-merge/step3 s3-over-done
    grep -E 'Synthesis|^FAIL|^PASS' "$tmp/check-s3-over-done.log" | cut -c1-200
    row "make check of step 3 over step 1 done: passes" "exit 0, PASS" "exit $rc" "$([ "$rc" = 0 ] && grep -q '^PASS: all' "$tmp/check-s3-over-done.log" && echo ok || echo FAIL)"
    grades ch12-merge/step3 s3-over-done
    row "  ... make grade, in the handout and here: one verdict, full marks" "equal rows, all/all" "$(awk '{ print $2, $3 }' <<<"$vi")" \
        "$([ -n "$vi" ] && [ "$vh" = "$vi" ] && full "$vi" && echo ok || echo FAIL)"
fi

if [[ $items == *" 8 "* ]]; then
    s7=$(ex ch13-sort/step7) s9=$(ex ch13-sort/step9)
    fill "$s7"; fill "$s9"
    echo "== 8. $s7 and $s9 filled with the solution's files"
    check ch13-sort/step9 s9
    grep -E 'Synthesis|^FAIL|^PASS|^note' "$tmp/check-s9.log" | cut -c1-200
    row "make check of step 9 (the solution's files): passes" "exit 0, PASS" "exit $rc" "$([ "$rc" = 0 ] && grep -q '^PASS: all' "$tmp/check-s9.log" && echo ok || echo FAIL)"
    make --no-print-directory grade STUDENT="$h" STEP=ch13-sort/step9 GRADE_OUT="$tmp/grade-i-s9" >"$tmp/grade-i-s9.log" 2>&1
    vi=$(grep "^$s9 " "$tmp/grade-i-s9/table.txt" 2>/dev/null)
    echo "   this tree, STUDENT=handout: $vi" | cut -c1-230
    n=$(grep -c "not built beside this suite" "$tmp/grade-i-s9/logs/$s9/test.tap" 2>/dev/null)
    row "make grade STUDENT= of the same step 9: full marks" "all/all, 10/10" "$(awk '{ print $2, $3 }' <<<"$vi")" \
        "$([ -n "$vi" ] && full "$vi" && echo ok || echo FAIL)"
    row "  ... its ./run built beside the suite (no test skipped for it)" "0 skipped" "${n:-0} skipped" "$([ "${n:-0}" = 0 ] && echo ok || echo FAIL)"
fi

echo
echo "== summary ($(($(date +%s) - t0)) s; logs under ${DEMO_DIR:-a temporary folder: DEMO_DIR=dir keeps them})"
printf '%-4s  %-66s %-22s %s\n' "" "check" "expected" "got"
printf '%s\n' "${rows[@]}"
[ "$bad" = 0 ] && echo "verdict demo: every expectation met" || echo "verdict demo: an expectation was not met (FAIL above)"
exit $bad
