#!/usr/bin/env bash
# docs-check.sh: the docs agree with the catalogue, the errata and the tree (make docs-check, CI).
# Prints each problem on a line starting "!!" and exits 1 when there is one; 0 otherwise.
#   catalogue  tests/tools/catalogue.sh check (every solution step has its line, and its README
#              opens with it); `make list` fits 100 columns
#   labels     README.md's table names each step with its label, the one `make list` shows
#              (tests/tools/catalogue.sh labels: "Fig 12.9", "Figs 12.10-12.14", or the figures as
#              written, "; beyond the book" added to a section for a step beyond the book), and its
#              title; every chapter guide's step table with that label (or the label without its
#              "; beyond the book")
#   headers    the kernel file of every solution step of a book step cites the catalogue's figures
#              in its header comment ("Figs 10.6, 10.7", "Figures 12.10-12.14", "section 13.8");
#              a step from a chapter's exercise names its section (the exercises are generated
#              from the solutions: make exercises-check)
#   translat   the word "translat..." appears only in the introduction of docs/errata.md (the
#              lab was cross-checked against a translation; everywhere else it is "the printed
#              code"); "translation unit", the C term, is not counted
#   errata     every errata heading is `### E<chapter>.<n> ...`, in its chapter's section, numbered
#              1, 2, ... in order; every E<chapter>.<n> cited anywhere exists; no old-style IDs
#              ("errata 12-3"); every test, wrong variant and path that a "Pinned by" names exists
#   tests      every `suite::test` that README.md or a guide names is a test in tests/
#   links      every relative link and image in README.md and docs/*.md points at a file that
#              exists (and at a heading that exists, for a #fragment into a .md file)
#   paths      every path of the tree that README.md or docs/*.md names (common/..., tests/...,
#              solutions/..., docs/..., ch1N-.../...) exists; one with a stepN placeholder
#              (solutions/ch13-sort/stepN-name/sort.cu) names a file every step of that chapter has
#   files      every source file name README.md or a guide names in backticks (`sample_sort.cu`,
#              `merge.h`) is a file of the tree
#   defaults   what README.md and the guides quote of `./run --help`: a result line's n=, seed= and
#              reps after a `./run` without options, a `--opt V` in the comment of a `make STEP
#              && ./run` line whose command does not set it, and "`--opt` ... default V" in prose,
#              against the defaults --help prints (of the steps built: make all first; the
#              chapter's steps for a guide and for each of its pages, docs/chNN-*.md)
#   steps      tests/tools/docs-check-steps.sh: quoted TODO lines against the exercises as they are,
#              a README's TODO(k) against the function make hint numbers k, every make target the
#              docs name in make help, the option ranges of ./run --help against what ./run takes
# Each fault is reported once: a step with no catalogue line is not also reported by every table
# that names it.
# A step being written (no folder under solutions/ yet, or no README.md or kernel file in it) is
# reported as pending, not as a problem, unless LAB_DOCS_STRICT=1: its catalogue and guide lines.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
strict=${LAB_DOCS_STRICT:-0}
cat=docs/catalogue.txt
errata=docs/errata.md
nbad=0 npending=0
declare -A said
bad() { [ -n "${said[$*]:-}" ] && return; said[$*]=1; echo "!! $*"; nbad=$((nbad + 1)); }
pending() { echo "-- $* (pending: LAB_DOCS_STRICT=1 makes it a failure)"; npending=$((npending + 1)); }

# The catalogue's rows: step|figures|origin|title|idea, fields trimmed.
rows() { grep -v '^[[:space:]]*\(#\|$\)' "$cat" | sed 's/[[:space:]]*|[[:space:]]*/|/g; s/^[[:space:]]*//; s/[[:space:]]*$//'; }
# STEP TAB LABEL: the catalogue's labels, as make list shows them
declare -A label_of
while IFS=$'\t' read -r st lab; do label_of[$st]=$lab; done < <(bash tests/tools/catalogue.sh labels)
# The text files of the tree: git's (tracked and untracked, not ignored), else a find.
tree_files() {
    { if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then git ls-files -co --exclude-standard
      else find . -type f ! -path './build/*' ! -path './.deps/*' ! -path './results/*' ! -path './.git/*' | sed 's|^\./||'; fi; } |
        grep -E '(\.(md|txt|c|h|cu|cuh|sh|awk|gp|conf|sed|mk|py)|(^|/)(HINTS|Makefile)|^\.ci/run)$' |
        grep -v '^docs/plots/' | grep -vx 'tests/tools/docs-check.sh' | sort -u | while IFS= read -r f; do [ -f "$f" ] && echo "$f"; done
}
files=$(tree_files)
basenames=$({ git ls-files -co --exclude-standard 2>/dev/null || find . -type f ! -path './build/*' ! -path './.git/*'; } | sed 's|.*/||' | sort -u | tr '\n' ' ')
have_solutions=$([ -d solutions ] && echo yes)

# The chapter a page of docs/ belongs to: its guide (docs/ch13-sort.md) or one of the guide's own
# pages (docs/ch13-onesweep.md: the chapter whose folder starts ch13-); "" for any other file.
chapter_of() { local b d; b=$(basename "$1" .md)
    [ -d "solutions/$b" ] && { echo "$b"; return; }
    [[ $b =~ ^(ch[0-9]+)- ]] || return 0
    d=$(cd solutions 2>/dev/null && ls -d "${BASH_REMATCH[1]}"-*/ 2>/dev/null)
    [ "$(wc -w <<<"$d")" = 1 ] && echo "${d%/}"; return 0; }

# A step being written: no folder under solutions/ yet, or one without its README.md or kernel file.
landing() { [ ! -f "solutions/$1/README.md" ] || ! ls "solutions/$1"/*.cu >/dev/null 2>&1; }
# A problem with step $1: a failure, or pending while the step is being written (not when strict).
bad_step() { local s=$1; shift
    if [ "$strict" != 1 ] && landing "$s"; then pending "$*"; else bad "$*"; fi; }

# ---- catalogue ----------------------------------------------------------------------------
if [ -n "$have_solutions" ]; then
    out=$(bash tests/tools/catalogue.sh check 2>&1)
    shown=1
    while IFS= read -r line; do
        s=$(sed -nE 's|^!! (docs/catalogue.txt names ([^ ,]+), which.*\|solutions/(ch[^ ]+/step[^/ ]+)/README.md .*\|docs/[^ ]+ never names ([^ ]+)\x27s figures.*)$|\2\3\4|p' <<<"$line")
        case $line in
        '!! '*) line=${line%:}
                if [ -n "$s" ]; then bad_step "$s" "${line#!! }"; else bad "${line#!! }"; fi
                shown=$([ "$strict" = 1 ] || [ -z "$s" ] || ! landing "$s" && echo 1 || echo 0) ;;
        '     '*) [ "$shown" = 1 ] && echo "$line" ;;
        esac
    done <<<"$out"
else
    echo "-- no solutions/ here (a student handout): the catalogue, label and header checks need it"
fi
width=$(bash tests/tools/catalogue.sh list | awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }')
[ "$width" -le 100 ] || bad "make list is $width columns wide: it must fit in 100"

# ---- labels: the guides' step tables and README.md's table --------------------------------
# The step table of a guide or README.md: the first table whose header starts "| step | book |".
step_table() { awk '!done && /^\| *step *\| *book *\|/ { on = 1 } on && !/^\|/ { on = 0; done = 1 } on' "$1"; }
# cell N (1-based) of the step table's row whose first cell is $2, in file $1 ("\001" when no such row)
cell() { step_table "$1" | awk -F'|' -v key="$2" -v n="$3" '
    /^\|/ { c = $2; gsub(/^[ \t]+|[ \t]+$/, "", c)
            if (c == key) { v = $(n + 1); gsub(/^[ \t]+|[ \t]+$/, "", v); print v; found = 1; exit } }
    END { if (!found) print "\001" }'; }
if [ -n "$have_solutions" ]; then
    while IFS='|' read -r s figs origin title _; do
        ch=${s%%/*} name=${s#*/} want=${label_of[$s]}
        guide=docs/$ch.md
        if [ -f "$guide" ]; then
            got=$(cell "$guide" "$name" 2)
            if [ "$got" = $'\001' ]; then
                bad_step "$s" "$guide: its step table has no row for $name (| $name | $want | ...)"
            elif [ "$got" != "$want" ] && [ "$got; beyond the book" != "$want" ]; then
                bad "$guide: $name is labelled '$got'; make list (the catalogue) says '$want'"
            fi
        fi
        got=$(cell README.md "$s" 2)
        if [ "$got" = $'\001' ]; then
            bad "README.md: its table of steps has no row for $s (| $s | $want | $title |)"
        else
            [ "$got" = "$want" ] || bad "README.md: $s is labelled '$got'; make list (the catalogue) says '$want'"
            got=$(cell README.md "$s" 3)
            [ "$got" = "$title" ] || bad "README.md: $s's title is '$got'; the catalogue says '$title'"
        fi
    done < <(rows)
    # rows naming a step the catalogue does not have (a solution step without its line was reported
    # above, by the catalogue check: once)
    known=" $(rows | cut -d'|' -f1 | tr '\n' ' ') $(cd solutions && ls -d ch*/step*/ 2>/dev/null | sed 's|/$||' | tr '\n' ' ') "
    for guide in docs/ch1*-*.md; do
        ch=$(chapter_of "$guide")
        for name in $(step_table "$guide" | awk -F'|' '/^\| *step[0-9]/ { c = $2; gsub(/^[ \t]+|[ \t]+$/, "", c); print c }'); do
            case $known in *" $ch/$name "*) ;; *) bad "$guide: its step table names $name, which the catalogue does not have" ;; esac
        done
        for name in $(step_table "$guide" | awk -F'|' '/^\| *step[0-9]/ { c = $2; gsub(/^[ \t]+|[ \t]+$/, "", c); if (n[c]++ == 1) print c }'); do
            bad "$guide: its step table has two rows for $name"
        done
    done
    for s in $(step_table README.md | awk -F'|' '/^\| *ch1[0-9]-[a-z]+\/step[0-9]/ { c = $2; gsub(/^[ \t]+|[ \t]+$/, "", c); print c }'); do
        case $known in *" $s "*) ;; *) bad "README.md: its table names $s, which the catalogue does not have" ;; esac
    done
fi

# ---- headers: the kernel file of each step cites its figures --------------------------------
# The header comment of a kernel file, on one line (the exercise's first line, which says it was
# generated, is skipped).
header() { awk 'NR == 1 && /^\/\* Exercise/ { next }
    !on && /\/\*/ { on = 1 }
    on { line = $0; sub(/^[ \t]*\/?\*+\/?[ \t]?/, "", line); text = text " " line; if ($0 ~ /\*\//) exit }
    END { gsub(/\*\//, "", text); gsub(/[ \t]+/, " ", text); print text }' "$1"; }
if [ -n "$have_solutions" ]; then
    while IFS='|' read -r s figs origin _; do
        case $origin in book | exercise) ;; *) continue ;; esac
        for dir in "solutions/$s"; do
            [ -d "$dir" ] || continue
            k=$(ls "$dir"/*.cu 2>/dev/null | sort | head -n1)
            [ -n "$k" ] || { bad "$dir: no kernel file (*.cu)"; continue; }
            h=$(header "$k" | tr 'A-Z' 'a-z')
            case $figs in
            [0-9]*)
                main=$(sed 's/ *(.*//' <<<"$figs")
                found=
                for p in "fig $main" "figs $main" "figure $main" "figures $main"; do
                    case $h in *"$p"*) found=yes ;; esac
                done
                [ -n "$found" ] || bad "$k: its header does not cite the catalogue's figures ('Figs $main')"
                # the figures in parentheses (a worked example) are cited too, in any words
                for t in $(sed -n 's/.*(\(.*\)).*/\1/p' <<<"$figs" | tr ',' ' '); do
                    case $h in *"$t"*) ;; *) bad "$k: its header does not name $t (catalogue: '$figs')" ;; esac
                done ;;
            *)
                sec=$(grep -oiE 'section [0-9]+\.[0-9]+' <<<"$figs" | tr 'A-Z' 'a-z')
                [ -z "$sec" ] || case $h in *"$sec"*) ;; *) bad "$k: its header does not name $sec (catalogue: '$figs')" ;; esac ;;
            esac
        done
    done < <(rows)
fi

# ---- translat: only in the introduction of docs/errata.md -------------------------------
while IFS= read -r hit; do
    f=${hit%%:*} rest=${hit#*:} n=${rest%%:*} text=${hit#*:*:}
    grep -qi 'translat' <<<"$(sed -E 's/[Tt]ranslation[ -]units?//g' <<<"$text")" || continue
    if [ "$f" = "$errata" ]; then
        intro_end=$(grep -n '^## ' "$errata" | head -n1 | cut -d: -f1)
        [ -n "$intro_end" ] && [ "$n" -lt "$intro_end" ] && continue
    fi
    bad "$f:$n: '$(cut -c1-100 <<<"$text")': say \"the printed code\"; the translation is named once, in $errata's introduction"
done < <(grep -HniI 'translat' $files 2>/dev/null)

# ---- errata: IDs, headings, references, what "Pinned by" names -------------------------
if [ -f "$errata" ]; then
    ids=$(awk '
        /^## Chapter [0-9]+/ { ch = $3; n = 0; next }
        /^### / { id = $2
                  if (id !~ /^E[0-9]+\.[0-9]+$/) { printf "!bad %d heading \"%s\" has no ID of the form E<chapter>.<n>\n", NR, $0; next }
                  split(substr(id, 2), p, ".")
                  if (p[1] != ch) printf "!bad %d %s is under chapter %s\n", NR, id, ch
                  if (p[2] != n + 1) printf "!bad %d %s follows E%s.%d: number the entries 1, 2, ... in order\n", NR, id, ch, n
                  n = p[2]; if (seen[id]++) printf "!bad %d %s is defined twice\n", NR, id
                  print id }' "$errata")
    while IFS= read -r l; do
        case $l in '!bad '*) l=${l#!bad }; bad "$errata:${l%% *}: ${l#* }" ;; esac
    done <<<"$ids"
    defined=" $(grep -v '^!bad' <<<"$ids" | tr '\n' ' ') "
    while IFS= read -r hit; do
        f=${hit%%:*} rest=${hit#*:} n=${rest%%:*} id=${rest#*:}
        case $defined in *" $id "*) ;; *) bad "$f:$n: cites $id, which $errata does not define" ;; esac
    done < <(grep -HnoE '\bE1[0-9]\.[0-9]+\b' $files 2>/dev/null)
    while IFS= read -r hit; do
        bad "${hit%%:*}:$(cut -d: -f2 <<<"$hit"): an old-style errata ID ('$(cut -d: -f3- <<<"$hit" | cut -c1-60)'): IDs are E<chapter>.<n>"
    done < <(grep -HnoiE '(errata|erratum)[ ,(]+1[0-9]-[0-9]+|^### 1[0-9]-[0-9]+' $files 2>/dev/null)
fi

# Tests: suite::name of every Criterion test (Test, GPU_TEST, ParameterizedTest) in tests/.
all_tests=" $(grep -rhoE '\b(Test|GPU_TEST|ParameterizedTest)[[:space:]]*\([[:space:]]*[A-Za-z_0-9]+[[:space:]]*,[[:space:]]*[A-Za-z_0-9]+' tests \
    --include='*.c' --include='*.h' 2>/dev/null | sed -E 's/.*\([[:space:]]*//; s/[[:space:]]*,[[:space:]]*/::/' | sort -u | tr '\n' ' ') "
suites=" $(tr ' ' '\n' <<<"$all_tests" | sed -n 's/::.*//p' | sort -u | tr '\n' ' ') "
check_test() { # FILE LINE suite::name
    local suite=${3%%::*}
    case $suites in *" $suite "*) ;; *) return 1 ;; esac   # not a suite of ours (cub::DeviceReduce ...)
    case $all_tests in *" $3 "*) ;; *) bad "$1:$2: names the test $3, which tests/ does not have" ;; esac
    return 0
}

# What each "Pinned by" paragraph names: tests, wrong variants, paths.
if [ -f "$errata" ]; then
    while IFS=$'\t' read -r n tok; do
        case $tok in
        *::*) check_test "$errata" "$n" "$tok" || bad "$errata:$n: Pinned by names $tok, which is not a test in tests/" ;;
        */*.*) [ -e "$tok" ] || bad "$errata:$n: Pinned by names $tok, which does not exist" ;;
        [a-z]*-*[a-z0-9])
            if [[ $tok =~ ^[a-z0-9]+(-[a-z0-9]+)+$ ]]; then
                ls tests/mutants/*/"$tok".sed >/dev/null 2>&1 || bad "$errata:$n: Pinned by names the wrong variant $tok: no tests/mutants/*/$tok.sed"
            fi ;;
        esac
    done < <(awk '/^\*\*Pinned by:\*\*/ { on = 1 } on && (/^$/ || /^#/) { on = 0 }
                  on { s = $0; while (match(s, /`[^`]+`/)) { print NR "\t" substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) } }' "$errata")
fi

# ---- tests named in README.md and the guides; links; paths ------------------------------
docs="README.md $(ls docs/*.md)"
for f in $docs; do
    # prose only: fenced code blocks are left out
    prose=$(awk '/^```/ { code = !code; print ""; next } { print code ? "" : $0 }' "$f")
    while IFS=: read -r n tok; do check_test "$f" "$n" "$tok" || true; done < <(grep -noE '`[a-z_0-9]+::[A-Za-z_0-9]+`' <<<"$prose" | tr -d '`' | sort -u)
    # links and images: [text](target), not inside `code`
    dir=$(dirname "$f")
    while IFS=$'\t' read -r n target; do
        case $target in http://* | https://* | mailto:*) continue ;; esac
        path=${target%%#*} frag=
        [[ $target == *#* ]] && frag=${target#*#}
        if [ -z "$path" ]; then file=$f; else file=$dir/$path; fi
        if [ ! -e "$file" ]; then bad "$f:$n: the link ($target) points at $file, which does not exist"; continue; fi
        if [ -n "$frag" ] && [[ $file == *.md ]]; then
            slugs=$(awk '/^```/ { code = !code } !code && /^#+ / { h = tolower($0); sub(/^#+ +/, "", h)
                        gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h); print h }' "$file")
            grep -qxF -- "$frag" <<<"$slugs" || bad "$f:$n: the link ($target): $file has no heading #$frag"
        fi
    done < <(sed 's/`[^`]*`//g' <<<"$prose" | awk '{ s = $0; while (match(s, /\]\([^) ]+\)/)) { print NR "\t" substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH) } }')
    # paths of the tree the text names (placeholders such as <ch>, {h,c} and globs are left out); a
    # stepN placeholder stands for every step of its chapter
    while IFS=: read -r n p; do
        p=${p%.} p=${p%,} p=${p%)} p=${p%:}
        case $p in *'<'* | *'*'* | *'{'* | *'...'* | *'…'*) continue ;; esac
        if [[ $p =~ ^(solutions/)?(ch1[0-9]-[a-z]+)/stepN[^/]*/(.+)$ ]]; then
            pre=${BASH_REMATCH[1]} ch=${BASH_REMATCH[2]} rest=${BASH_REMATCH[3]} lack=()
            for d in $pre$ch/step*/; do [ -e "$d$rest" ] || lack+=("$(basename "$d")"); done
            [ ${#lack[@]} = 0 ] || bad "$f:$n: names $p, but ${lack[*]} has no $rest"
            continue
        fi
        case $p in *stepN*) continue ;; esac
        [ -e "$p" ] || [ -e "$dir/$p" ] || bad "$f:$n: names $p, which does not exist"
    done < <(grep -noE '(^|[ `(])((common|tests|solutions|docs)/[A-Za-z0-9_.<>{},*/-]+\.[a-z]+|ch1[0-9]-[a-z]+/step[0-9N]+-?[a-z0-9-]*/[A-Za-z0-9_.-]+\.[a-z]+)' <<<"$prose" |
             sed -E 's/:[ `(]?/:/' | sort -u)
    # source files named alone, in backticks: a file of the tree (or a system or CUDA header)
    while IFS=: read -r n name; do
        name=${name//\`/}
        case " $basenames " in *" $name "*) continue ;; esac
        [ -e "/usr/include/$name" ] || [ -e "${CUDA_INC:-/usr/local/cuda/include}/$name" ] ||
            bad "$f:$n: names \`$name\`, which no file of the tree is called"
    done < <(grep -noE '`[A-Za-z0-9_.-]+\.(cu|cuh|h|c)`' <<<"$prose" | sort -u)
done

# ---- defaults: what the docs quote of ./run --help -------------------------------------
# help_defaults RUN: "OPTION TAB DEFAULT TAB NAMES" for each option its --help gives a default
help_defaults() {
    "$1" --help 2>/dev/null | awk '
        function flush() { if (cur == "") return
            n = split(opts, o, " ")
            d = ""; if (match(cur, /\(default:? [^)]*\)[ \t]*$/)) { d = substr(cur, RSTART + 9, RLENGTH - 10); sub(/^:? */, "", d); sub(/\)[ \t]*$/, "", d) }
            names = ""; if (match(cur, /: [a-z0-9_, -]+( or [a-z0-9_-]+)? \(default/)) names = substr(cur, RSTART + 2, RLENGTH - 11)
            gsub(/,| or /, " ", names)
            if (d != "") for (i = 1; i <= n; i++) printf "%s\t%s\t %s \n", o[i], d, names
            cur = "" }
        /^  -/ { flush(); cur = $0; opts = ""; s = $0; sub(/^ +/, "", s)
                 while (match(s, /^-[-a-z0-9]+,? ?/)) { t = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1); gsub(/[, ]/, "", t); opts = opts " " t
                        if (s !~ /^-/) break }
                 next }
        /^      +[^ ]/ && cur != "" { cur = cur " " $0; next }
        { flush() }
        END { flush() }'
}
# run_of STEP: the built ./run of a step (its solution's first); "" when none is built
run_of() { local s=${1#solutions/}; for r in "build/solutions/$s/run" "build/$s/run"; do [ -x "$r" ] && { echo "$r"; return; }; done; }
declare -A help_cache
defaults_of() { # STEP: cached help_defaults of its ./run
    local r; r=$(run_of "$1"); [ -n "$r" ] || return 1
    [ -n "${help_cache[$r]+x}" ] || help_cache[$r]=$(help_defaults "$r")
    printf '%s\n' "${help_cache[$r]}"
}
# size V: a size as -n writes it (2^24, 16M, 3k, 1000) in elements; "" when V is none
size() { awk -v v="$1" 'BEGIN { if (v ~ /^[0-9]+\^[0-9]+$/) { split(v, p, "^"); x = 1; for (i = 0; i < p[2]; i++) x *= p[1]; printf "%.0f\n", x * 1 }
                               else if (v ~ /^[0-9]+[kKmMgG]$/) { m = substr(v, length(v)); x = substr(v, 1, length(v) - 1); f = m ~ /[kK]/ ? 1024 : m ~ /[mM]/ ? 1048576 : 1073741824; printf "%.0f\n", x * f }
                               else if (v ~ /^[0-9]+$/) print v }'; }
# step_of STEP: the folder a step's short name (ch10-reduction/step5) names, without solutions/
step_of() { local s=${1#solutions/} d; d=$(ls -d "solutions/$s" "solutions/$s"-*/ "$s" "$s"-*/ 2>/dev/null | head -n1); d=${d#solutions/}; echo "${d%/}"; }
nodefaults=()
check_default() { # FILE LINE STEP OPTION VALUE: VALUE is what --help gives OPTION as its default
    local d want st
    st=$(step_of "$3"); [ -n "$st" ] || return 0
    d=$(defaults_of "$st") || { nodefaults+=("$st"); return 0; }
    want=$(awk -F'\t' -v o="$4" '$1 == o { print $2; exit }' <<<"$d")
    [ -n "$want" ] || return 0
    if [ "$want" != "$5" ] && { [ -z "$(size "$5")" ] || [ "$(size "$5")" != "$(size "$want")" ]; }; then
        bad "$1:$2: says $4 is $5 by default for $3; its ./run --help says $want"
    fi
}
for f in $docs; do
    # result lines after `./run` with no options, and `make STEP && ./run ... # comment` lines
    while IFS=$'\t' read -r n kind st rest; do
        case $kind in
        result)
            read -r nval sval rval <<<"$rest"
            check_default "$f" "$n" "$st" -n "$nval"; check_default "$f" "$n" "$st" --seed "$sval"
            [ -n "$rval" ] && check_default "$f" "$n" "$st" --reps "$rval" ;;
        comment)
            args=${rest%%$'\t'*} com=${rest#*$'\t'}
            com=$(sed -E 's/\([^)]*\)//g' <<<"$com")
            if [[ $com =~ ^[[:space:]]*([0-9]+(\^[0-9]+)?[kKmMgG]?)[[:space:]]+(floats|ints|keys|pairs|elements) ]] && [[ " $args " != *" -n "* ]]; then
                check_default "$f" "$n" "$st" -n "${BASH_REMATCH[1]}"
            fi
            while read -r opt val; do
                [ -n "$opt" ] && [[ " $args " != *" $opt "* ]] && check_default "$f" "$n" "$st" "$opt" "$val"
            done < <(grep -oE -- '--[a-z][a-z0-9-]* [A-Za-z0-9^.]+' <<<"$com") ;;
        esac
    done < <(awk '/^```/ { code = !code; bare = 0; next }
        !code { next }
        /^\$ make [^ ]+ && \.\/run *$/ { bare = 1; next }
        /^\$ / { bare = 0; next }
        bare && /^(PASS|FAIL) [^ ]+ / { st = $2; nv = sv = rv = ""
            if (match($0, / n=[0-9]+/)) nv = substr($0, RSTART + 3, RLENGTH - 3)
            if (match($0, / seed=[0-9]+/)) sv = substr($0, RSTART + 6, RLENGTH - 6)
            if (match($0, /[0-9]+ reps\)/)) { rv = substr($0, RSTART, RLENGTH); sub(/ reps\)/, "", rv) }
            printf "%d\tresult\t%s\t%s %s %s\n", NR, st, nv, sv, rv; bare = 0; next }
        /^make [^ ]+ && \.\/run.*#/ { st = $2; line = $0; com = line; sub(/^[^#]*#/, "", com); args = line; sub(/#.*/, "", args); sub(/^.*\.\/run/, "", args)
            printf "%d\tcomment\t%s\t%s\t%s\n", NR, st, args, com }' "$f")
    # prose: "`--opt` ... default V" (V a number, or one of the option's names), against the steps
    # of the guide's chapter (README.md: every step)
    ch=$(chapter_of "$f")
    prose=$(awk '/^```/ { code = !code; print ""; next } { print code ? "" : $0 }' "$f")
    while IFS=$'\t' read -r n opt val; do
        [ -n "$val" ] || continue
        found=0 any=0 said=""
        for st in $(cd solutions 2>/dev/null && ls -d ${ch:-ch*}/step*/ 2>/dev/null | sed 's|/$||'); do
            d=$(defaults_of "$st") || continue
            line=$(awk -F'\t' -v o="$opt" '$1 == o' <<<"$d" | head -n1); [ -n "$line" ] || continue
            want=$(cut -f2 <<<"$line") names=$(cut -f3 <<<"$line")
            [[ $val =~ ^[0-9^]+[kKmM]?$ ]] || [[ $names == *" $val "* ]] || continue
            any=1; said="$said $want"
            { [ "$want" = "$val" ] || { [ -n "$(size "$val")" ] && [ "$(size "$val")" = "$(size "$want")" ]; }; } && found=1
        done
        [ "$any" = 1 ] && [ "$found" = 0 ] &&
            bad "$f:$n: says $opt's default is $val; the --help of ${ch:-the} steps$([ -n "$ch" ] && echo " of $ch") says$(tr ' ' '\n' <<<"$said" | sort -u | tr '\n' ' ' | sed 's/ $//')"
    done < <(awk '{ s = $0
            while (match(s, /`--[a-z][a-z0-9-]*[^`]*`/)) {
                opt = substr(s, RSTART + 1, RLENGTH - 2); sub(/[ |].*/, "", opt); s = substr(s, RSTART + RLENGTH)
                t = s; if (match(t, /`--/)) t = substr(t, 1, RSTART - 1)
                if (match(t, /default:? +[A-Za-z0-9^]+/)) { v = substr(t, RSTART, RLENGTH); sub(/^default:? +/, "", v); printf "%d\t%s\t%s\n", NR, opt, v }
            } }' <<<"$prose")
done
if [ ${#nodefaults[@]} -gt 0 ]; then
    k=$(printf '%s\n' "${nodefaults[@]}" | sort -u | wc -l)
    echo "-- the defaults quoted for $k step$([ "$k" = 1 ] || echo s) not checked: $([ "$k" = 1 ] && echo its || echo their) ./run is not built (make all first)"
fi

# ---- steps: what the docs say of the student's commands (tests/tools/docs-check-steps.sh) ----------
while IFS= read -r l; do
    case $l in '!! '*) bad "${l#!! }" ;; *) echo "$l" ;; esac
done < <(bash tests/tools/docs-check-steps.sh)

# ---- summary ---------------------------------------------------------------------------
if [ "$nbad" -gt 0 ]; then
    echo "docs-check: $nbad problem$([ "$nbad" = 1 ] || echo s)$([ "$npending" = 0 ] || echo ", $npending pending")"
    exit 1
fi
echo "docs-check: ok (catalogue, labels, kernel headers, errata IDs and pins, tests named, links, paths, files, defaults, TODO lines and names, make targets, option ranges$([ "$npending" = 0 ] || echo "; $npending pending: steps not yet under solutions/"))"
exit 0
