#!/usr/bin/env bash
# classroom-gpu-demo.sh: the classroom kit end to end, on a GPU machine (about 4-5 minutes on
# one H100; run it with a 600 s limit). From the instructors' tree:
#   1. make handout into a scratch folder (its leak check runs);
#   2. the leak check fails on a copy of the handout with one solution line planted in it;
#   3. a student's tree made from the handout: three exercises filled with the solution's files,
#      one filled with a wrong tie rule (a register merge that takes B first on a tie: the wrong
#      variant tests/mutants/ch12-merge/step6-register-merge-B-first-tie.sed applied to the
#      solution), one whose kernels loop forever, one whose kernel writes one element past the end
#      of its output, and common/ and a suite broken (which must not matter); ch12 step 1, which
#      ch12 steps 2 and 3 build on (the student's own copy, as in their make check), filled too;
#   4. make grade STUDENT=that tree on those six steps, with performance credit on for one step:
#      the table, results.json, the JUnit XML (short);
#   5. a summary table, last: each expectation and what happened. Exit 1 when one is not met.
# DEMO_DIR=dir keeps the scratch folder there (default: a temporary one, removed at the end).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
export NCCL_NVLS_ENABLE=0
unset MAKEFLAGS MFLAGS MAKELEVEL
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
top=$(pwd)
if [ -n "${DEMO_DIR:-}" ]; then tmp=$DEMO_DIR; rm -rf "$tmp"; mkdir -p "$tmp"; else tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; fi
t0=$(date +%s)
rows=() bad=0
row() { rows+=("$(printf '%-4s  %-50s %-34s %s' "$4" "$1" "$2" "$3")"); [ "$4" = ok ] || bad=1; }   # WHAT EXPECTED GOT ok|FAIL
step_of() { local d; for d in "$1"-*/; do [ -d "$d" ] && { echo "${d%/}"; return; }; done; }
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader

# ---- 1. the handout ------------------------------------------------------------------------------
h=$tmp/handout
echo "== make handout OUT=$h"
make --no-print-directory handout OUT="$h" 2>&1 | tail -n 3; rc=${PIPESTATUS[0]}
row "make handout (leak check included)" "exit 0" "exit $rc" "$([ "$rc" = 0 ] && echo ok || echo FAIL)"
[ "$rc" = 0 ] || { printf '%s\n' "${rows[@]}"; exit 1; }
[ -d .deps ] && ln -s "$top/.deps" "$h/.deps"

# ---- 2. the leak check, failing on a planted line -------------------------------------------------
sol_steps=(); for d in solutions/ch*/step*/; do ls "$d"*.cu >/dev/null 2>&1 && sol_steps+=("${d%/}"); done
plant=$(bash tests/tools/handout.sh lines "${sol_steps[@]}" | awk -F'\t' '$2 >= 24 { print; exit }')
p=$tmp/planted; mkdir -p "$p"; tar -C "$h" --exclude=./.deps -cf - . | tar -C "$p" -xf -
s13=$(step_of ch13-sort/step6); target=$s13/$(cd "$p/$s13" && ls *.cu | head -n1)
printf '%s\n' "${plant##*$'\t'}" >>"$p/$target"
echo "== make handout-check on a copy with this line of ${plant%%$'\t'*} planted in $target:"
echo "   ${plant##*$'\t'}"
make --no-print-directory handout-check OUT="$p" >"$tmp/leak.log" 2>&1; rc=$?
grep -E '^(LEAK|handout-check)' "$tmp/leak.log" | cut -c1-220
hit=$(grep -c "^LEAK $target:" "$tmp/leak.log")
row "leak check on a planted solution line" "fails, naming the planted file" "exit $rc, $hit hit(s) in $target" "$([ "$rc" != 0 ] && [ "$hit" -gt 0 ] && echo ok || echo FAIL)"

# ---- 3. a student's tree ------------------------------------------------------------------------
stu=$tmp/student; mkdir -p "$stu"; tar -C "$h" --exclude=./.deps -cf - . | tar -C "$stu" -xf -
fill() { cp "solutions/$1"/*.cu "$stu/$1/"; for f in "solutions/$1"/*.cuh "solutions/$1"/*.h "solutions/$1"/*.c; do [ -f "$f" ] && cp "$f" "$stu/$1/"; done; }
good=("$(step_of ch10-reduction/step1)" "$(step_of ch12-merge/step2)" "$(step_of ch13-sort/step1)")
for s in "${good[@]}"; do fill "$s"; done
fill "$(step_of ch12-merge/step1)"   # steps 2 and 3 build on the student's own step 1
# a B-first tie rule in merge path's register merge, a step no other demo step builds on
wrong=$(step_of ch12-merge/step6); fill "$wrong"
mut=""
for m in step6-register-merge-B-first-tie step6-search-B-first-tie; do [ -f "tests/mutants/ch12-merge/$m.sed" ] && { mut=tests/mutants/ch12-merge/$m.sed; break; }; done
[ -n "$mut" ] || mut=$(grep -l "^# step: *solutions/$wrong *\$" tests/mutants/ch12-merge/*.sed | grep -i tie | head -n1)
echo "== the wrong step: $wrong with $mut ($(sed -n 's/^# why: *//p' "$mut"))"
mfile=$(sed -n 's/^# file: *//p' "$mut" | head -n1)
sed -i -f "$mut" "$stu/$wrong/$mfile"
cmp -s "solutions/$wrong/$mfile" "$stu/$wrong/$mfile" && echo "!! the wrong variant $mut changed nothing in $wrong/$mfile"
# every kernel of this step spins forever
loop=$(step_of ch10-reduction/step2); fill "$loop"
for f in "$stu/$loop"/*.cu; do
    awk '/^[a-z_ ]*__global__/ { g = 1 } g && /\{[ \t]*$/ { print; print "    for (;;) __nanosleep(1000); /* demo: a kernel that never finishes */"; g = 0; next } { print }' "$f" >"$f.new" && mv "$f.new" "$f"
done
grep -q '__nanosleep(1000); /\* demo' "$stu/$loop"/*.cu || echo "!! could not plant the endless loop in $loop"
# the merge kernel writes C[m + n], one past the end of its output
oob=$(step_of ch12-merge/step3); fill "$oob"
for f in "$stu/$oob"/*.cu; do
    awk '/^[a-z_ ]*__global__/ && /int \*C/ && !done { g = 1 } g && /\{[ \t]*$/ { print; print "    if (blockIdx.x == 0 && threadIdx.x == 0) C[m + n] = 0x0bad; /* demo: out of bounds */"; g = 0; done = 1; next } { print }' "$f" >"$f.new" && mv "$f.new" "$f"
done
grep -q 'C\[m + n\] = 0x0bad' "$stu/$oob"/*.cu || echo "!! could not plant the out-of-bounds write in $oob"
# edits outside the step files must not reach the grade
echo '#error a student edit of common/ must not reach the grade' >>"$stu/common/lab.h"
for f in "$stu"/tests/ch*/*.c; do echo '#error a student edit of the suites must not reach the grade' >>"$f"; done
echo "== the student's tree $stu: filled with the solution: ${good[*]}; B-first tie: $wrong; endless kernels: $loop; out of bounds: $oob"

# ---- 4. make grade ------------------------------------------------------------------------------
points=$tmp/points.txt
{ cat tests/grade/points.txt; echo "${good[0]} 10 perf=2@0.5   # the demo: performance credit on"; } >"$points"
g=$tmp/grade
steps=("${good[@]}" "$wrong" "$loop" "$oob")
echo "== make grade STUDENT=$stu STEP=\"${steps[*]}\" (GRADE_TEST_TIMEOUT=${GRADE_TEST_TIMEOUT:-20} GRADE_STEP_TIMEOUT=${GRADE_STEP_TIMEOUT:-150}; perf credit on for ${good[0]})"
t1=$(date +%s)
make --no-print-directory grade STUDENT="$stu" STEP="${steps[*]}" POINTS="$points" GRADE_OUT="$g" \
    GRADE_TEST_TIMEOUT=${GRADE_TEST_TIMEOUT:-20} GRADE_STEP_TIMEOUT=${GRADE_STEP_TIMEOUT:-150} >"$tmp/grade.log" 2>&1; rc=$?
grep -v '^step \|^total \|^ch[0-9]' "$tmp/grade.log" | head -n 20
echo "== the table (grade/table.txt), $(($(date +%s) - t1)) s"
cat "$g/table.txt"
echo "== results.json"
cat "$g/results.json" | cut -c1-400
echo "== junit.xml (testcases and failure messages)"
grep -E '<testsuites|<testsuite |<testcase|<failure' "$g/junit.xml" | sed 's/>[^<]*$/>/' | cut -c1-260
row "make grade completes" "exit 0" "exit $rc" "$([ "$rc" = 0 ] && echo ok || echo FAIL)"
valid=$(python3 -c "import json, xml.etree.ElementTree as E, sys; r = json.load(open('$g/results.json')); E.parse('$g/junit.xml'); print(len(r['tests']), r['score'])" 2>&1)
row "results.json and junit.xml parse" "tests, score" "$valid" "$([[ $valid =~ ^[0-9]+\ [0-9.]+$ ]] && echo ok || echo FAIL)"
line() { grep "^$1 " "$g/table.txt" | head -n1; }
got() { cut -c56- <<<"$1" | cut -c1-70; }   # a table row's points and reason
for s in "${good[@]}"; do
    l=$(line "$s"); res=$(awk '{ print $2, $3 }' <<<"$l")
    row "$s (solution's files)" "all tests pass, 10/10" "$res" "$([[ $res == */*\ 10/10 ]] && [ "$(awk '{ split($2, a, "/"); print (a[1] == a[2]) }' <<<"$l")" = 1 ] && echo ok || echo FAIL)"
done
l=$(grep "^${good[0]} (performance)" "$g/table.txt")
row "${good[0]} performance credit (2@0.5)" "2/2 (same code as the solution)" "$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) { print $i; exit } }' <<<"$l")" \
    "$(grep -q ' 2/2 ' <<<"$l" && echo ok || echo FAIL)"
l=$(line "$wrong"); row "$wrong (B-first tie)" "0/10, a failing test named" "$(got "$l")" "$([[ $l == *" 0/10 "*"::"* ]] && echo ok || echo FAIL)"
l=$(line "$loop"); row "$loop (kernels never finish)" "0/10, past its deadline; goes on" "$(got "$l")" \
    "$([[ $l == *" 0/10 "* ]] && [[ $l == *"timed out"* || $l == *"did not finish"* ]] && echo ok || echo FAIL)"
l=$(line "$oob"); row "$oob (writes C[m + n])" "0/10, a failing test named" "$(got "$l")" "$([[ $l == *" 0/10 "* ]] && [[ $l != *"does not compile"* ]] && echo ok || echo FAIL)"
leftover=0 scratch=$(cd build/grade/tree 2>/dev/null && pwd -P)   # test processes still running in the grader's scratch tree
for pid in $(pgrep -f 'build/ch[0-9]+-[a-z]+/step[0-9][^ ]*/test'); do
    [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$scratch" ] && leftover=$((leftover + 1))
done
row "no test process left running" "0" "$leftover" "$([ "$leftover" = 0 ] && echo ok || echo FAIL)"

echo
echo "== summary ($(($(date +%s) - t0)) s; files under ${DEMO_DIR:-a temporary folder})"
printf '%-4s  %-50s %-34s %s\n' "" "check" "expected" "got"
printf '%s\n' "${rows[@]}"
[ "$bad" = 0 ] && echo "classroom demo: every expectation met" || echo "classroom demo: an expectation was not met (FAIL above)"
exit $bad
