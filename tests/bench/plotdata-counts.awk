# plotdata-counts.awk - the data of the counts chart: chapter 10's counts (./run --analyze, the
# analysis CSV: step,n,metric,measured,book,printed; plotdata.awk reads its rows) beside the
# book's printed counts and its formula, a panel per count and N.
# Functions only, run after plotdata.awk (its header names the files and their order).

# ---- counts: chapter 10's counts beside the book's -----------------------------------
function chart_counts(    m, k, f, mis, t, top, p, ns, nn, i, j, x, xt, g, seen) {
    # a panel per count and N (N = 256 bars beside N = 2048 ones would be too small to read)
    for (m = 1; m <= nmetrics; m++) {
        nn = 0
        for (k = 1; k <= nc[m]; k++)
            if (!((m, cn[m, k]) in seen)) {
                seen[m, cn[m, k]] = 1
                ns[++nn] = cn[m, k] + 0
            }
        for (i = 2; i <= nn; i++)
            for (j = i; j > 1 && ns[j] < ns[j - 1]; j--) {
                x = ns[j]; ns[j] = ns[j - 1]; ns[j - 1] = x
            }
        for (i = 1; i <= nn; i++) {
            f = sprintf("%s/c%02d.dat", dir, ++p)
            printf "" > f
            top = g = 0
            xt = ""
            for (k = 1; k <= nc[m]; k++) {
                if (cn[m, k] + 0 != ns[i])
                    continue
                mis = differs(cmeas[m, k], cprint[m, k]) || differs(cmeas[m, k], cbook[m, k])
                top = max3(top, cprint[m, k] + 0, cbook[m, k] + 0)
                top = max3(top, cmeas[m, k] + 0, 0)
                t = ""
                if (mis)
                    t = (cprint[m, k] != "" ? "book " cprint[m, k] : "formula " cbook[m, k]) "\\nGPU " cmeas[m, k]
                printf "%d %s %s %s %s %s\n", g, cprint[m, k] == "" ? "?" : cprint[m, k],
                       cbook[m, k] == "" ? "?" : cbook[m, k], cmeas[m, k], mis ? rgbint("#d62728") : rgbint("#0072b2"), dq(t) > f
                xt = xt (g ? ", " : "") "\"" wrap(step_name(cstep[m, k]), 8) "\" " g
                g++
            }
            close(f)
            printf "file%d = %s\ntitle%d = %s\nylabel%d = %s\ntop%d = %s\ngroups%d = %d\nxtics%d = %s\n",
                   p, q(f), p, gq(wrap(plain(mname[m]), 30) "\\nN = " ns[i]), p, q(count_unit(mname[m])), p, top, p, g, p, q(xt)
        }
    }
    printf "npanels = %d\n", p
}
# differs(measured, book): the book's number, at its own precision, is not the measurement
function differs(meas, book,    d, p) {
    if (book == "")
        return 0
    p = index(book, ".") ? length(book) - index(book, ".") : 0
    d = sprintf("%." p "f", meas + 0) + 0 - (book + 0)
    return d > 1e-9 || d < -1e-9
}
function max3(a, b, c) { return a > b ? (a > c ? a : c) : (b > c ? b : c) }
function plain(s) { # "warps active; summed over time steps" -> "Warps active, summed over time steps"
    gsub(/; /, ", ", s)
    return toupper(substr(s, 1, 1)) substr(s, 2)
}
function count_unit(s) { # the y label of a count: what it counts
    if (s ~ /efficiency/) return "fraction (1: every lane busy)"
    if (s ~ /x 32 lanes|resources|lanes/) return "lanes (warp steps x 32)"
    if (s ~ /warps/) return "warp time steps"
    if (s ~ /requests|loads|stores/) return "requests"
    if (s ~ /results|additions|operations/) return "results"
    return "count"
}
