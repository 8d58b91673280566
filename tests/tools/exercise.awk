# exercise.awk - the views of a step made from its solution files (solutions/ is the master).
#   awk -v step=ch12-merge/step3-tiled -v outdir=DIR [-v view=exercise|clean] -f exercise.awk FILES...
# In a solution, a region the student writes reads:
#       /* exercise: what to compute, and the figure (the TODO's first hint) */
#       /* hint: a more specific hint */            (zero or more, graded: `make hint N=2`, ...)
#       ...solution lines...
#       /* exercise stub: return 0; */              (optional one line; or a multi-line form:
#       /* exercise stub:                             lines kept in the exercise,
#       return 0;                                     closed by a line holding only */)
#       */
#       /* end exercise */
# view=exercise (default): each region becomes "/* TODO(k): first hint */" and its stub lines; the
#   graded hints go to DIR/HINTS, one block per TODO, naming the function the TODO sits in.
# view=clean: the solution as a student reads it: every marker, hint and stub line removed.
# Files are written to DIR under their own names, without a header (tests/tools/exercises.sh adds it).
function fail(msg) { printf "exercise.awk: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; bad = 1; exit 1 }
function emit(s) { out[nf, ++nlines[nf]] = s }
FNR == 1 {
    if (state != 0) fail("unclosed exercise region in previous file")
    nf++; fname[nf] = FILENAME; sub(/.*\//, "", fname[nf]); nlines[nf] = 0; func_name = ""
}
{
    line = $0
    # the function a region sits in: the last definition that starts at column 0
    if (state == 0 && line ~ /^[A-Za-z_][A-Za-z0-9_ *]*[A-Za-z0-9_]\(/ && line !~ /^(typedef|struct|return|if|for|while|else)/) {
        f = line; sub(/\(.*/, "", f); sub(/.*[ *]/, "", f); func_name = f
    }
    if (state == 0 && line ~ /\/\* exercise: .*\*\/[ \t]*$/) {
        hint = line; sub(/^.*\/\* exercise: /, "", hint); sub(/ *\*\/[ \t]*$/, "", hint)
        indent = line; sub(/[^ \t].*$/, "", indent)
        ntodo++; nhints[ntodo] = 1; hints[ntodo, 1] = hint
        where[ntodo] = fname[nf] (func_name != "" ? ", in " func_name "()" : "")
        if (view != "clean") emit(indent "/* TODO(" ntodo "): " hint " */")
        state = 1; next
    }
    if (state == 0 && line ~ /\/\* (end exercise|exercise stub|hint:)/) fail("exercise marker outside a region")
    if (state == 1) {
        if (line ~ /\/\* end exercise \*\//) { state = 0; next }
        if (line ~ /^[ \t]*\/\* hint: .*\*\/[ \t]*$/) {
            h = line; sub(/^[ \t]*\/\* hint: /, "", h); sub(/ *\*\/[ \t]*$/, "", h)
            hints[ntodo, ++nhints[ntodo]] = h; next
        }
        if (line ~ /\/\* exercise stub: .*\*\/[ \t]*$/) {
            stub = line; sub(/\/\* exercise stub: /, "", stub); sub(/ *\*\/[ \t]*$/, "", stub)
            if (view != "clean") emit(stub)
            next
        }
        if (line ~ /\/\* exercise stub:[ \t]*$/) { state = 2; next }
        if (line ~ /\/\* exercise: /) fail("nested exercise region")
        if (view == "clean") emit(line)
        next
    }
    if (state == 2) {
        if (line ~ /^[ \t]*\*\/[ \t]*$/) { state = 1; next }
        if (view != "clean") emit(line)
        next
    }
    emit(line)
}
END {
    if (bad) exit 1
    if (state != 0) fail("unclosed exercise region")
    for (f = 1; f <= nf; f++) {
        path = outdir "/" fname[f]
        printf "" > path
        for (i = 1; i <= nlines[f]; i++) print out[f, i] > path
        close(path)
    }
    if (view != "clean" && ntodo > 0) {
        path = outdir "/HINTS"
        printf "Hints for %s, one block per TODO, from a nudge to nearly the answer.\n", step > path
        printf "`make hint STEP=%s` shows the first of each; N=2, N=3 go further; `make diff` shows the solution.\n", step > path
        for (t = 1; t <= ntodo; t++) {
            printf "\nTODO(%d) (%s)\n", t, where[t] > path
            for (h = 1; h <= nhints[t]; h++) printf "  %d. %s\n", h, hints[t, h] > path
        }
        close(path)
    }
}
