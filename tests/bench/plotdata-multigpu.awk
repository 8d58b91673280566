# plotdata-multigpu.awk - the data of the multi-GPU charts (plotdata.awk reads the rows): the
# phases chart (time by phase, a stacked bar per GPU count), the gpus chart (throughput against
# the GPU count) and the speedup chart (the speed-up over one-GPU CUB against n).
# Functions only, run after plotdata.awk (its header names the files and their order).

# ---- phases: the multi-GPU step's time by phase, a stacked bar per GPU count ----------
function chart_phases(    r, n, i, j, k, b, nb, keys, f, cname, cubms, best, lab, tot, c, ones, x, overlap, bars, most, xlines, withcub,
                      first, last) {
    # the size with the most bars (series and GPU counts: 1 and 2 GPUs side by side), the largest of those
    for (r = 1; r <= nr; r++) # keys only: one CUB line to set every bar against (pairs: the speed-up chart)
        if ((" " P[r] " ") ~ / pairs /)
            delete hasph[r]
    # sizes as whole-number strings: awk may write a number of 2^31 or more as 4.29497e+09
    for (r = 1; r <= nr; r++)
        if ((r in hasph) && !((nkey(N[r]), G[r], series(r)) in b)) {
            b[nkey(N[r]), G[r], series(r)] = 1
            bars[nkey(N[r])]++
        }
    for (r = 1; r <= nr; r++) # a size where CUB ran too (its line on the chart) goes before one without
        if ((r in hasph) && cub_of(r) != "") # cub_of: a CUB size row at this row's n, or ""
            withcub[nkey(N[r])] = 1
    for (x in bars)
        if (bars[x] > most || bars[x] == most && ((x in withcub) > (n in withcub) || \
                                                  (x in withcub) == (n in withcub) && x + 0 > n + 0)) {
            most = bars[x]
            n = x
        }
    delete b
    for (r = 1; r <= nr; r++)
        if ((r in hasph) && nkey(N[r]) == n) {
            k = series(r)
            if (!((k, G[r]) in b)) {
                b[k, G[r]] = r
                keys[++nb] = r
                if (!(k in ones))
                    ones[k] = ++c
            }
        }
    for (i = 2; i <= nb; i++) # by series, then GPU count
        for (j = i; j > 1 && (ones[series(keys[j])] < ones[series(keys[j - 1])] || \
                              ones[series(keys[j])] == ones[series(keys[j - 1])] && G[keys[j]] < G[keys[j - 1]]); j--) {
            r = keys[j]; keys[j] = keys[j - 1]; keys[j - 1] = r
        }
    f = dir "/phases.dat"
    printf "run x" > f
    for (j = 1; j <= nphases; j++)
        printf " %s", dq(phase_title(phname[j])) > f
    printf " total above label lines\n" > f
    for (i = 1; i <= nb; i++) {
        r = keys[i]
        lab = (c > 1 ? wrap(step_name(S[r]) (VAR[r] == "" ? "" : " " VAR[r]) (LOC[r] == "" ? "" : " " LOC[r]), nb > 5 ? 11 : 16) "\\n" : "") G[r] " GPU" (G[r] > 1 ? "s" : "")
        if (nlines(lab) > xlines)
            xlines = nlines(lab)
        printf "%s %d", dq(lab), i - 1 > f
        tot = 0
        for (j = 1; j <= nphases; j++) {
            x = ((r, j) in PH) ? PH[r, j] : 0
            printf " %s", x > f
            tot += x
        }
        if (tot > best) best = tot
        if (MS[r] > best) best = MS[r]
        cname = cub_of(r)
        if (cname != "")
            for (j = 1; j <= nr; j++)
                if (S[j] == cname && nkey(N[j]) == n && SW[j] == "size")
                    cubms = MS[j]
        if (tot > 1.02 * MS[r])
            overlap = 1
        lab = fmtv(MS[r]) " ms" (RC[r] != "" ? "\\n" fmtratio(RC[r]) "x CUB" : "") \
              (tok(P[r], "bucket") != "" && nb <= 5 ? "\\nlargest share " fmtv(tok(P[r], "bucket") + 0) " N/G" : "")
        last = tot > MS[r] ? tot : MS[r] # the bar's top, where its label stands (more than 5 bars: no room for the share)
        if (i == 1)
            first = last
        printf " %s %s %s %d\n", MS[r], last, dq(lab), nlines(lab) > f
    }
    close(f)
    # CUB's label at the end of its line whose bar stands farther from it (that bar's label is not in its way)
    printf "cubside = %s\n", q((last - cubms) ^ 2 > (first - cubms) ^ 2 ? "right" : "left")
    if (c == 1)
        printf "what = %s\n", q(step_name(S[keys[1]]) (VAR[keys[1]] == "" ? "" : " " VAR[keys[1]]))
    else
        printf "what = ''\n"
    printf "file = %s\nbars = %d\nnphases = %d\nnat = %s\ncubms = %s\ntop = %s\nxlines = %d\n", q(f), nb, nphases, q(pow2(n + 0)), cubms + 0, (best > cubms ? best : cubms) * 1.3, xlines
    lab = overlap ? "A bar taller than its measured total (*): phases that overlap in time. " : ""
    printf "note = %s\n", q(lab (cubms > 0 ? "" : no_cub_note(n + 0)))
    for (j = 1; j <= nphases; j++)
        printf "phase%d_color = %s\n", j, q(phpal[(j - 1) % nphpal + 1])
}
function nkey(x) { return sprintf("%.0f", x) }
function no_cub_note(n) { # CUB's DeviceRadixSort takes at most 2^31 - 1 items in one call (int offsets)
    return "No CUB row at this n (" (n >= 2 ^ 31 ? "one CUB call takes at most 2^31 - 1 items" \
                                                 : "a size line for CUB at " pow2(n) " in sweeps.conf adds it") ")"
}
function phase_title(s) { gsub(/_/, " ", s); return s }

# ---- gpus: throughput against the GPU count, at one size ------------------------------
# keys_size(r): row r is of a size sweep, keys alone
function keys_size(r) { return SW[r] == "size" && (" " P[r] " ") !~ / pairs / }
# Each point's ratio to CUB is written to its right, in its line's colour; labels of one GPU
# count that would touch are moved apart, one above the other. One legend entry stands for every
# line's ideal (a thin dashed line in its colour).
function chart_gpus(    r, n, most, c, line, k, i, j, ng, seen, seen2, best, files, f, keys, nk, rows, one, oneg, cubv, cname, lab, x, maxg, ck,
                    pg, py, pk, npt, order, t, gap, ly, ly0, nxt, longest, g) {
    # the size at which one line has the most GPU counts (two at least), the largest of those: a
    # line is one form of the step, so a size whose GPU counts took different local sorts (2^32:
    # CUB's on two GPUs, step 7's on four) would give points and no line; size rows of keys only,
    # as the phases chart: one CUB line to set them against (pairs: the speed-up chart)
    for (r = 1; r <= nr; r++)
        if (kind(S[r]) == "step" && keys_size(r) && (G[r] > 1 || r in hasph)) {
            line = nkey(N[r]) SUBSEP series(r)
            if ((line, G[r]) in seen)
                continue
            seen[line, G[r]] = 1
            c = ++ng[line]
            if (c >= 2 && (c > most || (c == most && N[r] + 0 > n + 0))) {
                most = c
                n = N[r]
            }
        }
    for (r = 1; r <= nr; r++)
        if (kind(S[r]) == "step" && keys_size(r) && N[r] == n && (G[r] > 1 || r in hasph)) {
            k = series(r)
            if ((k, G[r]) in seen2)
                continue
            seen2[k, G[r]] = 1
            if (!(k in rows))
                keys[++nk] = k
            rows[k] = 1
            pk[++npt] = k; pg[npt] = G[r]; py[npt] = V[r]; plab[npt] = RC[r] == "" ? "" : fmtratio(RC[r]) "x CUB"
            if (!(k in one) || G[r] < oneg[k]) {
                one[k] = V[r] / G[r]; oneg[k] = G[r]
            }
            if (G[r] > maxg)
                maxg = G[r]
            if (V[r] > best)
                best = V[r]
            cname = cname == "" ? cub_of(r) : cname
        }
    sort_keys(keys, nk)
    for (i = 1; i <= nk; i++)
        if (one[keys[i]] * maxg > best)
            best = one[keys[i]] * maxg
    if (cname != "")
        for (r = 1; r <= nr; r++)
            if (S[r] == cname && N[r] == n && SW[r] == "size") {
                cubv = V[r]
                ck = series(r)
                break
            }
    top = (best > cubv ? best : cubv) * 1.2
    # the labels' heights: beside the point, on the side its line leaves free (below where the
    # line rises to the next GPU count, above where it falls or stays), off CUB's line; then at
    # each GPU count, from the lowest up, at least a label apart
    gap = 0.055 * top
    for (i = 1; i <= npt; i++) {
        nxt = ""
        for (j = 1; j <= npt; j++)
            if (pk[j] == pk[i] && pg[j] > pg[i] && (nxt == "" || pg[j] < pg[nxt]))
                nxt = j
        ly0[i] = nxt == "" ? py[i] : py[nxt] > py[i] ? py[i] - 0.6 * gap : py[i] + 0.6 * gap
        if (cubv > 0 && ly0[i] - cubv < 0.6 * gap && cubv - ly0[i] < 0.6 * gap)
            ly0[i] = ly0[i] >= cubv ? cubv + 0.6 * gap : cubv - 0.6 * gap
    }
    for (i = 1; i <= npt; i++)
        order[i] = i
    for (i = 2; i <= npt; i++)
        for (j = i; j > 1 && (pg[order[j]] < pg[order[j - 1]] || (pg[order[j]] == pg[order[j - 1]] && ly0[order[j]] < ly0[order[j - 1]])); j--) {
            t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
        }
    for (i = 1; i <= npt; i++) {
        t = order[i]
        ly[t] = ly0[t]
        if (i > 1 && pg[order[i - 1]] == pg[t] && ly[t] < ly[order[i - 1]] + gap)
            ly[t] = ly[order[i - 1]] + gap
        if (ly[t] > top * 0.97)
            top = ly[t] / 0.97
    }
    for (i = 1; i <= nk; i++) {
        k = keys[i]
        f = sprintf("%s/g%02d.dat", dir, i)
        printf "gpus y label labely\n" > f
        for (j = 1; j <= npt; j++) # by GPU count: order[] is
            if (pk[order[j]] == k)
                printf "%s %s %s %s\n", pg[order[j]], py[order[j]], dq(plab[order[j]]), ly[order[j]] > f
        close(f)
        files = files " " f
        printf "%s; g%d_color = %s; g%d_title = %s; g%d_one = %s\n", linestyle(k, "g" i), i, q(mcolour(k, i)), i, q(legend_of(k)), i, one[k]
    }
    printf "files = %s\nnat = %s\ncubv = %s\nmaxg = %d\ntop = %s\n", q(substr(files, 2)), q(pow2(n)),
           cubv + 0, maxg, top
    # the legend: each line, one entry for the ideals, and CUB
    for (i = 1; i <= nk; i++) {
        lab = legend_of(keys[i])
        printf "%s; key%d_color = %s; key%d_title = %s\n", linestyle(keys[i], "key" i), i, q(mcolour(keys[i], i)), i, q(lab)
        if (length(lab) > longest)
            longest = length(lab)
    }
    k = nk + 1
    lab = "thin dashed: a line's ideal, its throughput per GPU on its fewest GPUs x the GPUs"
    printf "key%d_color = %s; key%d_dash = 2; key%d_point = 0; key%d_width = 1.2; key%d_psize = 0; key%d_title = %s\n",
           k, q("#777777"), k, k, k, k, k, q(lab)
    if (length(lab) > longest)
        longest = length(lab)
    if (cubv > 0) {
        k++
        lab = "CUB " substr(cname, 6) " on 1 GPU"
        printf "%s; key%d_title = %s\n", linestyle(ck, "key" k, 1), k, q(lab)
        printf "cub_color = %s; cub_dash = %s\n", q(colour_of(cname)), cubdash[(cubrank[cname] - 1) % 3 + 1]
        if (length(lab) > longest)
            longest = length(lab)
    } else
        printf "note = %s\n", q(no_cub_note(n + 0))
    printf "nkeys = %d\nkeycols = %d\n", k, key_columns(longest)
}

# mcolour(k, i): the colour of series k, the i-th line of a multi-GPU chart: the lines of one
# step (its local sorts) differ there, so each line has its own; an anchor keeps its own
function mcolour(k, i) { return kind(sstep[k]) == "anchor" ? colour_of(sstep[k]) : mpal[(i - 1) % nmpal + 1] }

# ---- speedup: a multi-GPU step's speed-up over one-GPU CUB against n ---------------------
# A line per series and GPU count (its ratio_cub: CUB's median on one GPU at that n over its
# own), the anchor's too; CUB itself is the flat line at 1. A line's GPU count is in its dash:
# solid on 2 GPUs, dashed on 1, dash-dot on 4, dotted on 8.
function chart_speedup(    r, k, i, j, key, keys, nk, f, files, x, y, best, lab, longest, g, lo, hi, pts, dashes, col, a, b, colno, ncol, rows) {
    split("2 1 4 3", dashes, " ") # dash types for 1, 2, 4, 8 GPUs (log2 + 1): dashed, solid, dash-dot, dotted
    for (r = 1; r <= nr; r++) {
        if (!multi(r) || RC[r] == "" || MS[r] <= 0)
            continue
        key = series(r) SUBSEP G[r]
        if ((key, N[r]) in pts)
            continue
        pts[key, N[r]] = RC[r]
        if (!(key in rows)) {
            keys[++nk] = key
            rows[key] = ""
        }
        rows[key] = rows[key] N[r] " " RC[r] "\n"
        if (RC[r] + 0 > best) best = RC[r] + 0
        if (lo == "" || N[r] < lo) lo = N[r]
        if (N[r] > hi) hi = N[r]
    }
    for (i = 2; i <= nk; i++) # by series, then GPU count
        for (j = i; j > 1; j--) {
            split(keys[j], a, SUBSEP); split(keys[j - 1], b, SUBSEP)
            if (!(before(a[1] SUBSEP a[2] SUBSEP a[3] SUBSEP a[4], b[1] SUBSEP b[2] SUBSEP b[3] SUBSEP b[4]) ||
                  (a[1] SUBSEP a[2] SUBSEP a[3] SUBSEP a[4] == b[1] SUBSEP b[2] SUBSEP b[3] SUBSEP b[4] && a[5] + 0 < b[5] + 0)))
                break
            x = keys[j]; keys[j] = keys[j - 1]; keys[j - 1] = x
        }
    for (i = 1; i <= nk; i++) {
        split(keys[i], a, SUBSEP)
        k = a[1] SUBSEP a[2] SUBSEP a[3] SUBSEP a[4]
        g = a[5] + 0
        if (!(k in colno))
            colno[k] = ++ncol
        col = mcolour(k, colno[k])
        f = sprintf("%s/u%02d.dat", dir, i)
        printf "n speedup\n%s", rows[keys[i]] > f
        close(f)
        files = files " " f
        lab = name_of(k) ", " g " GPU" (g > 1 ? "s" : "")
        if (length(lab) > longest)
            longest = length(lab)
        x = 0
        for (j = g; j > 1; j /= 2) x++
        printf "u%d_color = %s; u%d_dash = %d; u%d_point = %d; u%d_width = 2; u%d_psize = 0.9; u%d_title = %s\n", i, q(col), i,
               (x + 1 in dashes) ? dashes[x + 1] : 5, i, kind(sstep[k]) == "anchor" ? 5 : 7, i, i, i, q(lab)
    }
    lab = "CUB DeviceRadixSort on 1 GPU at the same n (1.0x)"
    printf "u%d_color = %s; u%d_dash = 2; u%d_point = 0; u%d_width = 3; u%d_psize = 0; u%d_title = %s\n",
           nk + 1, q("#3a3a3a"), nk + 1, nk + 1, nk + 1, nk + 1, nk + 1, q(lab)
    if (length(lab) > longest)
        longest = length(lab)
    printf "files = %s\nnkeys = %d\nkeycols = %d\ntop = %s\nlo = %s\nhi = %s\n", q(substr(files, 2)), nk + 1,
           key_columns(longest), (best > 1 ? best : 1) * 1.2, lo, hi
}
