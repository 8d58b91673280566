# tokens.awk - the one rule by which bench rows are matched, shared by join.awk, report.awk and
# plotdata.awk (each run as awk -f tests/bench/tokens.awk -f THE-SCRIPT.awk).
# has_all(tokens, params): 1 when every space-separated token of `tokens` is one of `params`
# ("type=uint keys" is in "dist=uniform type=uint keys"), else 0. An empty `tokens` is in all.
function has_all(tokens, params,    t, i, k) {
    k = split(tokens, t, " ")
    for (i = 1; i <= k; i++)
        if (index(" " params " ", " " t[i] " ") == 0)
            return 0
    return 1
}
