#!/usr/bin/env bash
# handout.sh make|check OUT SOLUTION_STEP...; handout.sh lines SOLUTION_STEP...
# The student handout: a copy of the lab without its solutions, and the check that proves no
# solution body leaked into it. Run from the lab's top (make handout, make handout-check:
# tests/tools/classroom.mk).
#   make    writes OUT, which must not exist and must lie outside this tree: Makefile, README.md
#           (with a note that it is a handout), LICENSE, common/ (the core and the chapters'
#           wings), the exercise folders generated
#           afresh from solutions/ (what `make exercises` writes, so an edit made in this
#           checkout never travels), tests/ (the suites and the student's tools; no wrong
#           variants, which are edits of the solutions, and no benchmarks: tests/bench/bench.mk
#           becomes a stub), docs/ (guides, errata, catalogue, plots; not the instructors'
#           guide or its grading page), tests/grade/allowed.txt (the calls each solution makes
#           that the grader otherwise refuses: tests/tools/grade.sh --allowed). README.md is the
#           handout's: the blocks between <!-- instructors --> and <!-- /instructors --> lines are
#           left out, and the text of a <!-- handout: ... --> comment is put in. Then it runs
#           `check`: a handout that fails it is left at OUT.rejected.
#   check   fails when a filled-in region of solutions/ appears in OUT, naming the file of OUT
#           and the region. A region is the lines between `/* exercise: ... */` and
#           `/* end exercise */` (tests/tools/exercise.awk), less its hints and stub. Lines are
#           compared normalised: comments dropped, all white space removed. A region line is
#           distinctive when no given code has it: the exercise view of every step (solution
#           lines outside the regions, and the stubs), common/ and the suites; nor any hint
#           (the HINTS files give those on purpose). A hit is
#             - a distinctive line of 24 characters or more inside any line of any file
#               (a line quoted in a guide or in prose),
#             - a run of 2 or more consecutive region lines, one of them distinctive, 16
#               characters or more together, as consecutive lines of any file (blank and
#               comment-only lines skipped),
#             - a distinctive line of 10 characters or more as a whole line of a C/CUDA file,
#             - an exercise marker in a C/CUDA file (a solution file copied in), a solutions/
#               folder, or a wrong-variant script;
#           and the handout's README.md, HINTS files and `make help` never point at solutions/ or
#           `make diff`, which it does not have.
#           Not checked: the errata's **Printed:** fields, which quote the book's printed code
#           (a solution may keep it behind --printed; the student has the book).
#           V=1 also lists the regions with no line of their own (every line is given code
#           elsewhere, so nothing of theirs can be told apart).
#   lines   the distinctive region lines, one a line: FILE:LINE, TAB, normalised length, TAB, the
#           line (what check looks for; tests/tools/classroom-tests.sh plants one)
set -uo pipefail
die() { echo "make handout: $*" >&2; exit 2; }
mode=${1:-}; shift
case $mode in make | check) out=${1:-}; shift; [ -n "$out" ] || die "OUT= names no folder" ;; esac
[ -d solutions ] || die "this tree has no solutions/ (a student handout has none): make handout and make handout-check run in the instructors' tree"
[ $# -gt 0 ] || die "no solution step found under solutions/"
top=$(pwd)

# The tools a student never needs: wrong variants (edits of the solutions), the GPU batch, the
# distribution check and the kit's own tests. The rest of tests/ travels, but tests/mutants and tests/bench.
NOT_IN_HANDOUT="mutants.sh device-check.sh distro-check.sh handout.sh classroom-tests.sh classroom-gpu-demo.sh loop-tests.sh"
NOT_IN_HANDOUT+=" hang-gpu-demo.sh verdict-gpu-demo.sh"
# Documents that are the instructors' or the maintainers'.
DOCS_NOT_IN_HANDOUT="instructors.md grading.md adding-a-step.md"

# sol[]: the solution files of the steps; given[]: the code a handout gives besides the exercises
inputs() {
    local s f
    sol=() given=()
    for s in "$@"; do for f in "$s"/*.cu "$s"/*.cuh "$s"/*.h "$s"/*.c; do [ -f "$f" ] && sol+=("$top/$f"); done; done
    while IFS= read -r f; do given+=("$top/$f"); done < <(find common tests -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) \
        ! -path 'tests/mutants/*' ! -path 'tests/bench/*' | sort)
}

leak_check() { # DIR STEP...: 0 when clean, 1 on a hit (and names each)
    local dir=$1 files=() f
    shift
    bad=0
    if [ -e "$dir/solutions" ]; then echo "LEAK $dir/solutions: the handout has a solutions/ folder"; bad=1; fi
    while IFS= read -r f; do echo "LEAK $f: a wrong variant (an edit of a solution)"; bad=1; done \
        < <(find "$dir" -path '*/mutants/*.sed' -type f 2>/dev/null)
    inputs "$@"
    # every text file, but a student's outputs (build/, .deps/, grade/) and git's objects
    while IFS= read -r f; do files+=("$f"); done < <(cd "$dir" && find . \( -path ./.git -o -path ./build -o -path ./.deps -o -path ./grade \) -prune \
        -o -type f -print0 | xargs -0 -r grep -Il '' | sed 's|^\./||' | sort)
    [ ${#files[@]} -gt 0 ] || { echo "LEAK $dir: no text file to check"; return 1; }
    (cd "$dir" && awk -v verbose="${V:-0}" -f <(leak_awk) phase=sol "${sol[@]}" phase=given "${given[@]}" \
        phase=scan "${files[@]}") | sed "s|$top/||g" || bad=1
    # what a student reads to find their way must not send them to what the handout lacks
    local hit
    while IFS= read -r hit; do echo "POINTER $hit: points at what a handout does not have"; bad=1; done < <(
        cd "$dir" && { grep -HnE 'solutions/|make diff' README.md ch*/step*/HINTS 2>/dev/null
                       bash tests/tools/usage.sh 2>/dev/null | grep -nE 'solutions/|make diff' | sed 's/^/make help:/'; } | cut -c1-160)
    return $bad
}

leak_awk() {
    cat <<'AWK'
# normalised: comments on the line dropped (an unclosed /* drops the rest), all white space removed
function norm(s,   a, b, rest) {
    while ((a = index(s, "/*")) > 0) {
        rest = substr(s, a + 2); b = index(rest, "*/")
        if (b == 0) { s = substr(s, 1, a - 1); break }
        s = substr(s, 1, a - 1) substr(rest, b + 2)
    }
    if ((a = index(s, "//")) > 0) s = substr(s, 1, a - 1)
    gsub(/[ \t\r\f\v]+/, "", s)
    return s
}
function marker_text(s, what) { sub("^.*/\\* " what " *", "", s); sub(/ *\*\/[ \t]*$/, "", s); return s }
function distinctive(r, p,   k) {
    k = r SUBSEP p
    if (!(k in dist)) dist[k] = !(R[r, p] in G) && index(hints, R[r, p]) == 0
    return dist[k]
}
function hit(file, lno, r, p, what,   k) {
    k = file SUBSEP r
    if (k in seen) { more[k]++; return }
    seen[k] = 1; nhits++; order[nhits] = k
    msg[k] = sprintf("LEAK %s:%d: %s of solution region %s:%d (exercise: %s): %s", file, lno, what, rfile[r], rline[r],
                     (length(rhint[r]) > 60 ? substr(rhint[r], 1, 57) "..." : rhint[r]), orig[r, p])
}
# the file's lines, checked once it has been read whole
function flush(   i, j, k, r, p, n, list, parts, code, dcount, tot) {
    if (cur == "") return
    code = cur ~ /\.(c|h|cu|cuh)$/
    for (i = 1; i <= nl; i++) {
        if (L[i] in idx) {
            n = split(idx[L[i]], list, " ")
            for (j = 1; j <= n; j++) {
                split(list[j], parts, ":"); r = parts[1]; p = parts[2]
                if (code && distinctive(r, p) && length(R[r, p]) >= 10) hit(cur, lno[i], r, p, "a line")
                dcount = 0; tot = 0
                for (k = 0; i + k <= nl && p + k <= rn[r] && L[i + k] == R[r, p + k]; k++) {
                    dcount += distinctive(r, p + k); tot += length(R[r, p + k])
                }
                if (k >= 2 && dcount > 0 && tot >= 16) hit(cur, lno[i], r, p, k " consecutive lines")
            }
        }
        for (j = 1; j <= nlong; j++)
            if (index(L[i], R[longr[j], longp[j]]) > 0) hit(cur, lno[i], longr[j], longp[j], "a line")
    }
    nl = 0
}
FNR == 1 { if (phase == "scan") { flush(); cur = FILENAME; nl = 0 } state = 0; printed = 0 }
phase == "sol" {
    line = $0
    # the rest of an exercise: or hint: marker that runs over several lines (tests/tools/exercise.awk)
    if (inmark) {
        t = line; sub(/^[ \t]*\*?[ \t]*/, "", t); if (t ~ /\*\//) { inmark = 0; sub(/[ \t]*\*\/.*$/, "", t) }
        hints = hints norm(t); next
    }
    if (state == 0 && (line ~ /\/\* exercise: .*\*\/[ \t]*$/ || line ~ /^[ \t]*\/\* exercise: /)) {
        nreg++; rfile[nreg] = FILENAME; rline[nreg] = FNR; rhint[nreg] = marker_text(line, "exercise:")
        inmark = line !~ /\*\/[ \t]*$/
        hints = hints "\n" norm(rhint[nreg]); state = 1; next
    }
    if (state == 1) {
        if (line ~ /\/\* end exercise \*\//) { state = 0; next }
        if (line ~ /^[ \t]*\/\* hint: /) { inmark = line !~ /\*\/[ \t]*$/; hints = hints "\n" norm(marker_text(line, "hint:")); next }
        if (line ~ /\/\* exercise stub: .*\*\/[ \t]*$/) { G[norm(marker_text(line, "exercise stub:"))] = 1; next }
        if (line ~ /\/\* exercise stub:[ \t]*$/) { state = 2; next }
        n = norm(line)
        if (n != "") { rn[nreg]++; R[nreg, rn[nreg]] = n; orig[nreg, rn[nreg]] = line; at[nreg, rn[nreg]] = FNR; idx[n] = idx[n] " " nreg ":" rn[nreg] }
        next
    }
    if (state == 2) { if (line ~ /^[ \t]*\*\/[ \t]*$/) state = 1; else G[norm(line)] = 1; next }
    G[norm(line)] = 1; next
}
phase == "given" { G[norm($0)] = 1; next }
phase == "scan" {
    if (!started) {   # the region lines are known: list the long distinctive ones once
        started = 1
        for (r = 1; r <= nreg; r++) {
            own = 0
            for (p = 1; p <= rn[r]; p++) {
                if (!distinctive(r, p)) continue
                own++; ndist++
                if (length(R[r, p]) >= 24) { nlong++; longr[nlong] = r; longp[nlong] = p }
            }
            if (own == 0) { nnone++; none[nnone] = rfile[r] ":" rline[r] " (exercise: " substr(rhint[r], 1, 60) ")" }
        }
    }
    if (FILENAME ~ /\.(c|h|cu|cuh)$/ && $0 ~ /\/\* (exercise:|exercise stub|end exercise|hint:)/) {
        nhits++; k = FILENAME SUBSEP "marker" FNR; order[nhits] = k
        msg[k] = sprintf("LEAK %s:%d: an exercise marker (a solution file copied in): %s", FILENAME, FNR, $0)
    }
    # the errata quote the book's printed code (a **Printed:** field): the book's text, not ours
    if (FILENAME ~ /\.md$/) {
        if ($0 ~ /^\*\*Printed:\*\*/) printed = 1
        else if (printed && ($0 ~ /^\*\*/ || $0 ~ /^[ \t]*$/)) printed = 0
        if (printed) { nprinted++; next }
    }
    n = norm($0)
    if (n != "") { nl++; L[nl] = n; lno[nl] = FNR }
    next
}
END {
    if (list) {   # handout.sh lines: what the check looks for
        for (r = 1; r <= nreg; r++) for (p = 1; p <= rn[r]; p++)
            if (distinctive(r, p)) printf "%s:%d\t%d\t%s\n", rfile[r], at[r, p], length(R[r, p]), orig[r, p]
        exit 0
    }
    flush()
    for (i = 1; i <= nhits; i++) print msg[order[i]] (more[order[i]] ? "  (and " more[order[i]] " more hits of that region in that file)" : "")
    if (nhits > 0) { printf "handout-check: %d hit%s: solution code is in the handout\n", nhits, (nhits > 1 ? "s" : ""); exit 1 }
    printf "handout-check: no solution body found (%d regions checked, %d distinctive lines", nreg, ndist
    printf "; %d regions have no line of their own%s", nnone, (nnone > 0 && verbose != 1 ? ": V=1 lists them" : "")
    printf "; %d lines of docs quoting the printed book skipped)\n", nprinted
    if (verbose == 1) for (i = 1; i <= nnone; i++) print "  every line given elsewhere: " none[i]
    if (nreg == 0) { print "handout-check: no exercise region found in solutions/: nothing was checked"; exit 1 }
}
AWK
}

case $mode in
lines) # every distinctive region line: FILE:LINE, TAB, its normalised length, TAB, the line
    inputs "$@"
    awk -v list=1 -f <(leak_awk) phase=sol "${sol[@]}" phase=given "${given[@]}" | sed "s|$top/||"
    ;;
check)
    [ -d "$out" ] || die "OUT=$out is not a folder (make handout OUT=$out makes one)"
    leak_check "$out" "$@" || { echo "make handout-check: $out leaks solution code (the lines above)" >&2; exit 1; }
    ;;
make)
    [ -e "$out" ] && die "$out exists: a handout is written to a new folder (OUT=another path, or remove it first)"
    case $(mkdir -p "$(dirname "$out")" && cd "$(dirname "$out")" && pwd -P)/ in
    "$(pwd -P)"/*) die "$out is inside this tree: a handout is a tree of its own; put it beside it, e.g. OUT=../pmpp-lab-handout" ;;
    esac
    stage=$out.partial-$$
    tmp=$(mktemp -d); trap 'rm -rf "$tmp" "$stage"' EXIT
    mkdir -p "$stage"
    put() { cp --parents -p "$@" "$stage"/; }
    # the exercise folders, generated from solutions/ in a scratch tree
    mkdir -p "$tmp/gen" && ln -s "$top/solutions" "$tmp/gen/solutions"
    (cd "$tmp/gen" && bash "$top/tests/tools/exercises.sh" write "$@" >"$tmp/gen.log" 2>&1) ||
        { cat "$tmp/gen.log"; die "generating the exercises failed"; }
    rm "$tmp/gen/solutions"
    cp -pr "$tmp/gen"/. "$stage"/
    for f in Makefile README.md .gitignore LICENSE LICENSE.* COPYING; do [ -f "$f" ] && put "$f"; done
    for f in ch*/*; do [ -f "$f" ] && put "$f"; done   # chapter-level files, if any
    # the core and every chapter's wing (common/<chapter>/)
    find common \( -type f -o -type l \) \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' -o -name '*.mk' \) -print0 |
        xargs -0 -r cp --parents -pL -t "$stage"
    while IFS= read -r f; do
        case " $NOT_IN_HANDOUT " in *" ${f##*/} "*) continue ;; esac
        put "$f"
    done < <(find tests -type f ! -path 'tests/mutants/*' ! -path 'tests/bench/*' ! -name '*.tap' ! -name '*.bak-*' | sort)
    while IFS= read -r f; do
        case " $DOCS_NOT_IN_HANDOUT " in *" ${f##*/} "*) continue ;; esac
        put "$f"
    done < <(find docs -type f ! -name '*.bak-*' | sort)
    # benchmarks measure the solutions: the Makefile's include finds a stub that says so
    mkdir -p "$stage/tests/bench"
    cat >"$stage/tests/bench/bench.mk" <<'MK'
# tests/bench/bench.mk, student handout: the benchmarks measure the solutions, which a handout
# does not have. ./run prints your step's time, bandwidth and elements per second.
.PHONY: bench plots bench-build
bench plots bench-build:
	@echo "make $@: the benchmarks are your instructor's (they measure the solutions, which this handout does not have); ./run prints your step's time and bandwidth"; exit 2
MK
    # README: the handout's own (see the top), saying first that this is the handout
    awk 'NR == 2 { print ""; print "> **Student handout.** This copy of the lab is yours: the exercises, their tests and hints,"
                   print "> without the solutions. `make check STEP=...` tests one step, `make hint STEP=...` gives graded"
                   print "> hints, `make status` shows where you stand, `make test` checks every step you have started." }
         /^<!-- instructors -->[ \t]*$/ { skip = 1; next }
         /^<!-- \/instructors -->[ \t]*$/ { skip = 0; next }
         skip { next }
         /^<!-- handout:/ { on = 1; sub(/^<!-- handout:[ \t]?/, "") }
         on { if (sub(/[ \t]*-->[ \t]*$/, "")) on = 0; if ($0 != "" || on) print; next }
         { print }' README.md >"$stage/README.md"
    # the calls the grader allows each step, as the solutions make them (make grade in the handout)
    mkdir -p "$stage/tests/grade"
    { echo "# made by make handout: STEP, TAB, a call the grader allows in it (its solution makes it too)"
      bash tests/tools/grade.sh --allowed "$@"; } >"$stage/tests/grade/allowed.txt"
    grep -qx '/grade/' "$stage/.gitignore" 2>/dev/null || echo '/grade/' >>"$stage/.gitignore"
    { echo "made by make handout from $(git describe --always --dirty 2>/dev/null || echo 'a tree without git') on $(date -u '+%Y-%m-%d %H:%M UTC')"
      echo "steps: ${*#solutions/}"; } >"$stage/.handout"
    nfiles=$(find "$stage" -type f | wc -l)
    if ! leak_check "$stage" "$@"; then
        rm -rf "$out.rejected"; mv "$stage" "$out.rejected"
        echo "make handout: the handout leaks solution code (the lines above); it is left at $out.rejected for a look, not at $out" >&2
        exit 1
    fi
    mv "$stage" "$out"
    echo "wrote the handout $out: $nfiles files, $# exercise steps, no solutions/."
    echo "Next: cd $out && git init && git add -A && git commit -m handout (docs/instructors.md: The student handout)."
    ;;
*) die "handout.sh make|check OUT SOLUTION_STEP... or handout.sh lines SOLUTION_STEP..." ;;
esac
