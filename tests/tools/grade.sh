#!/usr/bin/env bash
# grade.sh - `make grade`: builds a student's steps, runs their suites on the GPU, scores them
# from the points file, and writes a table, Gradescope's results.json, JUnit XML and TAP. Run from
# the lab's top by tests/tools/classroom.mk, which passes
#   GRADE_STEPS    the exercise steps to grade (STEP=, else every step)
#   GRADE_POINTS   the points file (POINTS=, default tests/grade/points.txt; its header says the format)
#   GRADE_STUDENT  STUDENT=: a student's tree. Only the student's step files (for each graded step,
#                  and each step it builds on: its Makefile's LAB_USES, the student's own copy, as
#                  their make check builds it; the files its exercise has: *.cu *.cuh *.h *.c) are
#                  copied, into a scratch copy of this tree (GRADE_TREE, default build/grade/tree):
#                  the tests, common/ and the references stay this tree's, whatever the student
#                  changed elsewhere. Unset: the steps of this tree are graded in place (a student's
#                  preview in their handout).
#   GRADE_ARCH     CUDA_ARCH
# Settings (make variables or the environment):
#   GRADE_OUT=grade          results.json, junit.xml, results.tap, table.txt and logs/<step>/ go there
#   GRADE_JOBS=4             tests of a step run at once (Criterion -j; each test is its own process)
#   GRADE_TEST_TIMEOUT=120   seconds one GPU test may run (Criterion --timeout)
#   GRADE_STEP_TIMEOUT=600   seconds a step's whole suite may run (an outer `timeout` on the process
#                            group: a host test that loops forever, a runner that hangs)
#   GRADE_FORBIDDEN=zero     a step whose files end the process (exit, abort, ...), touch the test
#                            framework (cr_*, #undef, ...) or include by path scores 0 with the reason;
#                            `flag`: its score stands and the reason is marked REVIEW
#   GRADE_PERF_ARGS=         ./run options for performance credit (default: ./run's own input)
#   GRADE_STRICT=0           1: exit 1 when a step scored less than its points (a CI job's status)
# A step scores its points when every test ran and passed; 0 otherwise, with the first reason:
# a file missing from the submission, a forbidden call, the compiler's first error, the suite
# timing out or crashing, the first failing test, or "not run: no GPU" when GPU tests skipped.
# The reports: tests/tools/grade-report.awk. Exit status: 0 when the grade ran (whatever the
# scores), 2 when it could not.
#   grade.sh --allowed SOLUTION_STEP...  prints "STEP<TAB>WHAT" for each forbidden call or
#                  directive the solution itself makes (so a step's own use is allowed): make
#                  handout writes them to tests/grade/allowed.txt, which a handout grades with.
set -uo pipefail
export LC_ALL=C
# Calls and directives a step's kernel file never needs, that could end a test early (a test that
# exits with status 0 passes), disable its checks or reach the reference: FILE:LINE: WHAT per hit.
forbidden_scan() {
    awk '
    function strip(line,   out, i, n, c, c2, q) {   # comments and string/char literals out
        out = ""; n = length(line); i = 1
        while (i <= n) {
            c = substr(line, i, 1); c2 = substr(line, i, 2)
            if (incomment) { if (c2 == "*/") { incomment = 0; i += 2 } else i++; continue }
            if (c2 == "/*") { incomment = 1; i += 2; continue }
            if (c2 == "//") break
            if (c == "\"" || c == "\047") {
                q = c; i++
                while (i <= n && substr(line, i, 1) != q) { if (substr(line, i, 1) == "\\") i++; i++ }
                out = out q q; i++; continue
            }
            out = out c; i++
        }
        return out
    }
    function report(what) { printf "%s:%d: %s\n", FILENAME, FNR, what }
    FNR == 1 { incomment = 0 }
    {
        raw = $0
        if (!incomment && raw ~ /^[ \t]*#[ \t]*(include|include_next|import)/) {
            arg = raw; sub(/^[ \t]*#[ \t]*[a-z_]+[ \t]*/, "", arg); sub(/[ \t]*(\/[*\/].*)?$/, "", arg)
            if (raw !~ /^[ \t]*#[ \t]*include[ \t]/ || arg !~ /^("[A-Za-z0-9_.+-]+"|<[A-Za-z0-9_.+\/-]+>)$/ || arg ~ /\.\.|criterion/)
                report("#include " arg)
            next
        }
        s = strip(raw)
        if (s ~ /^[ \t]*#[ \t]*undef/) report("#undef")
        if (s ~ /^[ \t]*#[ \t]*pragma[ \t]+(push_macro|pop_macro)/) report("#pragma push_macro")
        if (match(s " ", /^[ \t]*#[ \t]*define[ \t]+(Test|TestSuite|ParameterizedTest|ParameterizedTestParameters|Theory|TheoryDataPoints|GPU_TEST|main)[^A-Za-z0-9_]/))
            report("#define of a test macro")
        t = " " s " "
        # names that need no call to do harm (a macro or a function pointer can call them later)
        while (match(t, /[^A-Za-z0-9_](cr_[A-Za-z0-9_]*|CR_[A-Za-z0-9_]*|criterion[A-Za-z0-9_]*|lab_test[A-Za-z0-9_]*|__asan[A-Za-z0-9_]*|constructor|destructor|asm|__asm|__asm__|__attribute__|_Pragma|exit|_exit|_Exit|quick_exit|abort|atexit|at_quick_exit|setjmp|longjmp|sigsetjmp|siglongjmp|fork|vfork|system|popen|syscall|execl|execle|execlp|execv|execve|execvp|dlopen|dlsym|ptrace)[^A-Za-z0-9_]/)) {
            w = substr(t, RSTART + 1, RLENGTH - 2); report(w); t = substr(t, RSTART + RLENGTH - 1)
        }
        t = " " s
        # calls only: these names are common enough to be a variable elsewhere
        while (match(t, /[^A-Za-z0-9_.>](raise|kill|signal|sigaction|freopen|fopen|open|creat|dup|dup2|remove|unlink|rename|setenv|putenv|chdir)[ \t]*\(/)) {
            w = substr(t, RSTART + 1, RLENGTH - 1); sub(/[ \t]*\($/, "", w); report(w "()"); t = substr(t, RSTART + RLENGTH)
        }
    }' "$@"
}

# allowed_of SOLUTION_STEP: what the solution's own files use, one a line
allowed_of() { (cd "$1" && forbidden_scan $(ls *.cu *.cuh *.h *.c 2>/dev/null)) | sed 's/^[^:]*:[0-9]*: //' | sort -u; }
if [ "${1:-}" = --allowed ]; then
    shift
    for s in "$@"; do allowed_of "$s" | sed "s|^|${s#solutions/}\t|"; done
    exit 0
fi
unset MAKEFLAGS MFLAGS MAKELEVEL
top=$(pwd)
die() { echo "make grade: $*" >&2; exit 2; }

read -r -a steps <<<"${GRADE_STEPS:-}"
[ ${#steps[@]} -gt 0 ] || die "no step to grade"
for s in "${steps[@]}"; do [[ $s == \?* ]] && die "STEP=${s#\?} names no exercise step (make list)"; done
points_file=${GRADE_POINTS:-tests/grade/points.txt}
[ -f "$points_file" ] || die "POINTS=$points_file: no such file"
student=${GRADE_STUDENT:-}
arch=${GRADE_ARCH:-}
jobs=${GRADE_JOBS:-4}
test_timeout=${GRADE_TEST_TIMEOUT:-120}
step_timeout=${GRADE_STEP_TIMEOUT:-600}
forbidden_policy=${GRADE_FORBIDDEN:-zero}
bjobs=$(nproc 2>/dev/null || echo 4)
for v in jobs test_timeout step_timeout; do [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "GRADE_${v^^}=${!v}: a whole number of 1 or more"; done
case $forbidden_policy in zero | flag) ;; *) die "GRADE_FORBIDDEN=$forbidden_policy: zero or flag" ;; esac

# ---- the points file: `STEP POINTS [perf=P@F]` and `default POINTS`; # starts a comment ----------
bad_line=$(awk '{ sub(/#.*/, "") } NF == 0 { next }
    $2 !~ /^[0-9]+([.][0-9]+)?$/ || NF > 3 || (NF == 3 && $3 !~ /^perf=[0-9]+([.][0-9]+)?@[0-9]*[.]?[0-9]+$/) { print FNR ": " $0; exit }' "$points_file")
[ -z "$bad_line" ] || die "$points_file line $bad_line: expected 'STEP POINTS [perf=POINTS@FRACTION]' or 'default POINTS'"
points_of() { # STEP: "points perf_points perf_fraction listed", from its line or the default
    awk -v s="$1" '{ sub(/#.*/, "") } NF == 0 { next }
        $1 == "default" { def = $2; next }
        s == $1 || index(s, $1 "-") == 1 { pts = $2; pp = 0; pf = 0; found = 1
            if (NF == 3) { split(substr($3, 6), a, "@"); pp = a[1]; pf = a[2] } }
        END { if (found) print pts, pp, pf, 1; else print (def == "" ? 0 : def), 0, 0, 0 }' "$points_file"
}

out=${GRADE_OUT:-grade}
mkdir -p "$out" || die "cannot make $out"
out=$(cd "$out" && pwd)
rm -rf "$out/logs"; rm -f "$out"/{results.json,junit.xml,results.tap,table.txt}
mkdir -p "$out/logs"
start=$(date +%s)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)

# ---- the tree the steps are built in ------------------------------------------------------------
if [ -n "$student" ]; then
    [ -d "$student" ] || die "STUDENT=$student is not a folder"
    student=$(cd "$student" && pwd)
    tree=${GRADE_TREE:-build/grade/tree}
    mkdir -p "$tree" && tree=$(cd "$tree" && pwd)
    [ "$student" != "$top" ] && [ "$student" != "$tree" ] || die "STUDENT= is this tree (make grade without STUDENT= grades it in place)"
    excl=(--exclude=./build --exclude=./.git --exclude=./.deps --exclude=./grade --exclude=./results --exclude=run --exclude='*.bak-*')
    case $student/ in "$top"/*) excl+=("--exclude=./${student#"$top"/}") ;; esac
    case $out/ in "$top"/*) excl+=("--exclude=./${out#"$top"/}") ;; esac
    # a fresh copy of this tree; its build/ stays, so the lab's own objects are reused
    find "$tree" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} +
    tar -C "$top" "${excl[@]}" -cf - . | tar -C "$tree" -xf - || die "copying this tree to $tree failed"
    [ -d "$top/.deps" ] && ln -sfn "$top/.deps" "$tree/.deps"
    echo "grading $student in a copy of this tree ($tree): only its step files are used"
else
    tree=$top
    echo "grading the steps of this tree in place (STUDENT=dir grades a student's tree)"
fi
[ -n "$gpu" ] || echo "no NVIDIA GPU visible: every step whose GPU tests skip scores 0 (not run: no GPU)"
mk() { (cd "$tree" && make --no-print-directory ${arch:+CUDA_ARCH="$arch"} "$@"); }

# ---- per step: its record, filled phase by phase -------------------------------------------------
declare -A why status npass ntotal pts ppts pfrac perf_note review uses
files_of() { (cd "$top/$1" && ls *.cu *.cuh *.h *.c 2>/dev/null); }   # STEP: the files its exercise has
uses_of() { sed -n 's/^LAB_USES *:= *//p' "$tree/$1/Makefile" 2>/dev/null; }
uses_all() { # STEP: every step it builds on, directly or through another, one a line
    local queue u seen=" "
    read -r -a queue <<<"$(uses_of "$1")"
    while [ ${#queue[@]} -gt 0 ]; do
        u=${queue[0]}; queue=("${queue[@]:1}")
        case $seen in *" $u "*) continue ;; esac
        seen+="$u "; echo "$u"
        read -r -a more <<<"$(uses_of "$u")"; queue+=("${more[@]}")
    done
}
allowed_in() { # STEP: the calls its solution's own files make, one a line
    if [ -d "$tree/solutions/$1" ]; then allowed_of "$tree/solutions/$1"
    elif [ -f "$tree/tests/grade/allowed.txt" ]; then
        awk -F'\t' -v s="$1" '$1 == s { print $2 }' "$tree/tests/grade/allowed.txt" | sort -u
    fi
}
perf_steps=()
for s in "${steps[@]}"; do
    log=$out/logs/$s; mkdir -p "$log"
    read -r "pts[$s]" "ppts[$s]" "pfrac[$s]" listed <<<"$(points_of "$s")"
    [ "$listed" = 1 ] || echo "note: $s has no line in $points_file: it scores ${pts[$s]} (the default)"
    status[$s]=""; why[$s]=""; npass[$s]=-; ntotal[$s]=-; perf_note[$s]=""; review[$s]=""
    # the step, and the steps it builds on (their Makefiles' LAB_USES, this tree's): the student's
    # own copies of those are built into it, as in their tree (make check), so both give one verdict
    uses[$s]=$(uses_all "$s" | tr '\n' ' ')
    if [ -n "$student" ]; then
        rm -rf "$tree/build/$s"
        missing=()
        for f in $(files_of "$s"); do
            if [ -f "$student/$s/$f" ]; then cp "$student/$s/$f" "$tree/$s/$f"; else missing+=("$s/$f"); fi
        done
        # a used step's file the student does not have is not there for the build either, as in their tree
        for d in ${uses[$s]}; do
            for f in $(files_of "$d"); do
                if [ -f "$student/$d/$f" ]; then cp "$student/$d/$f" "$tree/$d/$f"; else rm -f "$tree/$d/$f"; fi
            done
        done
        if [ ${#missing[@]} -gt 0 ]; then
            status[$s]=failed; why[$s]="missing from the submission: ${missing[*]}"
            printf '%s\n' "${why[$s]}" "(expected in $student/$s/)" >"$log/output.txt"; continue
        fi
    else
        rm -f "$tree/build/$s/test" "$tree/build/$s/run"
    fi
    # forbidden calls, except those the solution's own files make (a handout has their list, written
    # by make handout from the solutions: the same verdict as the instructors' tree), in the step's
    # files and in those of the steps it builds on
    : >"$log/forbidden.all"; : >"$log/forbidden.txt"
    for d in "$s" ${uses[$s]}; do
        (cd "$tree/$d" && forbidden_scan $(files_of "$d")) | sed "s|^|$d/|" >"$log/forbidden.one"
        allowed_in "$d" >"$log/allowed.txt"
        awk 'FILENAME == ARGV[1] { ok[$0] = 1; next } { w = $0; sub(/^[^:]*:[0-9]*: /, "", w); if (!(w in ok)) print }' \
            "$log/allowed.txt" "$log/forbidden.one" >>"$log/forbidden.txt"
        cat "$log/forbidden.one" >>"$log/forbidden.all"
    done
    rm -f "$log/forbidden.one"
    if [ -s "$log/forbidden.txt" ]; then
        first=$(head -n1 "$log/forbidden.txt")
        if [ "$forbidden_policy" = zero ]; then
            status[$s]=failed; why[$s]="not accepted: $first (the grader does not run a step that uses this; ask your instructor)"
            { echo "${why[$s]}"; echo "every use found:"; sed 's/^/  /' "$log/forbidden.txt"; } >"$log/output.txt"; continue
        fi
        review[$s]="REVIEW: $first"
    fi
    if awk -v p="${ppts[$s]}" 'BEGIN { exit !(p > 0) }'; then
        if [ -d "$tree/solutions/$s" ]; then perf_steps+=("$s"); else perf_note[$s]="no solutions/ here to measure against"; fi
    fi
done

# ---- build: the lab's own code first (a failure there is the grader's), then every step at once ---
todo=()
# the test binary and ./run beside it: some tests run ./run (the options, step 9 under mpirun)
for s in "${steps[@]}"; do [ -z "${status[$s]}" ] && todo+=("build/$s/test" "build/$s/run"); done
for s in "${perf_steps[@]}"; do [ -z "${status[$s]}" ] && todo+=("build/solutions/$s/run"); done
if [ ${#todo[@]} -gt 0 ]; then
    echo "building ${#todo[@]} targets (CUDA_ARCH=${arch:-the Makefile default}; log: $out/logs/build.log)"
    mk -j"$bjobs" grade-prereqs >"$out/logs/build-lab.log" 2>&1 ||
        { tail -n 20 "$out/logs/build-lab.log"; die "the lab's own code (common/, tests/) does not build in $tree: $out/logs/build-lab.log"; }
    mk -k -j"$bjobs" "${todo[@]}" >"$out/logs/build.log" 2>&1
fi
first_error() {
    local e
    e=$(grep -m1 -E '(^|[^A-Za-z_])(error|fatal error)( [A-Z0-9]+)?[: ]|undefined reference|multiple definition|No rule to make target' "$1" | grep -v '^make.*\*\*\* \[' )
    [ -n "$e" ] || e=$(grep -m1 -E 'error|Error' "$1")
    e=${e:-$(tail -n1 "$1")}
    # nvcc names the file in its summary when the error line does not ("At end of source: ...")
    local src; src=$(sed -n 's/.*errors\{0,1\} detected in the compilation of "\([^"]*\)".*/\1/p' "$1" | head -n1)
    [ -n "$src" ] && [[ $e != *"$src"* ]] && e="$src: $e"
    printf '%s' "$e" | cut -c1-400
}
for s in "${steps[@]}"; do
    [ -z "${status[$s]}" ] || continue
    log=$out/logs/$s
    if [ ! -x "$tree/build/$s/test" ] || [ ! -x "$tree/build/$s/run" ]; then   # again alone, for a log of this step only
        mk -k "build/$s/test" "build/$s/run" >"$log/build.log" 2>&1
        if [ ! -x "$tree/build/$s/test" ] || [ ! -x "$tree/build/$s/run" ]; then
            status[$s]=failed; why[$s]="does not compile: $(first_error "$log/build.log")"
            { echo "${why[$s]}"; echo; echo "the build's errors:"
              grep -E -A3 '(^|[^A-Za-z_])(error|fatal error)|undefined reference|multiple definition' "$log/build.log" |
                  grep -v -E '^make(\[[0-9]+\])?: ' | head -n 40; } >"$log/output.txt"
            continue
        fi
    fi
done

# ---- run: each step's suite, on its own, bounded ------------------------------------------------
tap_summary() { # TAP: "passed failed skipped|skip reason|first failure" and the failing tests to stdout
    awk '
    /^(ok|not ok) / {
        flush(); total++
        if ($1 == "ok") { if ($0 ~ /# SKIP/) { skipped++; r = $0; sub(/.*# SKIP */, "", r); reasons[r]++ } else passed++; next }
        failed++; name = $4; rest = $0; sub(/^not ok - [^ ]* */, "", rest); cur = name; msg = ""; inmsg = 0
        if (rest ~ /timed out/) msg = "timed out " substr(rest, index(rest, "(")) ": a kernel or loop that never ends?"
        else if (rest ~ /signal/) msg = "crashed (" rest ")"
        next
    }
    cur != "" && /^  - .*: \|\+?$/ { loc = $0; sub(/^  - /, "", loc); sub(/ \|\+?$/, "", loc); if (msg == "") { msg = loc; inmsg = 1 }; next }
    cur != "" && inmsg && /^      / { t = $0; sub(/^ +/, "", t); if (t != "") { msg = msg " " t; inmsg = 0 }; next }
    function flush() { if (cur != "") { if (msg == "") msg = "failed"; list[++nf] = cur ": " msg; cur = "" } }
    END {
        flush()
        for (i = 2; i <= nf; i++) { # by test name: the reason does not depend on which test finished first
            v = list[i]; for (j = i - 1; j >= 1 && list[j] > v; j--) list[j + 1] = list[j]; list[j + 1] = v
        }
        best = ""; for (r in reasons) if (best == "" || reasons[r] > reasons[best]) best = r
        printf "%d %d %d|%s|%s\n", passed, failed, skipped, best, list[1]
        for (i = 1; i <= nf && i <= 12; i++) print "  " list[i]
        if (nf > 12) print "  ... " nf - 12 " more"
    }' "$1"
}
for s in "${steps[@]}"; do
    [ -z "${status[$s]}" ] || continue
    log=$out/logs/$s
    printf '  %-40s running its tests (%ss at most)\n' "$s" "$step_timeout"
    t0=$(date +%s)
    # (the first test to find the GPU stuck writes $log/hang, and the suite's GPU tests after it skip)
    (cd "$tree" && LAB_HANG_FILE="$log/hang" exec timeout -k 10 "$step_timeout" "build/$s/test" --verbose --ascii \
        --tap="$log/test.tap" -j "$jobs" --timeout "$test_timeout") >"$log/test.log" 2>&1
    rc=$?
    echo $(($(date +%s) - t0)) >"$log/seconds"
    listed=$(cd "$tree" && timeout -k 5 60 "build/$s/test" --list --ascii 2>/dev/null | awk '/^[^ |`].*: [0-9]+ tests?$/ { n += $(NF - 1) } END { print n + 0 }')
    if [ "$rc" = 124 ] || [ "$rc" = 137 ] || [ ! -s "$log/test.tap" ]; then
        npass[$s]=$(grep -c '^\[PASS\]' "$log/test.log"); ntotal[$s]=$listed; status[$s]=failed
        running=$(awk '/^\[RUN \]/ { r[$3] = 1 } /^\[(PASS|FAIL|SKIP)\]/ { n = $2; sub(/:$/, "", n); delete r[n] }
                       END { for (t in r) printf "%s%s", (k++ ? ", " : ""), t }' "$log/test.log")
        if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
            why[$s]="timed out after ${step_timeout}s${running:+, still running: $running} (a kernel or a loop that never ends?)"
        else
            why[$s]="the test run stopped (exit $rc) before it wrote its report: $(grep -v '^\[\(RUN \|PASS\)\]' "$log/test.log" | tail -n1 | cut -c1-200)"
        fi
        { echo "${why[$s]}"; echo "${npass[$s]} of $listed tests had passed"; echo; echo "the last lines of the run:"; tail -n 15 "$log/test.log"; } >"$log/output.txt"
        continue
    fi
    summary=$(tap_summary "$log/test.tap")
    IFS='|' read -r counts skip_reason first_fail <<<"$(head -n1 <<<"$summary")"
    read -r p f k <<<"$counts"
    npass[$s]=$p; ntotal[$s]=$((p + f + k))
    if [ "$f" -gt 0 ]; then
        status[$s]=failed; why[$s]=$first_fail
        # a hang first: the table cuts a long reason short
        if [ -s "$log/hang" ]; then [ "$k" -gt 0 ] && why[$s]="a kernel never finished ($k more not run): $first_fail"
        elif [ "$k" -gt 0 ]; then why[$s]+=" ($k GPU tests not run: no GPU)"; fi
    elif [ "$k" -gt 0 ]; then
        status[$s]=failed
        case $skip_reason in "not run: "*) why[$s]=$skip_reason ;; *GPU* | *CUDA* | *gpu*) why[$s]="not run: no GPU" ;;
        *) why[$s]="not run: $skip_reason" ;; esac
    elif [ "$p" = 0 ]; then
        status[$s]=failed; why[$s]="no test ran"
    else
        status[$s]=passed
    fi
    # a step it builds on whose TODOs are left (the student's own copy): said first, as make check does
    left=""
    for u in ${uses[$s]}; do
        t=$(cd "$tree" && bash tests/tools/step-info.sh --todos "$u" | sed -n 's/^[^:]*:[0-9]*: \(TODO([0-9]*)\).*/\1/p' | paste -sd, - | sed 's/,/, /g')
        [ -n "$t" ] && left+="${left:+; }$u: $t left"
    done
    [ "${status[$s]}" = failed ] && [ -n "$left" ] && why[$s]="builds on unfinished steps ($left); ${why[$s]}"
    { [ -n "$left" ] && echo "note: $s builds on steps whose TODOs are not all done ($left): their code runs in its tests"
      echo "tests: $p passed, $f failed, $k not run, of $((p + f + k))"
      [ "$k" -gt 0 ] && echo "not run: $skip_reason"
      [ "$f" -gt 0 ] && { echo "failing tests (the first is the reason):"; tail -n +2 <<<"$summary"; }
      [ -n "${review[$s]}" ] && { echo "${review[$s]}"; sed 's/^/  /' "$log/forbidden.txt"; }
      echo "(the run's log: logs/$s/test.log)"; } >"$log/output.txt"
done

# ---- performance credit: ./run --csv of the student's step and of the solution, same GPU --------
best() { printf '%s\n' "$@" | awk 'NF && ($1 < m || m == "") { m = $1 } END { print m }'; }
median_ms() { # RUN: the median ms of its --csv line when it PASSes
    (cd "$tree" && timeout 300 "$1" --csv -q ${GRADE_PERF_ARGS:-}) 2>/dev/null | awk -F, '$1 == "PASS" { t = $(NF - 3) } END { if (t != "") print t }'
}
for s in "${perf_steps[@]}"; do
    [ "${status[$s]}" = passed ] || { perf_note[$s]="its tests did not pass"; continue; }
    ts=() tr=()
    for round in 1 2; do ts+=("$(median_ms "build/solutions/$s/run")"); tr+=("$(median_ms "build/$s/run")"); done
    sol=$(best "${ts[@]}"); mine=$(best "${tr[@]}")
    if [ -z "$sol" ] || [ -z "$mine" ]; then perf_note[$s]="./run --csv did not PASS (solution: ${sol:-no}, yours: ${mine:-no})"; continue; fi
    perf_note[$s]=$(awk -v a="$sol" -v b="$mine" -v f="${pfrac[$s]}" 'BEGIN {
        r = b > 0 ? a / b : 0; printf "%s %.2f of the solution'"'"'s speed (%.4f ms against %.4f ms; %.2f earns the points)", (r >= f ? "yes" : "no"), r, b, a, f }')
done

# ---- the records, then the table and the three reports --------------------------------------------
rec=$out/logs/records.tsv; : >"$rec"
clean() { if command -v iconv >/dev/null; then iconv -c -f UTF-8 -t UTF-8; else cat; fi | tr -d '\000-\010\013\014\016-\037\177'; }
for s in "${steps[@]}"; do
    log=$out/logs/$s
    [ -f "$log/output.txt" ] || echo "${why[$s]}" >"$log/output.txt"
    score=0; [ "${status[$s]}" = passed ] && score=${pts[$s]}
    note=${why[$s]}; [ -n "${review[$s]}" ] && note="${review[$s]}${note:+; $note}"
    { printf '%s: %s, %s of %s points\n' "$s" "${status[$s]^^}" "$score" "${pts[$s]}"; cat "$log/output.txt"; } | clean >"$log/output.clean"
    printf '%s\ttests\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "${status[$s]}" "$score" "${pts[$s]}" "${npass[$s]}" "${ntotal[$s]}" \
        "$(printf '%s' "$note" | tr '\t\n' '  ' | clean)" "$log/output.clean" "$(cat "$log/seconds" 2>/dev/null || echo 0)" >>"$rec"
    if awk -v p="${ppts[$s]}" 'BEGIN { exit !(p > 0) }'; then
        pn=${perf_note[$s]:-not measured}; pstat=failed; pscore=0
        case $pn in yes\ *) pstat=passed; pscore=${ppts[$s]} ;; esac
        pn=${pn#yes }; pn=${pn#no }
        printf '%s\n' "$s (performance): $pn" | clean >"$log/perf.clean"
        printf '%s\tperf\t%s\t%s\t%s\t-\t-\t%s\t%s\t0\n' "$s" "$pstat" "$pscore" "${ppts[$s]}" "$pn" "$log/perf.clean" >>"$rec"
    fi
done
elapsed=$(($(date +%s) - start))
awk -F'\t' -v out="$out" -v elapsed="$elapsed" -v gpu="${gpu:-none visible}" -v when="$(date -u '+%Y-%m-%d %H:%M UTC')" \
    -v who="${student:-$top (in place)}" -v commit="$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)" -f "$(dirname "${BASH_SOURCE[0]}")/grade-report.awk" "$rec"
anyfail=$?
cat "$out/table.txt"
echo "wrote $out/results.json (Gradescope), $out/junit.xml, $out/results.tap; logs in $out/logs/"
[ "${GRADE_STRICT:-0}" = 1 ] && [ "$anyfail" != 0 ] && exit 1
exit 0
