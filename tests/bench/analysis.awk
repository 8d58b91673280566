# analysis.awk - ./run --analyze (chapter 10, steps 1-3) -> rows of ch10-analysis.csv:
#   step,n,metric,measured,book,printed
# book: the book's formula at this N; printed: the number the book prints for it (empty when
# it prints none). A driver that prints such rows itself (--analyze --csv) is taken as it is;
# otherwise the rows come from reduce_driver.c's table, whose metric lines are
#   "    %-46s %8s   %-44s %-8s %s": what, measured, formula, "= value", printed.
# -v step: the step's folder (used when the rows come from the table).
BEGIN { OFS = "," }
/^[^,# ][^,]*,[0-9]+,[^,]+,-?[0-9.]+(e[-+]?[0-9]+)?,[^,]*(,[^,]*)?$/ { print; next }
/^(PASS|FAIL) / && match($0, /N = [0-9]+/) { n = substr($0, RSTART + 4, RLENGTH - 4) + 0; next }
n && /^    / {
    what = substr($0, 5, 46)
    gsub(/^ +| +$/, "", what)
    if (what !~ /[a-z]/)
        next
    rest = substr($0, 52)
    split(rest, tok, " ")
    measured = tok[1]
    if (measured !~ /^-?[0-9]+(\.[0-9]+)?$/)
        next
    book = ""
    if (match(rest, /= -?[0-9]+(\.[0-9]+)?/))
        book = substr(rest, RSTART + 2, RLENGTH - 2)
    printed = substr($0, 117)
    gsub(/^ +| +$/, "", printed)
    if (printed ~ /^[0-9]+(\.[0-9]+)?%$/)
        printed = sprintf("%g", substr(printed, 1, length(printed) - 1) / 100)
    else if (printed !~ /^[0-9]+(\.[0-9]+)?$/)
        printed = ""
    if (book == "" && printed == "")
        next
    gsub(/,/, ";", what)
    print step, n, what, measured, book, printed
}
