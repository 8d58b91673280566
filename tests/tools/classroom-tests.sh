#!/usr/bin/env bash
# classroom-tests.sh: the classroom kit's tests on a machine without a GPU (CI: .ci/run). 3 to 9
# minutes on 2 cores, most of it building the handout. Each check prints ok/FAIL; a summary
# prints last; exit status 1 when a check failed.
#   make handout: refuses an OUT that exists or lies in the tree; the handout has no solutions/,
#     wrong variants, instructors' guide or grading page; it builds (make all), make status, make
#     test (nothing started: a pass), make check (an untouched step: not a pass), and make
#     diff/solution/exercises/handout say it has no solutions.
#   the leak check passes on the real handout and fails, naming the file and the region, on a
#     planted solution line, two planted lines in a guide, and a solution file copied in.
#   make grade without a GPU: steps filled with the solution score 0 "not run: no GPU"; valid
#     results.json (Gradescope's fields), JUnit XML and TAP; a step that does not compile scores 0
#     with the compiler's first error; a student's broken common/ and tests/ change nothing; a
#     step that calls exit() is not accepted; a grade run in a handout (the student's preview)
#     gives an untouched step the verdict the instructors' tree gives it (the last step, whose
#     solution's own calls the grader must allow from the handout's list); the grader builds ./run
#     beside the suite (some tests run it).
#   issue 37 item 7: a handout's step 3 filled with the solution over its step 1 untouched: make
#     check says first which TODOs of step 1 are left; the handout's make grade and this tree's
#     (STUDENT=) give one verdict, naming them; with step 1 done too, again one verdict, and this
#     tree's grade took the student's step 1. make hint in the handout never points at make diff.
#   the handout's README, HINTS and make help never point at solutions/ or make diff; a file whose
#     first line was removed counts as started, and make test checks that step.
# CUDA_ARCH (default 90) is the one architecture built. KEEP=1 keeps the scratch folder.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/kit-lib.sh" # the top as the working folder, the verdicts' helpers
export CUDA_ARCH=${CUDA_ARCH:-90}
kit_scratch classroom-tests
t0=$(date +%s)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
[ -z "$gpu" ] || echo "note: a GPU is visible ($gpu): the grade checks expect passes instead of 'not run: no GPU'"

sol_steps=(); for d in solutions/ch*/step*/; do ls "$d"*.cu >/dev/null 2>&1 && sol_steps+=("${d%/}"); done
ex_steps=("${sol_steps[@]#solutions/}")
[ ${#sol_steps[@]} -gt 0 ] || { echo "no solution steps: nothing to test"; exit 1; }
first=${ex_steps[0]}
# two small steps for the grader: the first of chapter 10 and of chapter 12 (whatever exists)
grade_steps=()
for ch in ch10-reduction ch12-merge; do for s in "${ex_steps[@]}"; do [[ $s == $ch/step1-* ]] && grade_steps+=("$s"); done; done
[ ${#grade_steps[@]} -gt 0 ] || grade_steps=("$first")

# ---- make handout --------------------------------------------------------------------------------
h=$tmp/handout
make --no-print-directory handout OUT="$h" >"$tmp/handout.log" 2>&1; rc=$?
check "make handout OUT=dir writes a handout (exit $rc)" [ "$rc" = 0 -a -f "$h/Makefile" ]
check "make handout ran the leak check and it passed" has 'no solution body found' "$tmp/handout.log"
make --no-print-directory handout OUT="$h" >"$tmp/again.log" 2>&1; rc=$?
check "make handout refuses an OUT that exists" [ "$rc" != 0 -a -z "$(ls -d "$h".partial-* 2>/dev/null)" ]
has 'exists' "$tmp/again.log" || bad "  ... and says why (got: $(head -c 200 "$tmp/again.log"))"
make --no-print-directory handout OUT=build/handout-inside >"$tmp/inside.log" 2>&1; rc=$?
check "make handout refuses an OUT inside the tree" [ "$rc" != 0 -a ! -e build/handout-inside ]
check "the handout has no solutions/" [ ! -e "$h/solutions" ]
check "the handout has no wrong variants, no benchmark sources, no instructors' guide or grading page" \
    [ ! -e "$h/tests/mutants" -a ! -e "$h/tests/tools/mutants.sh" -a ! -e "$h/tests/bench/bench.sh" -a ! -e "$h/docs/instructors.md" -a ! -e "$h/docs/grading.md" ]
missing=(); for s in "${ex_steps[@]}"; do [ -d "$h/$s" ] || missing+=("$s"); done
check "the handout has every exercise step (${#ex_steps[@]})${missing[*]:+; missing: ${missing[*]}}" [ ${#missing[@]} = 0 ]
check "the handout's README says it is a handout" has 'Student handout' "$h/README.md"
[ -f LICENSE ] && check "the handout has the LICENSE" [ -f "$h/LICENSE" ]
check "the handout has the default points file" [ -f "$h/tests/grade/points.txt" ]

# a copy of the handout as handed out (without what building it made)
copy_handout() { mkdir -p "$1" && tar -C "$h" --exclude=./build --exclude=./.deps --exclude=./grade -cf - . | tar -C "$1" -xf -; }

# ---- the handout works ---------------------------------------------------------------------------
[ -d .deps ] && ln -s "$top/.deps" "$h/.deps"   # Criterion, as make test fetched it here
t1=$(date +%s)
make --no-print-directory -C "$h" -j"$(nproc)" all >"$tmp/h-all.log" 2>&1; rc=$?
check "the handout builds: make -C OUT all, CUDA_ARCH=$CUDA_ARCH (exit $rc, $(($(date +%s) - t1)) s)" [ "$rc" = 0 ]
[ "$rc" = 0 ] || tail -n 15 "$tmp/h-all.log"
make --no-print-directory -C "$h" status >"$tmp/h-status.log" 2>&1; rc=$?
n_untouched=$(grep -c ' untouched ' "$tmp/h-status.log")
check "make status in the handout lists every step as untouched (exit $rc, $n_untouched of ${#ex_steps[@]})" [ "$rc" = 0 -a "$n_untouched" = ${#ex_steps[@]} ]
make --no-print-directory -C "$h" test >"$tmp/h-test.log" 2>&1; rc=$?
check "make test in a fresh handout: nothing started, a pass (exit $rc)" [ "$rc" = 0 ]
has 'not started a step' "$tmp/h-test.log" || bad "  ... and says no step is started (got: $(tail -n 1 "$tmp/h-test.log"))"
make --no-print-directory -C "$h" check STEP="$first" >"$tmp/h-check.log" 2>&1; rc=$?
check "make check of an untouched step in the handout is not a pass (exit $rc)" [ "$rc" != 0 ]
hits=$(cd "$h" && { grep -lE 'solutions/|make diff' README.md ch*/step*/HINTS; make --no-print-directory help 2>&1 | grep -cE 'solutions/|make diff' | grep -v '^0$'; } 2>/dev/null | head -n 3 | tr '\n' ' ')
check "the handout's README, HINTS and make help never point at solutions/ or make diff${hits:+ (they do: $hits)}" [ -z "$hits" ]
p0=$tmp/started; copy_handout "$p0"; [ -d .deps ] && ln -s "$top/.deps" "$p0/.deps"
f0=$(cd "$p0/$first" && ls *.cu | head -n1); sed -i 1d "$p0/$first/$f0"
make --no-print-directory -C "$p0" test >"$tmp/h-started.log" 2>&1; rc=$?
check "a handout step whose file lost its first line is started: make test checks it and does not pass (exit $rc)" \
    eval '[ "$rc" != 0 ] && grep -q "^make test: 1 steps you have started" "$tmp/h-started.log"'
for t in diff solution exercises handout; do
    make --no-print-directory -C "$h" $t STEP="$first" >"$tmp/h-$t.log" 2>&1; rc=$?
    check "make $t in the handout says it has no solutions (exit $rc)" [ "$rc" != 0 -a -n "$(grep -l 'student handout' "$tmp/h-$t.log")" ]
done

# ---- the leak check ------------------------------------------------------------------------------
make --no-print-directory handout-check OUT="$h" >"$tmp/leak.log" 2>&1; rc=$?
check "the leak check passes on the real handout (exit $rc)" [ "$rc" = 0 ]
[ "$rc" = 0 ] || head -n 10 "$tmp/leak.log"
bash tests/tools/handout.sh lines "${sol_steps[@]}" >"$tmp/lines.txt"
plant=$(awk -F'\t' '$2 >= 24 { print; exit }' "$tmp/lines.txt")
region_at=${plant%%$'\t'*}; line=${plant##*$'\t'}
host=${ex_steps[${#ex_steps[@]} - 1]}; target=$(cd "$h/$host" && ls *.cu | head -n1)
p1=$tmp/planted-line; copy_handout "$p1"
printf '%s\n' "$line" >>"$p1/$host/$target"
make --no-print-directory handout-check OUT="$p1" >"$tmp/leak1.log" 2>&1; rc=$?
check "the leak check fails on a planted solution line (exit $rc)" [ "$rc" != 0 ]
check "  ... naming the file ($host/$target) and the line's region" has "LEAK $host/$target:" "$tmp/leak1.log"
echo "      $(grep -m1 LEAK "$tmp/leak1.log" | cut -c1-180)"
# two consecutive region lines, short ones included, pasted into a guide
pair=$(awk -F'\t' '{ split($1, a, ":"); if (a[1] == f && a[2] == n + 1 && $2 + l >= 16) { print prev; print $3; exit } f = a[1]; n = a[2]; l = $2; prev = $3 }' "$tmp/lines.txt")
p2=$tmp/planted-doc; copy_handout "$p2"
guide=$(cd "$p2/docs" && ls *.md | head -n1)
{ echo; echo '```'; printf '%s\n' "$pair"; echo '```'; } >>"$p2/docs/$guide"
make --no-print-directory handout-check OUT="$p2" >"$tmp/leak2.log" 2>&1; rc=$?
check "the leak check fails on two solution lines pasted into docs/$guide (exit $rc)" [ "$rc" != 0 -a -n "$(grep -l "LEAK docs/$guide" "$tmp/leak2.log")" ]
p3=$tmp/planted-file; copy_handout "$p3"
cp "solutions/$first"/*.cu "$p3/$first/"
make --no-print-directory handout-check OUT="$p3" >"$tmp/leak3.log" 2>&1; rc=$?
check "the leak check fails on a solution file copied into an exercise (exit $rc)" [ "$rc" != 0 -a -n "$(grep -l 'exercise marker' "$tmp/leak3.log")" ]

# ---- make grade, no GPU ----------------------------------------------------------------------------
stu=$tmp/student; copy_handout "$stu"
for s in "${grade_steps[@]}"; do cp solutions/"$s"/*.c* solutions/"$s"/*.h "$stu/$s/" 2>/dev/null; done
validate() { # OUTDIR: results.json with Gradescope's fields, JUnit XML, TAP
    python3 - "$1" <<'PY'
import json, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
r = json.load(open(d + "/results.json"))
assert isinstance(r.get("score"), (int, float)), "score"
assert isinstance(r.get("execution_time"), (int, float)), "execution_time"
assert isinstance(r.get("output"), str), "output"
assert isinstance(r.get("tests"), list) and r["tests"], "tests[]"
for t in r["tests"]:
    for k, ty in (("name", str), ("score", (int, float)), ("max_score", (int, float)), ("output", str), ("status", str)):
        assert isinstance(t.get(k), ty), "tests[].%s in %r" % (k, t.get("name"))
    assert t["status"] in ("passed", "failed"), t["status"]
    assert 0 <= t["score"] <= t["max_score"], t["name"]
assert abs(sum(t["score"] for t in r["tests"]) - r["score"]) < 1e-9, "score is the sum"
x = ET.parse(d + "/junit.xml").getroot()
assert x.tag == "testsuites" and int(x.get("tests")) == len(r["tests"]), "junit testsuites"
assert len(x.findall(".//testcase")) == len(r["tests"]), "junit testcases"
tap = open(d + "/results.tap").read().splitlines()
assert tap[0] == "TAP version 13" and tap[1] == "1..%d" % len(r["tests"]), "tap plan"
PY
}
g1=$tmp/grade1
make --no-print-directory grade STUDENT="$stu" STEP="${grade_steps[*]}" GRADE_OUT="$g1" >"$tmp/grade1.log" 2>&1; rc=$?
check "make grade STUDENT=dir without a GPU runs (exit $rc)" [ "$rc" = 0 ]
cat "$g1/table.txt" 2>/dev/null | sed 's/^/      /'
check "  ... writes results.json (Gradescope's fields), junit.xml and results.tap that parse" validate "$g1"
for s in "${grade_steps[@]}"; do
    line=$(grep "^$s " "$g1/table.txt")
    if [ -z "$gpu" ]; then
        check "  ... $s, filled with the solution: 0 points, not run: no GPU" \
            eval '[[ $line == *" 0/"*"not run: no GPU"* ]]'
    else
        check "  ... $s, filled with the solution: full points on the GPU" eval '[[ $line != *" 0/"* ]]'
    fi
done
stu2=$tmp/student-broken; cp -r "$stu" "$stu2"
s=${grade_steps[0]}; k=$(cd "$stu2/$s" && ls *.cu | head -n1)
echo 'this is not C;' >>"$stu2/$s/$k"
echo '#error a student edit of common/ must not reach the grade' >>"$stu2/common/lab.h"
for f in "$stu2"/tests/*/*.c; do echo '#error a student edit of tests/ must not reach the grade' >>"$f"; done
s2=${grade_steps[${#grade_steps[@]} - 1]}
g2=$tmp/grade2
make --no-print-directory grade STUDENT="$stu2" STEP="${grade_steps[*]}" GRADE_OUT="$g2" >"$tmp/grade2.log" 2>&1; rc=$?
check "make grade of a tree whose step does not compile runs (exit $rc)" [ "$rc" = 0 ]
line=$(grep "^$s " "$g2/table.txt")
check "  ... that step: 0 points, the compiler's first error ($s/$k)" eval '[[ $line == *" 0/"*"does not compile: "*"$s/$k"*"error"* ]]'
echo "      $line" | cut -c1-180
if [ "$s2" != "$s" ]; then
    line2=$(grep "^$s2 " "$g2/table.txt"); line1=$(grep "^$s2 " "$g1/table.txt")
    check "  ... the student's broken common/ and tests/ change nothing: $s2 grades as before" [ -n "$line2" -a "$line2" = "$line1" ]
fi
check "  ... still writes reports that parse" validate "$g2"
stu3=$tmp/student-exit; cp -r "$stu" "$stu3"
echo 'static void leave_early(void) { exit(0); }' >>"$stu3/$s/$k"
g3=$tmp/grade3
make --no-print-directory grade STUDENT="$stu3" STEP="$s" GRADE_OUT="$g3" GRADE_STRICT=1 >"$tmp/grade3.log" 2>&1; rc=$?
line=$(grep "^$s " "$g3/table.txt")
check "a step that calls exit() is not accepted: 0 points, the call named" eval '[[ $line == *" 0/"*"not accepted"*": exit"* ]]'
check "GRADE_STRICT=1: make grade fails when a step scored less than its points (exit $rc)" [ "$rc" != 0 ]
make --no-print-directory grade STEP=nosuch/step1 GRADE_OUT="$tmp/g4" >"$tmp/grade4.log" 2>&1; rc=$?
check "make grade STEP=a name that is no step: refused with the reason (exit $rc)" [ "$rc" != 0 -a -n "$(grep -l 'names no exercise step' "$tmp/grade4.log")" ]
make --no-print-directory -C "$h" grade STEP="$first" >"$tmp/grade5.log" 2>&1; rc=$?
check "make grade in a handout grades the student's own steps in place (exit $rc)" [ "$rc" = 0 -a -f "$h/grade/results.json" ]
last=${ex_steps[${#ex_steps[@]} - 1]}
make --no-print-directory -C "$h" grade STEP="$last" GRADE_OUT="$tmp/g6h" >"$tmp/grade6h.log" 2>&1
make --no-print-directory grade STEP="$last" GRADE_OUT="$tmp/g6i" >"$tmp/grade6i.log" 2>&1
lh=$(grep "^$last " "$tmp/g6h/table.txt" 2>/dev/null) li=$(grep "^$last " "$tmp/g6i/table.txt" 2>/dev/null)
check "untouched $last: the handout's make grade gives the instructors' tree's verdict" [ -n "$lh" -a "$lh" = "$li" ]
[ "$lh" = "$li" ] || printf '      handout:     %s\n      instructors: %s\n' "$lh" "$li"

# ---- issue 37 items 7 and 8: one verdict where a step builds on another; what a suite runs, built --
s0=${grade_steps[0]}
n=$(grep -c "not built beside this suite" "$g1/logs/$s0/test.tap" 2>/dev/null)
check "make grade builds ./run beside the suite: no test of $s0 skipped for want of it ($n were)" [ "${n:-0}" = 0 ]
s3=$(for s in "${ex_steps[@]}"; do [[ $s == ch12-merge/step3-* ]] && echo "$s"; done)
s1=$(for s in "${ex_steps[@]}"; do [[ $s == ch12-merge/step1-* ]] && echo "$s"; done)
if [ -n "$s3" ] && [ -n "$s1" ]; then
    mkdir -p "$tmp/s1.orig" "$tmp/s3.orig" && cp -p "$h/$s1"/* "$tmp/s1.orig/" && cp -p "$h/$s3"/* "$tmp/s3.orig/"
    for f in solutions/"$s3"/*.cu solutions/"$s3"/*.h; do cp "$f" "$h/$s3/"; done
    make --no-print-directory -C "$h" check STEP=ch12-merge/step3 >"$tmp/h-check3.log" 2>&1
    first_note=$(grep -n "^note: $s3 builds on your $s1" "$tmp/h-check3.log" | head -n1 | cut -d: -f1)
    first_syn=$(grep -n "Synthesis" "$tmp/h-check3.log" | head -n1 | cut -d: -f1)
    check "a handout's $s3, right, over its $s1 untouched: make check says first which TODOs of $s1 are left" \
        eval '[ -n "$first_note" ] && [ -n "$first_syn" ] && [ "$first_note" -lt "$first_syn" ] && grep -q "    $s1/co_rank.h:[0-9]*: TODO(1)" "$tmp/h-check3.log"'
    verdicts() { # TAG: the handout's own grade (in place) and this tree's of the handout (STUDENT=), step 3
        make --no-print-directory -C "$h" grade STEP=ch12-merge/step3 GRADE_OUT="$tmp/g7h-$1" >/dev/null 2>&1
        make --no-print-directory grade STUDENT="$h" STEP=ch12-merge/step3 GRADE_OUT="$tmp/g7i-$1" >/dev/null 2>&1
        vh=$(grep "^$s3 " "$tmp/g7h-$1/table.txt" 2>/dev/null) vi=$(grep "^$s3 " "$tmp/g7i-$1/table.txt" 2>/dev/null)
    }
    verdicts untouched
    check "  ... make grade in the handout and in this tree (STUDENT=) give one verdict, naming $s1's TODOs" \
        eval '[ -n "$vh" ] && [ "$vh" = "$vi" ] && [[ $vi == *"builds on unfinished steps ($s1: TODO(1)"* ]]'
    printf '      %s\n' "$vi" | cut -c1-170
    for f in solutions/"$s1"/*.h; do cp "$f" "$h/$s1/"; done
    verdicts done
    check "  ... with the handout's $s1 done: both verdicts again one, and this tree's grade took the student's $s1" \
        eval '[ -n "$vh" ] && [ "$vh" = "$vi" ] && [[ $vi != *"builds on"* ]]'
    printf '      %s\n' "$vi" | cut -c1-170
    cp -p "$tmp/s1.orig"/* "$h/$s1/"; cp -p "$tmp/s3.orig"/* "$h/$s3/"   # the handout as handed out again
fi
hits=$(cd "$h" && { make --no-print-directory hint STEP="$first"; make --no-print-directory hint STEP="$first" N=99; } 2>&1 | grep -cE 'solutions/|make diff')
check "make hint in the handout never points at solutions/ or make diff ($hits lines do)" [ "$hits" = 0 ]

kit_summary "classroom tests"
