#!/usr/bin/env bash
# exercises.sh MODE STEP...  - the views of solutions/ (the master) a student sees, and the one test
# of whether a student has touched an exercise. STEP is a step folder, with or without solutions/.
#   write    regenerates each exercise step (ch*/stepN-name/) from solutions/. A file the student
#            edited is never overwritten: the step is kept with a note (files missing from it are
#            still written), unless FORCE=1, which first copies the edited file to FILE.bak-<date>.
#   check    fails when a committed exercise differs from what `write` makes (maintainers, CI).
#   clean    writes the clean solution view (markers, hints and stubs removed) of each step to
#            build/clean/<step>/, for `make diff` and `make solution`.
#   state    per step, a line: STEP, TAB, untouched|edited|missing, TAB, the missing files, TAB, the
#            edited files (make status, make test in a handout).
#   edited   per step, "STEP untouched" or "STEP edited" (a missing file counts as edited).
#   present  says which files of the step are missing and how to get each back; exit 2 when one is
#            (the Makefile asks when a build fails or a kernel file is not there).
# Untouched: a file is what `make exercises` wrote, by its checksum in the step's manifest (.exercise,
# written with the exercise, and carried by a handout) or, where solutions/ is here, by comparison
# with what the generator makes now. Never by a line inside the file.
set -euo pipefail
mode=$1; shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
MANIFEST=.exercise

# generate SOLUTION_STEP OUTDIR VIEW: the step's files in that view (the exercise view with its manifest)
generate() {
    local sol=$1 out=$2 view=$3 step=${1#solutions/} files f short
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    # headers first, then the kernel file, so TODO numbers follow the reading order
    files=$(cd "$sol" && { ls *.h *.cuh 2>/dev/null || true; ls *.cu *.c 2>/dev/null || true; })
    (cd "$sol" && awk -v step="$step" -v outdir="$out" -v view="$view" -f "$here/exercise.awk" $files)
    [ "$view" = exercise ] || return 0
    short=${step%%/*}/step$(sed 's/.*\/step\([0-9]*\).*/\1/' <<<"$step")
    # the line that says what to do, on the files that hold a TODO (not on a header it only reads)
    for f in $files; do
        grep -q '/\* TODO([0-9]*)' "$out/$f" || continue
        { printf '/* Exercise: fill in each TODO; `make hint STEP=%s` gives graded hints. */\n' "$short"
          cat "$out/$f"; } >"$out/$f.h1"
        mv "$out/$f.h1" "$out/$f"
    done
    for f in README.md Makefile; do [ -f "$sol/$f" ] && cp "$sol/$f" "$out/$f"; done
    { echo "# what make exercises wrote here: checksum, bytes, file (a file that still matches is untouched)"
      (cd "$out" && for f in *; do [ -f "$f" ] && printf '%s %s\n' "$(cksum <"$f" | cut -d' ' -f1,2)" "$f"; done); } >"$out/$MANIFEST"
    return 0
}

sum_of() { cksum <"$1" | cut -d' ' -f1,2; }
recorded() { [ ! -f "$1/$MANIFEST" ] || awk -v f="$2" '!/^#/ && $3 == f { print $1, $2; exit }' "$1/$MANIFEST"; }
# files generated before the manifest carried a checksum of the rest of the file in line 1
legacy_untouched() {
    local want
    want=$(sed -n '1s/.* (sum \([0-9]*\)).*/\1/p' "$1")
    [ -n "$want" ] && [ "$(tail -n +2 "$1" | cksum | cut -d' ' -f1)" = "$want" ]
}
# gen_of STEP: the folder holding what the generator makes now for STEP ("" without solutions/)
gen_of() {
    local step=$1
    [ -d "solutions/$step" ] || return 0
    if [ ! -d "$tmp/gen/$step" ]; then generate "solutions/$step" "$tmp/gen/$step" exercise >/dev/null || return 1; fi
    echo "$tmp/gen/$step"
}
# names_of STEP [all]: the files an exercise step consists of: its manifest's (with `all`, also the
# generator's now), the generator's without a manifest, or (with neither, an old tree) the code files
# and HINTS it has
names_of() {
    local step=$1 gen=
    {   [ -f "$step/$MANIFEST" ] && awk '!/^#/ && NF >= 3 { print $3 }' "$step/$MANIFEST"
        if [ ! -f "$step/$MANIFEST" ] || [ "${2:-}" = all ]; then gen=$(gen_of "$step"); fi
        [ -n "$gen" ] && (cd "$gen" && ls)
        if [ ! -f "$step/$MANIFEST" ] && [ -z "$gen" ]; then
            (cd "$step" 2>/dev/null && ls *.cu *.cuh *.h *.c HINTS 2>/dev/null || true)
        fi
    } | sort -u
}
# file_state STEP NAME: untouched, edited or missing: the one test every tool uses
file_state() {
    local step=$1 f=$1/$2 want gen
    [ -f "$f" ] || { echo missing; return; }
    want=$(recorded "$step" "$2")
    if [ -n "$want" ] && [ "$(sum_of "$f")" = "$want" ]; then echo untouched; return; fi
    gen=$(gen_of "$step")
    if [ -n "$gen" ] && [ -f "$gen/$2" ] && cmp -s "$f" "$gen/$2"; then echo untouched; return; fi
    if [ -z "$want" ] && legacy_untouched "$f"; then echo untouched; return; fi
    echo edited
}
# step_state STEP: STEP TAB state TAB missing TAB edited
step_state() {
    local step=$1 n s missing=() edited=() state=untouched
    while IFS= read -r n; do
        [ -n "$n" ] || continue
        s=$(file_state "$step" "$n")
        case $s in missing) missing+=("$n") ;; edited) edited+=("$n") ;; esac
    done < <(names_of "$step")
    [ ${#edited[@]} -gt 0 ] && state=edited
    [ ${#missing[@]} -gt 0 ] && state=missing
    printf '%s\t%s\t%s\t%s\n' "$step" "$state" "${missing[*]:-}" "${edited[*]:-}"
}
# the files of a step folder that are missing: the exercise's (above) and, in a git checkout, git's
missing_of() {
    local step=$1 f
    { step_state "$step" | cut -f3 | tr ' ' '\n'
      git ls-files -- "$step" 2>/dev/null | while IFS= read -r f; do [ -e "$f" ] || echo "${f#"$step"/}"; done
    } | grep -v '^$' | sort -u || true
}
advise() { # STEP FILE...: how to get each missing file back
    local step=$1 f short in_git=0 k
    shift
    k=$(sed 's/.*\/step\([0-9]*\).*/\1/' <<<"$step"); short=${step#solutions/}; short=${short%%/*}/step$k
    echo "$step is missing $(printf '%s ' "$@" | sed 's/ $//; s/ /, /g'):"
    for f in "$@"; do
        if git ls-files --error-unmatch -- "$step/$f" >/dev/null 2>&1; then
            echo "  git checkout -- $step/$f      restores it as last committed"; in_git=1
        fi
    done
    if [[ $step != solutions/* ]] && [ -d "solutions/$step" ]; then
        echo "  make exercises STEP=$short      writes the missing files again (your edited files are kept)"
    elif [ "$in_git" = 0 ] && [[ $step != solutions/* ]]; then
        echo "  copy it from the lab as you received it (your instructor's handout), into $step/"
    fi
}

for arg in "$@"; do
    step=${arg#./}; step=${step%/}; step=${step#solutions/}
    case $mode in
    clean)
        rm -rf "build/clean/$step"; generate "solutions/$step" "build/clean/$step" clean ;;
    state) step_state "$step" ;;
    edited)
        s=$(step_state "$step" | cut -f2); echo "$step $([ "$s" = untouched ] && echo untouched || echo edited)" ;;
    present)
        [[ $arg == solutions/* ]] && step=solutions/$step
        mapfile -t miss < <(missing_of "$step")
        if [ ${#miss[@]} -gt 0 ]; then advise "$step" "${miss[@]}"; status=2; fi ;;
    check)
        generate "solutions/$step" "$tmp/$step" exercise
        if ! diff -r -x run -x '*.bak-*' "$tmp/$step" "$step" >"$tmp/diff" 2>&1; then
            echo "!! $step differs from what \`make exercises\` generates from solutions/$step:"; head -n 20 "$tmp/diff"; status=1
        fi ;;
    write)
        gen=$(gen_of "$step")
        [ -n "$gen" ] || { echo "!! solutions/$step: no such solution step"; status=1; continue; }
        mkdir -p "$step"
        edited=() missing=() stale=()
        while IFS= read -r n; do
            [ -n "$n" ] || continue
            case $(file_state "$step" "$n") in
            missing) [ -f "$gen/$n" ] && missing+=("$n") ;;
            edited) edited+=("$n") ;;
            untouched) [ -f "$gen/$n" ] || stale+=("$n") ;;
            esac
        done < <(names_of "$step" all)
        if [ ${#edited[@]} -gt 0 ] && [ "${FORCE:-0}" != 1 ]; then
            # never overwrite the student's work; a file that is not there overwrites nothing
            for n in "${missing[@]}"; do cp "$gen/$n" "$step/$n"; echo "wrote the missing $step/$n"; done
            echo "kept $step: you edited $(printf "$step/%s\n" "${edited[@]}" | paste -sd' ' | sed 's/ /, /g'); FORCE=1 overwrites it (after a backup copy beside it)"
            continue
        fi
        for n in "${edited[@]}"; do
            cp -p "$step/$n" "$step/$n.bak-$(date +%Y%m%d-%H%M%S)"; echo "backed up $step/$n"
        done
        # a generated file the solution no longer makes, untouched, goes (never the student's own files)
        for n in "${stale[@]}"; do rm -f "$step/$n"; done
        # only what changed is written (an unchanged file keeps its time: nothing rebuilds)
        nw=0
        for f in "$gen"/* "$gen/$MANIFEST"; do
            cmp -s "$f" "$step/${f##*/}" || { cp "$f" "$step/"; nw=$((nw + 1)); }
        done
        if [ "$nw" = 0 ]; then echo "up to date $step"; else echo "wrote $step ($nw files)"; fi ;;
    *) echo "exercises.sh: unknown mode $mode" >&2; exit 2 ;;
    esac
done
[ "$mode" = check ] && [ "$status" = 0 ] && echo "exercises: all $# match solutions/ (make exercises)"
exit $status
