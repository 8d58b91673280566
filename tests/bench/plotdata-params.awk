# plotdata-params.awk - the data of the params chart (plotdata.awk reads the rows): a panel per
# swept option and size, a line per step and CUB's at that size flat across it.
# Functions only, run after plotdata.awk (its header names the files and their order).

# ---- params: a panel per swept option and size -------------------------------------
function chart_params(    r, p, k, x, opt, key, i, j, keys, nk, lk, nl, cname, best, cubmax, f, files, least, logy, top, t, longest,
                    pw, np, pkeys, prow, pcub, ncp, cp, vals, nv, allp2, xs, lo, hi) {
    for (r = 1; r <= nr; r++) {
        if (SW[r] !~ /^param:/ || SW[r] == "param:gpus" || !single(r))
            continue
        opt = substr(SW[r], 7)
        key = opt SUBSEP N[r]
        if (!(key in pno)) {
            pno[key] = ++np
            popt[np] = opt; pn[np] = N[r]
        }
        p = pno[key]
        k = series(r)
        x = tok(P[r], opt)
        if (x == "")
            continue
        if (!((p, k) in prow)) {
            pkeys[p, ++nk[p]] = k
            if (!(k in lk)) {
                lk[k] = 1
                keys[++nl] = k
            }
        }
        prow[p, k] = prow[p, k] x " " V[r] "\n"
        if (V[r] > best)
            best = V[r]
        if (V[r] > 0 && (least == "" || V[r] < least))
            least = V[r]
        if (!((p, x) in xs)) {
            xs[p, x] = 1
            vals[p, ++nv[p]] = x + 0
        }
        cname = cub_of(r)
        if (cname != "" && !((p, cname) in pcub)) {
            pcub[p, cname] = 1
            cp[p, ++ncp[p]] = cname
        }
    }
    # a panel's CUB: the rows its steps were compared with (any CUB of the focus at its size
    # when none says)
    for (p = 1; p <= np; p++) {
        if (ncp[p] == 0)
            for (r = 1; r <= nr; r++)
                if (kind(S[r]) == "cub" && SW[r] == "size" && N[r] == pn[p] && in_focus(r) && !((p, S[r]) in pcub)) {
                    pcub[p, S[r]] = 1
                    cp[p, ++ncp[p]] = S[r]
                }
        for (j = 1; j <= ncp[p]; j++)
            for (r = 1; r <= nr; r++)
                if (S[r] == cp[p, j] && SW[r] == "size" && N[r] == pn[p] && in_focus(r)) {
                    cubv[p, j] = V[r]
                    if (V[r] > cubmax)
                        cubmax = V[r]
                    if (!(S[r] in lk)) {
                        lk[S[r]] = 1
                        keys[++nl] = series(r)
                    }
                    break
                }
    }
    sort_keys(keys, nl)
    logy = cubmax > 2.5 * best
    top = cubmax > best ? cubmax : best
    printf "npanels = %d\nlogy = %d\n", np, logy
    if (logy) # a log axis from below the slowest step to above CUB, tics at 1, 2, 5 x 10^k
        printf "ymin = %s\nymax = %s\nyticlist = %s\n", least / 1.5, top * 1.5, q(logtics(least / 1.5, top * 1.5))
    else
        printf "ymin = 0\nymax = %s\n", top * 1.12
    for (i = 1; i <= nl; i++) { # the shared legend
        t = kind(sstep[keys[i]]) == "cub" ? "CUB " substr(sstep[keys[i]], 6) " at that n" : legend_of(keys[i])
        if (length(t) > longest)
            longest = length(t)
        printf "%s; key%d_title = %s\n", linestyle(keys[i], "key" i, 1), i, q(t)
    }
    printf "nkeys = %d\nkeycols = %d\n", nl, key_columns(longest)
    for (p = 1; p <= np; p++) {
        files = ""
        for (j = 1; j <= nk[p]; j++) {
            k = pkeys[p, j]
            f = sprintf("%s/p%d_%02d.dat", dir, p, j)
            printf "x y\n%s", sorted_rows(prow[p, k]) > f
            close(f)
            files = files " " f
            printf "%s\n", linestyle(k, sprintf("p%d_%d", p, j))
        }
        lo = hi = vals[p, 1]; allp2 = 1
        for (j = 1; j <= nv[p]; j++) {
            x = vals[p, j]
            if (x < lo) lo = x
            if (x > hi) hi = x
            if (x < 1 || 2 ^ int(log(x) / log(2) + 0.5) != x)
                allp2 = 0
        }
        printf "files%d = %s\n", p, q(substr(files, 2))
        files = ""
        for (j = 1; j <= ncp[p]; j++) {
            f = sprintf("%s/p%d_cub%d.dat", dir, p, j)
            printf "x y\n%s %s\n%s %s\n", (lo > 0 ? lo / 64 : lo - (hi - lo)), cubv[p, j], hi * 64, cubv[p, j] > f # clipped at the axes
            close(f)
            files = files " " f
            printf "%s\n", linestyle(series_of_step(cp[p, j]), sprintf("p%d_cub%d", p, j), 1)
        }
        printf "cubs%d = %s\n", p, q(substr(files, 2))
        for (j = 1; j <= ncp[p]; j++)
            printf "p%d_cub%d_label = %s; p%d_cub%d_y = %s\n", p, j, q("CUB " cub_short(cp[p, j])), p, j, cubv[p, j]
        printf "title%d = %s\n", p, q("--" popt[p] ((popt[p] in optnote) ? ": " optnote[popt[p]] : "") ", n = " pow2(pn[p]))
        printf "pow2x%d = %d\n", p, allp2
        printf "xlabel%d = %s\nlogx%d = %d\nxmin%d = %s\nxmax%d = %s\n", p, q("--" popt[p]), p, (lo > 0 && hi >= 8 * lo && (allp2 || hi >= 32 * lo)), p, lo, p, hi
    }
}
function sorted_rows(text,    a, n, i, j, t) { # "x y" lines in the order of x
    n = split(text, a, "\n")
    if (a[n] == "")
        n--
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && (a[j] + 0) < (a[j - 1] + 0); j--) {
            t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
        }
    t = ""
    for (i = 1; i <= n; i++)
        t = t a[i] "\n"
    return t
}
function logtics(lo, hi,    d, m, v, s) { # 1, 2, 5 x 10^k between lo and hi
    s = ""
    for (d = 10 ^ int(log(lo) / log(10) - 1); d <= hi; d *= 10)
        for (m = 1; m <= 5; m += m == 1 ? 1 : 3) {
            v = m * d
            if (v >= lo && v <= hi)
                s = s (s == "" ? "" : ", ") sprintf("%.10g", v)
        }
    return s
}
function series_of_step(step,    k) { for (k in sstep) if (sstep[k] == step) return k; return "" }
