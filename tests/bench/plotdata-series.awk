# plotdata-series.awk - the steps and series of plotdata.awk's charts: a step's name, label and
# colour (by its place in the catalogue), the series (one line or bar per step, variant and kind
# of work) with their legends, order and line styles, and numbers as the charts print them.
# Functions only, run after plotdata.awk (its header names the files and their order).

# ---- steps: names, labels, colours -------------------------------------------------
function ckey(step) { sub(/^(\.\/)?solutions\//, "", step); return step } # ch12-merge/step3-tiled
function folder(step) { sub(/.*\//, "", step); return step }
function kind(step) { return step == "copy" ? "copy" : step ~ /^cub::/ ? "cub" : step ~ /^anchor:/ ? "anchor" : "step" }
function step_name(step,    f, num) { # "step 3 tiled", "CUB DeviceRadixSort::SortKeys", "copy"
    if (kind(step) == "copy")
        return "copy"
    if (kind(step) == "cub")
        return "CUB " substr(step, 6)
    if (kind(step) == "anchor")
        return step in aname ? aname[step] : "anchor " substr(step, 8)
    f = folder(step)
    if (match(f, /^step[0-9]+/)) {
        num = substr(f, 5, RLENGTH - 4)
        f = substr(f, RLENGTH + 1)
        sub(/^-/, "", f)
        return "step " num (f == "" ? "" : " " f)
    }
    return f
}
function figs(step) { return kind(step) == "step" ? catfig[ckey(step)] : "" }
function cub_short(step,    s) { # cub::DeviceRadixSort::SortKeys -> RadixSort
    s = substr(step, 6); sub(/^Device/, "", s); sub(/::.*/, "", s)
    return s
}
# colour_of(step): steps by their place in the catalogue (steps it does not list after them,
# by name); CUB greys by name; the copy black. Computed from every row of the CSV, so that a
# step has the same colour in every chart of its chapter.
function colour_of(step) {
    if (kind(step) == "copy")
        return "#000000"
    if (kind(step) == "cub")
        return cubpal[(cubrank[step] - 1) % ncubpal + 1]
    if (kind(step) == "anchor")
        return "#8c1c13"
    return pal[(steprank[step] - 1) % npal + 1]
}
function rgbint(c) { return sprintf("%d", hex(substr(c, 2))) }
function hex(s,    i, v) {
    v = 0
    for (i = 1; i <= length(s); i++)
        v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
    return v
}
function rank_names(    s, k, i, j, n, names, ch, a, b) { # steprank, cubrank, variant ranks
    n = 0
    for (s in seenstep)
        if (kind(s) == "step") {
            ch = ckey(s); sub(/\/.*/, "", ch)
            if (ckey(s) in catidx)
                steprank[s] = catidx[ckey(s)]
            else
                names[++n] = s
        }
    sort_words(names, n)
    for (i = 1; i <= n; i++) {
        ch = ckey(names[i]); sub(/\/.*/, "", ch)
        steprank[names[i]] = ncat[ch] + i
    }
    n = 0
    for (s in seenstep) # CUB: those of the charts' kind of work (the focus), then the others
        if (kind(s) == "cub" && (s in focuscub))
            names[++n] = s
    sort_words(names, n)
    j = n
    n = 0
    for (s in seenstep)
        if (kind(s) == "cub" && !(s in focuscub))
            names[j + ++n] = s
    sort_words2(names, j + 1, j + n)
    n += j
    for (i = 1; i <= n; i++)
        cubrank[names[i]] = i
    for (k in seenvar) { # variants of one step in name order: 1, 2, ...
        split(k, a, SUBSEP)
        varrank[k] = 1
        for (i in seenvar) {
            split(i, b, SUBSEP)
            if (b[1] == a[1] && b[2] < a[2])
                varrank[k]++
        }
    }
}
function sort_words2(a, lo, hi,    i, j, t) { # a[lo..hi] in order
    for (i = lo + 1; i <= hi; i++)
        for (j = i; j > lo && a[j] < a[j - 1]; j--) {
            t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
        }
}
function sort_words(a, n,    i, j, t) {
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j] < a[j - 1]; j--) {
            t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
        }
}

# ---- series: one line or bar per step, variant and kind of work ----------------------
function series(r,    key, base) {
    key = S[r] SUBSEP VAR[r] SUBSEP LOC[r] SUBSEP signature(P[r])
    if (!(key in slabel)) {
        base = step_name(S[r]) (VAR[r] == "" ? "" : " " VAR[r]) (LOC[r] == "" ? "" : ", local sort " LOC[r])
        slabel[key] = base; sstep[key] = S[r]; svar[key] = VAR[r]; ssig[key] = signature(P[r])
        ssub[key] = ++nsig[base] # 2, 3: the step's second, third kind of work (pairs after keys)
        if (ssub[key] > 1)
            clash[base] = 1
    }
    return key
}
# the series' label: its kind of work added when one step ran several in one chart
function name_of(k) { return clash[slabel[k]] ? slabel[k] " (" ssig[k] ")" : slabel[k] }
function variant_style(k) { return svar[k] == "" ? 1 : varrank[sstep[k], svar[k]] }
function vmeaning(k,    f) {
    f = folder(sstep[k])
    if (svar[k] == "" || !((f, svar[k]) in vnote))
        return ""
    return vnote[f, svar[k]]
}
# the legend entry of a line: name, the figures, what a variant means
function legend_of(k,    s, v, f) {
    s = name_of(k)
    f = figs(sstep[k])
    v = vmeaning(k)
    if (v != "")
        s = s ": " v
    else if (f != "" && svar[k] == "")
        s = s " (" f ")"
    return s
}
# keys in display order: steps by catalogue place and variant, then CUB, then the copy
function korder(k) { return k == "step" ? 0 : k == "anchor" ? 1 : k == "cub" ? 2 : 3 }
function before(a, b,    ka, kb) {
    ka = kind(sstep[a]); kb = kind(sstep[b])
    if (ka != kb)
        return korder(ka) < korder(kb)
    if (ka == "step" && steprank[sstep[a]] != steprank[sstep[b]])
        return steprank[sstep[a]] < steprank[sstep[b]]
    return name_of(a) < name_of(b)
}
function sort_keys(a, n,    i, j, t) {
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && before(a[j], a[j - 1]); j--) {
            t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
        }
}
function linestyle(k, prefix, flat,    c, st, second) { # gnuplot variables of the line of series k
    c = kind(sstep[k])                              # (flat: a flat line, CUB's, without points)
    if (c == "anchor") c = "step"                   # an anchor: drawn as a step is, in its own colour
    st = variant_style(k)
    second = ssub[k] > 1 # a step's second kind of work in one chart (pairs beside keys): dashed, open points
    return sprintf("%s_color = %s; %s_dash = %d; %s_point = %d; %s_width = %g; %s_psize = %g",
                   prefix, q(colour_of(sstep[k])), prefix, c == "cub" ? cubdash[(cubrank[sstep[k]] - 1) % 3 + 1] : c == "copy" ? 3 : second ? vdash[(st + ssub[k] - 2) % 5 + 2] : vdash[st],
                   prefix, c == "step" ? (second ? vopen[st] : vpoint[st]) : c == "cub" && !flat ? 6 : 0,
                   prefix, c == "step" ? 2 : 3, prefix, c == "step" ? 0.9 : 0.8)
}

# a legend in two columns when its longest entry fits half of a 1280-pixel picture (about 9
# pixels a letter), else in one
function key_columns(longest) { return longest <= 60 ? 2 : 1 }

# ---- numbers as the charts print them ------------------------------------------------
function fmtv(v) { # 3 significant figures, never in e-notation
    return v >= 100 ? sprintf("%.0f", v) : v >= 10 ? sprintf("%.1f", v) : v >= 1 ? sprintf("%.2f", v) : v >= 0.001 ? sprintf("%.3g", v) : sprintf("%.2g", v)
}
function fmtratio(r) { return r >= 0.095 ? sprintf("%.2f", r) : sprintf("%.2g", r) } # never 0.00
# the CUB row a step's ratio_cub was taken from: the CUB row at its size, of the chart's kind of
# work, whose time over the step's is the ratio (join.awk's rule, found again from the numbers)
function cub_of(r,    c, x) {
    if (RC[r] == "" || MS[r] <= 0)
        return ""
    for (c = 1; c <= nr; c++)
        if (kind(S[c]) == "cub" && N[c] == N[r] && SW[c] == "size" && G[c] == 1 && MS[c] > 0) {
            x = MS[c] / MS[r]
            if (x > 0.98 * RC[r] && x < 1.02 * RC[r])
                return S[c]
        }
    return ""
}
function single(r) { return G[r] == 1 && kind(S[r]) != "anchor" }
# a row of the multi-GPU charts: a step measured on several GPUs (or with phases), or an anchor
function multi(r) { return kind(S[r]) == "anchor" || (kind(S[r]) == "step" && (G[r] > 1 || (r in hasph))) }
function in_focus(r) { return has_all(focus, P[r]) }
# wrap(text, width): text in lines of at most width characters ("\n" between, as gnuplot reads),
# broken at spaces, before "::" and after a hyphen
function wrap(text, width,    w, n, i, line, out, glue) {
    gsub(/::/, " ::", text)
    gsub(/-/, "- ", text)
    n = split(text, w, " ")
    line = out = ""
    for (i = 1; i <= n; i++) {
        glue = line == "" || line ~ /-$/ || w[i] ~ /^::/ ? "" : " "
        if (line != "" && length(line) + length(glue) + length(w[i]) > width) {
            out = out (out == "" ? "" : "\\n") line
            line = ""
            glue = ""
        }
        line = line glue w[i]
    }
    out = out (out == "" ? "" : "\\n") line
    return out
}
function nlines(s) { return gsub(/\\n/, "&", s) + 1 }
