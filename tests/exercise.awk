# exercise.awk - makes a step's exercise files from its solution files.
#   awk -v step=ch12-merge/step3-tiled -v outdir=DIR -v main=merge.cu -f tests/exercise.awk FILES...
# In a solution, a region the student writes reads:
#       /* exercise: Fig 12.13: what to compute (the hint) */
#       ...solution lines...
#       /* exercise stub: return 0; */        (optional; or a multi-line form:
#       /* exercise stub:                      lines kept in the exercise,
#       return 0;                              closed by a line holding only */)
#       */
#       /* end exercise */
# The exercise keeps "/* TODO(k): hint */" and the stub lines in its place. The
# main (.cu) file ends with lab_step_todos, naming each TODO by file and line,
# which ./run and the tests print when the exercise fails.
function fail(msg) { printf "exercise.awk: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; bad = 1; exit 1 }
function cstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return s }
FNR == 1 {
    if (state != 0) fail("unclosed exercise region in previous file")
    nf++; fname[nf] = FILENAME; sub(/.*\//, "", fname[nf]); nlines[nf] = 0
}
{
    line = $0
    if (state == 0 && line ~ /\/\* exercise: .*\*\/[ \t]*$/) {
        hint = line; sub(/^.*\/\* exercise: /, "", hint); sub(/ *\*\/[ \t]*$/, "", hint)
        indent = line; sub(/[^ \t].*$/, "", indent)
        ntodo++
        out[nf, ++nlines[nf]] = indent "/* TODO(" ntodo "): " hint " */"
        todo[ntodo] = step "/" fname[nf] ":" (nlines[nf] + 1) ": TODO(" ntodo ") " hint
        state = 1; next
    }
    if (state == 0 && line ~ /\/\* (end exercise|exercise stub)/) fail("exercise marker outside a region")
    if (state == 1) {
        if (line ~ /\/\* end exercise \*\//) { state = 0; next }
        if (line ~ /\/\* exercise stub: .*\*\/[ \t]*$/) {
            stub = line; sub(/\/\* exercise stub: /, "", stub); sub(/ *\*\/[ \t]*$/, "", stub)
            out[nf, ++nlines[nf]] = stub; next
        }
        if (line ~ /\/\* exercise stub:[ \t]*$/) { state = 2; next }
        if (line ~ /\/\* exercise: /) fail("nested exercise region")
        next
    }
    if (state == 2) {
        if (line ~ /^[ \t]*\*\/[ \t]*$/) { state = 1; next }
        out[nf, ++nlines[nf]] = line; next
    }
    out[nf, ++nlines[nf]] = line
}
END {
    if (bad) exit 1
    if (state != 0) fail("unclosed exercise region")
    for (f = 1; f <= nf; f++) {
        path = outdir "/" fname[f]
        printf "/* Exercise made from solutions/%s/%s by `make exercises`: fill in each TODO. `make diff STEP=%s` compares. */\n", step, fname[f], step > path
        for (i = 1; i <= nlines[f]; i++) print out[f, i] > path
        if (fname[f] == main && ntodo > 0) {
            print "" > path
            print "/* Added by `make exercises`: ./run and the tests print this while the TODOs are undone. */" > path
            printf "extern \"C\" const char *const lab_step_todos =\n    \"\\n  Exercise: TODOs left in %s (`make diff STEP=%s` shows the solution):\\n\"\n", step, step > path
            for (t = 1; t <= ntodo; t++) printf "    \"    %s\\n\"%s\n", cstr(todo[t]), (t == ntodo ? ";" : "") > path
        }
        close(path)
    }
}
