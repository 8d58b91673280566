# tokens.awk - the one rule by which bench rows are matched, shared by join.awk, report.awk and
# plotdata.awk (each run as awk -f tests/bench/tokens.awk -f THE-SCRIPT.awk; plotdata.awk with
# its chart files after it, plots.sh).
# has_all(tokens, params): 1 when every space-separated token of `tokens` is one of `params`
# ("type=uint keys" is in "dist=uniform type=uint keys"), else 0. An empty `tokens` is in all.
function has_all(tokens, params,    t, i, k) {
    k = split(tokens, t, " ")
    for (i = 1; i <= k; i++)
        if (index(" " params " ", " " t[i] " ") == 0)
            return 0
    return 1
}
# cub_work(params): a CUB row's params less the tokens that are CUB's own knobs, not the work:
# offsets=64 (its item count as an int64_t, cub_sort --offsets) sorts the same input as the int.
# A step is compared with the fastest CUB row whose cub_work it holds (join.awk), and a chart
# draws that row alone of a CUB's rows at one size (plotdata.awk).
function cub_work(params,    t, i, k, out) {
    k = split(params, t, " ")
    out = ""
    for (i = 1; i <= k; i++)
        if (t[i] !~ /^offsets=/)
            out = out (out == "" ? "" : " ") t[i]
    return out
}
