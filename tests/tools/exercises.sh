#!/usr/bin/env bash
# exercises.sh MODE SOLUTION_STEP...  - the views of solutions/ (the master) a student sees.
#   write   regenerates each exercise step (ch*/stepN-name/) from solutions/. A file the student
#           edited is never overwritten: the step is skipped with a note, unless FORCE=1, which
#           first copies the edited file to FILE.bak-<date> beside it.
#   check   fails when a committed exercise differs from what `write` makes (maintainers, CI).
#   clean   writes the clean solution view (markers, hints and stubs removed) of each step to
#           build/clean/<step>/, for `make diff` and `make solution`.
#   edited  prints "edited" or "untouched" for each exercise step (make status, make test).
# Each generated kernel file starts with a header line that carries the checksum of the rest of
# the file: a file whose rest still matches it is untouched by the student.
set -euo pipefail
mode=$1; shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0

body_sum() { tail -n +2 "$1" | cksum | cut -d' ' -f1; }

# A file is the student's work when it differs from its own recorded checksum (kernel files), or
# from what git has (other files, when this is a git checkout).
untouched() {
    local f=$1 want
    [ -f "$f" ] || return 0
    want=$(sed -n '1s/.* (sum \([0-9]*\)).*/\1/p' "$f")
    if [ -n "$want" ]; then [ "$(body_sum "$f")" = "$want" ]; return; fi
    git ls-files --error-unmatch "$f" >/dev/null 2>&1 && git diff --quiet -- "$f" 2>/dev/null
}

# generate SOLUTION_STEP OUTDIR VIEW: the step's files in that view
generate() {
    local sol=$1 out=$2 view=$3 step=${1#solutions/} files f s
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    # headers first, then the kernel file, so TODO numbers follow the reading order
    files=$(cd "$sol" && { ls *.h *.cuh 2>/dev/null || true; ls *.cu *.c 2>/dev/null || true; })
    (cd "$sol" && awk -v step="$step" -v outdir="$out" -v view="$view" -f "$here/exercise.awk" $files)
    [ "$view" = exercise ] || return 0
    for f in $files; do
        s=$(cksum <"$out/$f" | cut -d' ' -f1)
        { printf '/* Exercise made from solutions/%s/%s by `make exercises` (sum %s): fill in each TODO; `make hint` and `make diff STEP=%s` help. */\n' \
              "$step" "$f" "$s" "$step"; cat "$out/$f"; } >"$out/$f.h1"
        mv "$out/$f.h1" "$out/$f"
    done
    if [ -f "$out/HINTS" ]; then # the hints carry their checksum too, in their first line
        s=$(tail -n +2 "$out/HINTS" | cksum | cut -d' ' -f1)
        sed -i "1s/\$/ (sum $s)/" "$out/HINTS"
    fi
    for f in README.md Makefile; do [ -f "$sol/$f" ] && cp "$sol/$f" "$out/$f"; done
    return 0
}

for sol in "$@"; do
    step=${sol#solutions/}
    case $mode in
    clean)
        rm -rf "build/clean/$step"; generate "$sol" "build/clean/$step" clean ;;
    edited) # the student's work is in the generated files that carry a checksum
        state=untouched
        for f in "$step"/*; do
            [ -f "$f" ] && [ -n "$(sed -n '1s/.*(sum [0-9]*).*/x/p' "$f")" ] && ! untouched "$f" && state=edited
        done
        echo "$step $state" ;;
    check)
        generate "$sol" "$tmp/$step" exercise
        if ! diff -r -x run -x '*.bak-*' "$tmp/$step" "$step" >"$tmp/diff" 2>&1; then
            echo "!! $step differs from what \`make exercises\` generates from $sol:"; head -n 20 "$tmp/diff"; status=1
        fi ;;
    write)
        generate "$sol" "$tmp/$step" exercise
        mkdir -p "$step"
        edited=()
        for f in "$step"/*; do
            [ -f "$f" ] && [ "$(basename "$f")" != run ] && [[ $f != *.bak-* ]] || continue
            cmp -s "$f" "$tmp/$step/$(basename "$f")" 2>/dev/null && continue
            untouched "$f" || edited+=("$f")
        done
        if [ ${#edited[@]} -gt 0 ] && [ "${FORCE:-0}" != 1 ]; then
            echo "kept $step: you edited ${edited[*]}; FORCE=1 overwrites it (after a backup copy beside it)"
            continue
        fi
        for f in "${edited[@]}"; do
            cp -p "$f" "$f.bak-$(date +%Y%m%d-%H%M%S)"; echo "backed up $f"
        done
        # remove generated files the solution no longer has (never the student's own extras)
        for f in "$step"/*; do
            [ -f "$f" ] && [ ! -e "$tmp/$step/$(basename "$f")" ] && untouched "$f" &&
                [ -n "$(sed -n '1s/.*(sum [0-9]*).*/x/p' "$f")" ] && rm -f "$f"
        done
        cp "$tmp/$step"/* "$step"/
        echo "wrote $step" ;;
    *) echo "exercises.sh: unknown mode $mode" >&2; exit 2 ;;
    esac
done
[ "$mode" = check ] && [ "$status" = 0 ] && echo "exercises: all $# match solutions/ (make exercises)"
exit $status
