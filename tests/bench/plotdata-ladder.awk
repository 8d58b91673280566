# plotdata-ladder.awk - the data of the throughput and ladder charts (plotdata.awk reads the
# rows): the chapter's metric against n, a line per step, CUB and the copy; and a bar per step
# and CUB at one size, with each ladder's size (plotdata.awk's plan lists a ladder per size).
# Functions only, run after plotdata.awk (its header names the files and their order).

# ---- throughput: a line per step, CUB and the copy, against n --------------------------
function chart_throughput(    r, k, i, n, keys, f, files, rows, t, longest) {
    for (r = 1; r <= nr; r++)
        if (SW[r] == "size" && single(r) && (S[r] == "copy" || in_focus(r))) {
            k = series(r)
            if (!(k in rows))
                keys[++n] = k
            rows[k] = rows[k] N[r] " " V[r] "\n"
        }
    sort_keys(keys, n)
    for (i = 1; i <= n; i++) {
        k = keys[i]
        f = sprintf("%s/s%02d.dat", dir, i)
        printf "n y\n%s", rows[k] > f
        close(f)
        files = files " " f
        t = kind(sstep[k]) == "copy" ? copy_legend() : legend_of(k)
        if (length(t) > longest)
            longest = length(t)
        printf "%s; s%d_title = %s\n", linestyle(k, "s" i), i, q(t)
    }
    printf "files = %s\nkeycols = %d\n", q(substr(files, 2)), key_columns(longest)
}
function copy_legend() { return metric == "gbs" ? "copy: the bandwidth ceiling" : "copy: each element read and written once" }

# ---- the ladders' sizes: a ladder at each step's largest n -------------------------
function ladder_sizes(    r, k, i, n, top) { # every step's largest size, largest first
    for (r = 1; r <= nr; r++)
        if (SW[r] == "size" && kind(S[r]) == "step" && single(r) && in_focus(r)) {
            k = series(r)
            if (N[r] > top[k])
                top[k] = N[r]
        }
    nls = 0
    for (k in top)
        if (!(top[k] in lsz)) {
            lsz[top[k]] = 1
            ls[++nls] = top[k]
        }
    for (i = 2; i <= nls; i++)
        for (n = i; n > 1 && ls[n] > ls[n - 1]; n--) {
            r = ls[n]; ls[n] = ls[n - 1]; ls[n - 1] = r
        }
    for (k in top)
        stop[k] = top[k]
}
function ladder_file(n) { return n == ls[1] ? stem : stem "-" log2name(n) }

# ---- ladder: a bar per step and CUB, all at one size -----------------------------------
function chart_ladder(n,    r, k, i, j, keys, nb, row, f, best, c, ncubs, cubs, cname, lab, w, width, wrapw,
                notes, left, leftn, lnote, vn, vseen, y, maxlines, slot, lk, hatch, xtics, small, maxms,
                against, nagainst, ncmp) {
    ladder_sizes()
    for (r = 1; r <= nr; r++)
        if (SW[r] == "size" && single(r) && kind(S[r]) != "copy" && in_focus(r) && N[r] == n) {
            k = series(r)
            if (!(k in row)) {
                keys[++nb] = k
                row[k] = r
            }
        }
    sort_keys(keys, nb)
    for (i = 1; i <= nb; i++) {
        r = row[keys[i]]
        if (kind(S[r]) == "cub" && !(S[r] in cubs)) {
            cubs[S[r]] = 1
            ncubs++
        }
        if (V[r] > best)
            best = V[r]
        if (MS[r] > maxms)
            maxms = MS[r]
    }
    # the width: a slot per bar as wide as its labels' longest word needs (about 9.2 pixels a
    # letter at the label font, 8.2 at the smaller one used when the bars are many), 130 pixels
    # at least; 1280 to 1600 in all
    small = nb > 8
    for (i = 1; i <= nb; i++) {
        r = row[keys[i]]
        lab = step_name(S[r]) " " VAR[r] " (" figs(S[r]) ")"
        gsub(/::/, " ::", lab); gsub(/-/, "- ", lab)
        for (j = split(lab, w, " "); j > 0; j--)
            if (length(w[j]) > wrapw)
                wrapw = length(w[j])
    }
    slot = (wrapw + 2) * (small ? 8.2 : 9.2)
    slot = slot < 130 ? 130 : slot
    width = 200 + slot * nb
    width = width < 1280 ? 1280 : width > 1600 ? 1600 : width
    slot = (width - 200) / nb
    j = int(slot / (small ? 8.2 : 9.2)) - 1
    wrapw = j > wrapw ? j : wrapw
    f = dir "/ladder.dat"
    printf "" > f
    for (i = 1; i <= nb; i++) {
        k = keys[i]
        r = row[k]
        lab = wrap(step_name(S[r]) (VAR[r] == "" ? "" : " " VAR[r]) (LOC[r] == "" ? "" : ", local sort " LOC[r]), wrapw)
        if (figs(S[r]) != "")
            lab = lab "\\n" wrap("(" figs(S[r]) ")", wrapw)
        if (clash[slabel[k]])
            lab = lab "\\n" wrap(ssig[k], wrapw)
        if (nlines(lab) > maxlines)
            maxlines = nlines(lab)
        c = ""
        if (kind(S[r]) == "step" && RC[r] != "") {
            c = fmtratio(RC[r]) "x CUB"
            cname = cub_of(r)
            if (!(cname in against))
                ncmp++
            against[cname] = against[cname] (against[cname] == "" ? "" : ", ") name_of(k)
            nagainst[cname]++
        }
        hatch = kind(S[r]) == "step" && variant_style(k) > 1
        printf "%d %s %s %s %s %s %s\n", i - 1, V[r], hatch ? "?" : V[r], hatch ? V[r] : "?",
               rgbint(colour_of(S[r])), dq(fmtv(V[r])), dq(c) > f
        xtics = xtics (i > 1 ? ", " : "") "\"" lab "\" " (i - 1)
        if (svar[k] != "" && vmeaning(k) != "" && !((sstep[k]) in vseen)) {
            vseen[sstep[k]] = 1
            vn = ""
            for (j = 1; j <= nb; j++)
                if (sstep[keys[j]] == sstep[k] && svar[keys[j]] != "")
                    vn = vn (vn == "" ? "" : "; ") svar[keys[j]] ": " vmeaning(keys[j])
            notes[++y] = step_name(sstep[k]) ", " vn
        }
    }
    close(f)
    # which CUB each ratio is against, when the bars are compared with more than one
    if (ncmp > 1) {
        vn = ""
        j = 0
        for (c in against)
            if (nagainst[c] > j) {
                j = nagainst[c]
                cname = c
            }
        for (c in against)
            if (c != cname)
                vn = vn (vn == "" ? "" : "; ") against[c] " against " (c == "" ? "no CUB row" : step_name(c))
        notes[++y] = "Ratios: " vn "; the others against " (cname == "" ? "no CUB row" : step_name(cname))
    }
    # steps of this chart's kind that stop below its size: named, with the chart they are in
    j = 0
    for (k in stop)
        if (stop[k] < n && !((sstep[k], stop[k]) in left)) {
            left[sstep[k], stop[k]] = 1
            lk[++j] = k
        }
    sort_keys(lk, j)
    for (i = 1; i <= j; i++)
        leftn[stop[lk[i]]] = leftn[stop[lk[i]]] (leftn[stop[lk[i]]] == "" ? "" : ", ") name_of(lk[i])
    for (i = 1; i <= nls; i++)
        if (ls[i] in leftn)
            notes[++y] = "Not measured at this n: " leftn[ls[i]] " (largest n " pow2(ls[i]) ": " ladder_file(ls[i]) ")"
    if ((n in copyv) && copyv[n] <= 2.5 * best)
        printf "copy = %s\ncopylabel = %s\n", copyv[n], q("copy: " fmtv(copyv[n]) " " unit)
    else {
        printf "copy = 0\n"
        if (n in copyv)
            notes[++y] = "The copy (each element read and written once) reaches " fmtv(copyv[n]) " " unit " at this n: above the chart"
    }
    if (nb > 0 && maxms < 0.05)
        notes[++y] = "Every run here takes " fmtv(maxms * 1000) " us or less: launch overhead, not memory bandwidth, sets these numbers"
    if (nb > 0 && kind(S[row[keys[1]]]) == "step" && ncubs == 0)
        notes[++y] = "No CUB row at this n: no ratio to CUB"
    lnote = ""
    for (i = 1; i <= y; i++)
        lnote = lnote (i > 1 ? "\\n" : "") notes[i]
    printf "set xtics (%s)\n", xtics
    printf "file = %s\nbars = %d\nnat = %s\nwidth = %d\nxlines = %d\nnotes = \"%s\"\nnnotes = %d\nsmall = %d\n",
           q(f), nb, q(pow2(n)), width, maxlines, lnote, y, small
    printf "top = %s\n", best * 1.28
}
