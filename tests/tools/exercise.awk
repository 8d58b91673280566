# exercise.awk - the views of a step made from its solution files (solutions/ is the master).
#   awk -v step=ch12-merge/step3-tiled -v outdir=DIR [-v view=exercise|clean] -f exercise.awk FILES...
# In a solution, a region the student writes reads:
#       /* exercise: what to compute, and the figure (the TODO's text) */
#       /* hint: a first hint, something the TODO does not say */   (zero or more, graded:
#       /* hint: a nearer one */                                        `make hint N=2`, ...)
#       ...solution lines...
#       /* exercise stub: return 0; */              (optional one line; or a multi-line form:
#       /* exercise stub:                             lines kept in the exercise,
#       return 0;                                     closed by a line holding only */)
#       */
#       /* end exercise */
# An `exercise:` or `hint:` marker may run over several lines (as a formatter wraps it): it starts
# a line, and its text ends at the first */; continuation lines may start with "*".
# view=exercise (default): each region becomes a "/* TODO(k): text */" comment wrapped to 100
#   columns (continuation lines indented under the text) and its stub lines; the TODO's text and
#   its graded hints go to DIR/HINTS, one block per TODO, naming the function the TODO sits in.
# view=clean: the solution as a student reads it: every marker, hint and stub line removed.
# Files are written to DIR under their own names, without a header (tests/tools/exercises.sh adds it).
function fail(msg) { printf "exercise.awk: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; bad = 1; exit 1 }
function emit(s) { out[nf, ++nlines[nf]] = s }
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
# text, wrapped to `width` columns: the first line after `first`, the others after `cont`
function wrap(first, cont, text, width,   n, i, w, line, res) {
    n = split(text, w, /[ \t]+/); line = first; res = ""
    for (i = 1; i <= n; i++) {
        if (w[i] == "") continue
        if (line != first && line != cont && length(line) + 1 + length(w[i]) > width) { res = res line "\n"; line = cont }
        line = line ((line == first || line == cont) ? "" : " ") w[i]
    }
    return res line
}
# a marker's text: `what` is "exercise:" or "hint:"; ml = 1 when it goes on past this line
function marker_start(line, what,   t) {
    t = line; sub("^[ \t]*/\\* " what "[ \t]*", "", t)
    if (t ~ /\*\/[ \t]*$/) { sub(/[ \t]*\*\/[ \t]*$/, "", t); ml = 0 } else ml = 1
    return trim(t)
}
# one more line of a multi-line marker; ml = 0 once its */ is read
function marker_more(line,   t) {
    t = line; sub(/^[ \t]*\*?[ \t]*/, "", t)
    if (t ~ /\*\/[ \t]*$/) { sub(/[ \t]*\*\/[ \t]*$/, "", t); ml = 0 }
    return trim(t)
}
function add_todo(text) {
    ntodo++; nhints[ntodo] = 0; todo[ntodo] = text
    where[ntodo] = fname[nf] (func_name != "" ? ", in " func_name "()" : "")
}
function end_todo_text() {   # the TODO comment, once its whole text is known
    # "*/" stays on the text's last line (\001 is a space that does not break)
    if (view != "clean") { s = wrap(indent "/* TODO(" ntodo "): ", indent "   ", todo[ntodo] "\001*/", 100); gsub(/\001/, " ", s); emit(s) }
}
FNR == 1 {
    if (state != 0) fail("unclosed exercise region in previous file")
    nf++; fname[nf] = FILENAME; sub(/.*\//, "", fname[nf]); nlines[nf] = 0; func_name = ""
}
{
    line = $0
    # the rest of a multi-line exercise: or hint: marker
    if (inmark != "") {
        t = marker_more(line)
        if (inmark == "exercise") { todo[ntodo] = trim(todo[ntodo] " " t); if (!ml) end_todo_text() }
        else hints[ntodo, nhints[ntodo]] = trim(hints[ntodo, nhints[ntodo]] " " t)
        if (!ml) inmark = ""
        next
    }
    # the function a region sits in: the last definition that starts at column 0
    if (state == 0 && line ~ /^[A-Za-z_][A-Za-z0-9_ *]*[A-Za-z0-9_]\(/ && line !~ /^(typedef|struct|return|if|for|while|else)/) {
        f = line; sub(/\(.*/, "", f); sub(/.*[ *]/, "", f); func_name = f
    }
    if (state == 0 && (line ~ /\/\* exercise: .*\*\/[ \t]*$/ || line ~ /^[ \t]*\/\* exercise: /)) {
        indent = line; sub(/[^ \t].*$/, "", indent)
        if (line ~ /^[ \t]*\/\* exercise: /) text = marker_start(line, "exercise:")
        else { text = line; sub(/^.*\/\* exercise: /, "", text); sub(/ *\*\/[ \t]*$/, "", text); ml = 0 }
        add_todo(text)
        state = 1
        if (ml) inmark = "exercise"; else end_todo_text()
        next
    }
    if (state == 0 && line ~ /\/\* (end exercise|exercise stub|hint:)/) fail("exercise marker outside a region")
    if (state == 1) {
        if (line ~ /\/\* end exercise \*\//) { state = 0; next }
        if (line ~ /^[ \t]*\/\* hint: /) {
            hints[ntodo, ++nhints[ntodo]] = marker_start(line, "hint:")
            if (ml) inmark = "hint"
            next
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
    if (inmark != "") fail("a " inmark ": marker without its closing */")
    if (state != 0) fail("unclosed exercise region")
    for (f = 1; f <= nf; f++) {
        path = outdir "/" fname[f]
        printf "" > path
        for (i = 1; i <= nlines[f]; i++) print out[f, i] > path
        close(path)
    }
    # HINTS: per TODO its heading, its text (4 spaces in), then its graded hints ("  1. ", wrapped
    # 5 spaces in). tests/tools/hint.sh reads this layout.
    if (view != "clean" && ntodo > 0) {
        path = outdir "/HINTS"
        n = split(step, part, "/"); s2 = part[n]; sub(/-.*/, "", s2); short = part[n - 1] "/" s2
        printf "Hints for %s: each TODO's text, then its hints, a nudge first.\n", step > path
        printf "`make hint STEP=%s` shows the first hint of each TODO; N=2, N=3, ... the next.\n", short > path
        for (t = 1; t <= ntodo; t++) {
            printf "\nTODO(%d) (%s)\n", t, where[t] > path
            print wrap("    ", "    ", todo[t], 100) > path
            for (h = 1; h <= nhints[t]; h++) print wrap("  " h ". ", "     ", hints[t, h], 100) > path
        }
        close(path)
    }
}
