#!/usr/bin/env bash
# docs-check-steps.sh: what the docs say of the student's commands, against the steps as they are
# (tests/tools/docs-check.sh runs it; make docs-check). Prints each problem on a line starting "!!";
# exit 1 when there is one.
#   todo-lines  every quoted ./run or make check TODO line (`ch12-merge/step3-tiled/merge.cu:33:
#               TODO(3) Fig 12.13, ...`, cut with "..." or not) names the file, line, number and
#               text of that TODO in the exercise as it is now (tests/tools/step-info.sh --todos)
#   todo-names  a step README's TODO(k), where its words name functions in backticks, names the
#               function TODO(k) sits in in the code, as make hint numbers them (the step's HINTS:
#               "TODO(k) (file, in function())"); a README never names a TODO the code lacks
#   targets     every make target README.md, docs/*.md and the step READMEs name (`make bench`,
#               "make -C OUT all" in a code block) is one `make help` lists (the instructors' tree)
#   ranges      every option range `./run --help` gives ("threads per block, 1 to 1024") is what
#               ./run accepts before it looks for a GPU: each end of it runs (exit 3 with no GPU
#               visible, CUDA_VISIBLE_DEVICES=), never exit 2 (of the ./run built: make all first)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
nbad=0
bad() { echo "!! $*"; nbad=$((nbad + 1)); }
docs="README.md $(ls docs/*.md) $(ls ch1*/step*/README.md solutions/ch1*/step*/README.md 2>/dev/null)"

# ---- todo-lines ---------------------------------------------------------------------------------
declare -A todos_of
while IFS=$'\t' read -r f n step file line k text; do
    [ -d "$step" ] || { bad "$f:$n: quotes a TODO of $step, which is no exercise step"; continue; }
    [ -n "${todos_of[$step]+x}" ] || todos_of[$step]=$(bash tests/tools/step-info.sh --todos "$step")
    want=$(awk -v p="$step/$file:" -v k="TODO($k)" 'index($0, p) == 1 && index($0, ": " k " ") > 0 { print; exit }' <<<"${todos_of[$step]}")
    if [ -z "$want" ]; then bad "$f:$n: quotes $step/$file: TODO($k), which the exercise does not have"; continue; fi
    at=${want#"$step/$file:"}; at=${at%%:*}
    wtext=${want#*": TODO($k) "}
    text=${text%...}; text=${text%"${text##*[![:space:]]}"}
    if [ "$at" != "$line" ] || [ "${wtext:0:${#text}}" != "$text" ]; then
        bad "$f:$n: quotes $step/$file:$line: TODO($k) '$(cut -c1-50 <<<"$text")'; the exercise has it at line $at: '$(cut -c1-50 <<<"$wtext")'"
    fi
done < <(for f in $docs; do
    grep -noE '(ch1[0-9]-[a-z]+/step[0-9]+-[a-z0-9-]+)/([A-Za-z0-9_.]+):([0-9]+): TODO\(([0-9]+)\) .*' "$f" | sed "s|^|$f:|"
done | sed -E 's/^([^:]*):([0-9]+):(ch1[0-9]-[a-z]+\/step[0-9]+-[a-z0-9-]+)\/([A-Za-z0-9_.]+):([0-9]+): TODO\(([0-9]+)\) (.*)$/\1\t\2\t\3\t\4\t\5\t\6\t\7/')

# ---- todo-names ---------------------------------------------------------------------------------
for hints in ch1*/step*/HINTS; do
    step=${hints%/HINTS}
    for readme in "$step/README.md" "solutions/$step/README.md"; do
        [ -f "$readme" ] || continue
        awk -v readme="$readme" '
            FILENAME == ARGV[1] { if (match($0, /^TODO\([0-9]+\) \(/)) { k = $0; sub(/^TODO\(/, "", k); sub(/\).*/, "", k)
                                      f = ""; if (match($0, /, in [A-Za-z_0-9]+\(\)\)$/)) { f = substr($0, RSTART + 5); sub(/\(\)\)$/, "", f) }
                                      fn[k] = f; if (k + 0 > last) last = k + 0 }
                                  next }
            # a paragraph at a time: each TODO(k) of it and the words up to the next TODO(
            /^[ \t]*$/ { flush(); next }
            { para = para " " $0; if (first == 0) first = FNR }
            END { flush() }
            function flush(   s, k, rest, c, names, id, ok) {
                s = para; para = ""; at = first; first = 0
                while (match(s, /TODO\([0-9]+\)/)) {
                    k = substr(s, RSTART + 5, RLENGTH - 6); rest = substr(s, RSTART + RLENGTH); s = rest
                    c = rest; if (match(c, /TODO\(/)) c = substr(c, 1, RSTART - 1)
                    if (!(k in fn)) { printf "%s:%d: names TODO(%s); the code has TODO(1) to TODO(%d)\n", readme, at, k, last; continue }
                    if (fn[k] == "") continue
                    names = ""; ok = 0
                    while (match(c, /`[A-Za-z_][A-Za-z0-9_]*`/)) {
                        id = substr(c, RSTART + 1, RLENGTH - 2); c = substr(c, RSTART + RLENGTH)
                        names = names (names == "" ? "" : ", ") id; if (id == fn[k]) ok = 1
                    }
                    if (names != "" && !ok)
                        printf "%s:%d: TODO(%s) names %s; in the code (make hint) TODO(%s) is in %s()\n", readme, at, k, names, k, fn[k]
                }
            }' "$hints" "$readme" | while IFS= read -r l; do echo "!! $l"; done
    done
done >"${TMPDIR:-/tmp}/docs-check-steps.$$"
n=$(grep -c '^!!' "${TMPDIR:-/tmp}/docs-check-steps.$$"); cat "${TMPDIR:-/tmp}/docs-check-steps.$$"; rm -f "${TMPDIR:-/tmp}/docs-check-steps.$$"
nbad=$((nbad + n))

# ---- targets ------------------------------------------------------------------------------------
if [ -d solutions ]; then
    listed=" $(bash tests/tools/usage.sh 2>/dev/null | sed -n 's/^  make \([a-z][a-z0-9-]*\).*/\1/p' | sort -u | tr '\n' ' ') "
    # `make ...` spans of the prose, and the commands of the code blocks (after "$ ", split at && ; |)
    while IFS=$'\t' read -r f n target; do
        case $listed in *" $target "*) ;; *) bad "$f:$n: names make $target, which make help does not list" ;; esac
    done < <(for f in $docs; do
        awk -v f="$f" '
            function target(cmd,   w, i, n, t) {   # the goal of a make command line: its first word that is no option
                n = split(cmd, w, /[ \t]+/)
                for (i = 1; i <= n && w[i] != "make"; i++) ;
                for (i++; i <= n; i++) {
                    t = w[i]
                    if (t == "") continue
                    if (t == "-C" || t == "-f" || t == "-o" || t == "-W") { i++; continue }
                    if (t ~ /^-/ || t ~ /=/) continue
                    if (t ~ /^[a-z][a-z0-9-]*$/) printf "%s\t%d\t%s\n", f, FNR, t
                    return
                }
            }
            /^```/ { code = !code; next }
            code { line = $0; sub(/#.*/, "", line); sub(/^[ \t]*\$[ \t]+/, "", line)
                   n = split(line, part, /&&|;|\||\(|\)/)
                   for (j = 1; j <= n; j++) if (part[j] ~ /^[ \t]*make([ \t]|$)/) target(part[j])
                   next }
            { s = $0; while (match(s, /`make [^`]*`/)) { target(substr(s, RSTART + 1, RLENGTH - 2)); s = substr(s, RSTART + RLENGTH) } }' "$f"
    done | sort -u)
fi

# ---- ranges -------------------------------------------------------------------------------------
nprobed=0
for sol in solutions/ch1*/step*/; do
    st=${sol%/}; st=${st#solutions/}
    run=""; for r in "build/solutions/$st/run" "build/$st/run"; do [ -x "$r" ] && { run=$r; break; }; done
    [ -n "$run" ] || continue
    while read -r opt lo hi; do
        for v in "$lo" "$hi"; do
            out=$(CUDA_VISIBLE_DEVICES= timeout 20 "$run" "$opt" "$v" 2>&1 >/dev/null); rc=$?
            nprobed=$((nprobed + 1))
            # a refusal that depends on the machine (GPUs visible) is not the option's range
            [ "$rc" = 2 ] && [[ $out != *visible* ]] &&
                bad "$st: ./run --help gives $opt $lo to $hi, but ./run $opt $v is refused: $(head -n1 <<<"$out" | cut -c1-120)"
        done
    done < <("$run" --help 2>/dev/null | awk '/^  -/ && match($0, /, -?[0-9]+ to [0-9]+/) {
                 r = substr($0, RSTART + 2, RLENGTH - 2); split(r, a, " to "); o = $1; sub(/,$/, "", o); if (o == "-n") o = "--size"
                 print o, a[1], a[2] }')
done
[ "$nprobed" -gt 0 ] || echo "-- the --help ranges were not checked: no ./run is built (make all first)"

[ "$nbad" = 0 ]
