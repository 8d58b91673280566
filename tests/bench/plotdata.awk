# plotdata.awk - one benchmark CSV (bench.sh) -> the data files and gnuplot variables of one
# chart (plots.sh runs tests/bench/<what>.gp with them). Variables (-v):
#   what      plan | throughput | ladder | params | phases | gpus | speedup | counts
#   dir       the folder for the data files
#   catalogue docs/catalogue.txt: each step's label ("step 3 tiled") and figures, and its colour
#             (its place in its chapter: a step has one colour in every chart of its chapter)
#   facts     plots.sh's facts file: "variant<TAB>FOLDER<TAB>NAME<TAB>meaning" (what a --variant
#             means, for the legends) and "option<TAB>NAME<TAB>meaning" (from common/options.h)
#   metric    the column the chart shows (gbs or gelems), unit its unit (GB/s, Gelem/s, Gkeys/s)
#   at        ladder: the size of the chart; stem: the chart's file name without its size part
# Prints gnuplot assignments (the vars file); plan prints instead the charts this CSV makes:
#   throughput | ladder N SUFFIX | params | phases | gpus | speedup        (one per line)
#
# Rows: the CSV's column line names the columns (bench.sh's: chapter,step,params,n,median_ms,
# spread,gbs,gelems,ratio_cub,ratio_copy,sweep,seed; more may follow). A multi-GPU row names its
# GPU count in a gpus column or a gpus=G token of params, its phase times (ms) in ms_<phase>
# columns or ms_<phase>=T tokens of params, its largest bucket (/ (N/G)) in bucket=B. Rows on
# more than one GPU are left out of throughput, ladder and params: the phases, gpus and speedup
# charts show them, with the rows of an anchor (a step named anchor:NAME: a baseline of the
# multi-GPU step built from libraries, e.g. anchor:mgpu, CUB + NCCL; its name from the facts
# file's "anchor" lines). A "# variant: FOLDER NAME meaning" line of the CSV explains a --variant
# (it wins over the facts file). Of a CUB's rows at one size that differ only in CUB's own knobs
# (offsets=64: cub_work, tokens.awk), the faster alone is read: the row join.awk compared with.
BEGIN {
    FS = ","
    npal = split("#0072b2 #e69f00 #009e73 #cc79a7 #56b4e9 #d55e00 #882255 #332288 #999933 #44aa99 #aa4499 #661100", pal, " ")
    ncubpal = split("#3a3a3a #8a8a8a #5e5e5e #b4b4b4", cubpal, " ")
    nphpal = split("#4477aa #ee6677 #228833 #ccbb44 #66ccee #aa3377 #bbbbbb", phpal, " ")
    nmpal = split("#0072b2 #e69f00 #009e73 #cc79a7 #56b4e9 #d55e00", mpal, " ") # the multi-GPU charts' lines
    split("7 9 5 13 11", vpoint, " ")  # a variant's point: filled circle, triangle, square, diamond
    split("6 8 4 12 10", vopen, " ")    # the same shapes open: a second kind of work of one step
    split("1 2 3 4 5", vdash, " ")      # and its dash: solid, dashed, dotted, dash-dot
    split("2 4 5", cubdash, " ")        # CUB's lines: dashed, dash-dot, dash-dot-dot
    if (catalogue != "")
        read_catalogue(catalogue)
    if (facts != "")
        read_facts(facts)
    for (i = 1; i <= 12; i++) # bench.sh's columns, until a column line says otherwise
        col[word_at("chapter step params n median_ms spread gbs gelems ratio_cub ratio_copy sweep seed", i)] = i
}
function word_at(s, i,    w) { split(s, w, " "); return w[i] }
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function q(s) { gsub(/'/, "''", s); return "'" s "'" } # a gnuplot single-quoted string
function gq(s) { gsub(/"/, "\\\"", s); return "\"" s "\"" } # a gnuplot double-quoted string ("\n" works)
function dq(s) { gsub(/"/, "'", s); return "\"" s "\"" } # a double-quoted string of a data file
function read_catalogue(file,    line, f, n, ch) {
    while ((getline line < file) > 0) {
        if (line ~ /^[ \t]*(#|$)/)
            continue
        n = split(line, f, "|")
        if (n < 4)
            continue
        f[1] = trim(f[1]); ch = f[1]; sub(/\/.*/, "", ch)
        catidx[f[1]] = ++ncat[ch]
        catfig[f[1]] = trim(f[2])
    }
    close(file)
}
function read_facts(file,    line, f) {
    while ((getline line < file) > 0) {
        split(line, f, "\t")
        if (f[1] == "variant")
            vnote[f[2], f[3]] = f[4]
        else if (f[1] == "anchor")
            aname[f[2]] = f[3]
        else if (f[1] == "option")
            optnote[f[2]] = f[3]
    }
    close(file)
}

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

# ---- rows ----------------------------------------------------------------------------
function tok(params, key,    t, i, k) { # params "a=1 b=2": tok(params, "b") = 2
    k = split(params, t, " ")
    for (i = 1; i <= k; i++)
        if (index(t[i], key "=") == 1)
            return substr(t[i], length(key) + 2)
    return ""
}
function signature(params,    t, i, k, s) { # the tokens that say what kind of work a row is
    k = split(params, t, " ")
    s = ""
    for (i = 1; i <= k; i++)
        if (t[i] ~ /^(op|type|dist)=/ || t[i] == "keys" || t[i] == "pairs")
            s = s (s == "" ? "" : " ") t[i]
    return s
}
function pow2(n,    k) { # 16777216 -> 2^24
    for (k = 0; 2 ^ k < n; k++) ;
    return 2 ^ k == n ? "2^" k : n
}
function log2name(n,    k) { # the file-name part of a size: 2^26 -> n26
    for (k = 0; 2 ^ k < n; k++) ;
    return 2 ^ k == n ? "n" k : "n" n
}
/^# gpu: / { gpu = substr($0, 8); next }
/^# focus: / { focus = trim(substr($0, 10)); next }
/^# variant: / {
    split(substr($0, 12), vw, " ")
    vtext = substr($0, 12); sub(/^[^ ]+ +[^ ]+ +/, "", vtext)
    vnote[vw[1], vw[2]] = vtext
    next
}
/^#/ { next }
what == "counts" { # the analysis CSV: step,n,metric,measured,book,printed
    if ($1 == "step" || NF < 5)
        next
    if (!($3 in metricno)) {
        metricno[$3] = ++nmetrics
        mname[nmetrics] = $3
    }
    m = metricno[$3]
    k = ++nc[m]
    cstep[m, k] = $1; cn[m, k] = $2; cmeas[m, k] = $4; cbook[m, k] = $5; cprint[m, k] = $6
    seenstep[$1] = 1
    next
}
$1 == "chapter" {
    delete col
    nphcols = 0
    for (i = 1; i <= NF; i++) {
        col[$i] = i
        if ($i ~ /^ms_/)
            phcol[++nphcols] = i
    }
    next
}
NF >= 4 {
    if ((r = row_slot()) == 0)
        next
    chapter = $col["chapter"]
    S[r] = $col["step"]; P[r] = $col["params"]; N[r] = $col["n"] + 0; MS[r] = $col["median_ms"] + 0
    V[r] = $col[metric] + 0; RC[r] = $col["ratio_cub"]; SW[r] = $col["sweep"]
    G[r] = ("gpus" in col) && $col["gpus"] != "" ? $col["gpus"] + 0 : tok(P[r], "gpus") + 0
    if (G[r] < 1)
        G[r] = 1
    VAR[r] = tok(P[r], "variant")
    LOC[r] = tok(P[r], "local")
    seenstep[S[r]] = 1
    if (kind(S[r]) == "cub" && has_all(focus, P[r]))
        focuscub[S[r]] = 1
    if (VAR[r] != "")
        seenvar[S[r], VAR[r]] = 1
    if (S[r] == "copy" && !(N[r] in copyv))
        copyv[N[r]] = V[r]
    phase_of_row(r)
}
# the row number for this line: a new one, or, for a CUB row of a name, size, sweep and work
# (cub_work) already read, the slot of the faster of the two (0: this line is the slower)
function row_slot(    key, e) {
    if (kind($col["step"]) != "cub")
        return ++nr
    key = $col["step"] SUBSEP ($col["n"] + 0) SUBSEP $col["sweep"] SUBSEP cub_work($col["params"])
    if (!(key in cubslot))
        return cubslot[key] = ++nr
    e = cubslot[key]
    return $col["median_ms"] + 0 < MS[e] ? e : 0
}
# the phase times of row r: ms_<phase> columns, then ms_<phase>=T tokens of its params
function phase_of_row(r,    i, t, k, name) {
    for (i = 1; i <= nphcols; i++)
        if ($phcol[i] != "")
            add_phase(r, substr(colname(phcol[i]), 4), $phcol[i])
    k = split(P[r], t, " ")
    for (i = 1; i <= k; i++)
        if (t[i] ~ /^ms_[A-Za-z0-9_]+=/) {
            name = substr(t[i], 4); sub(/=.*/, "", name)
            if (name != "one_gpu") # ms_one_gpu: the same sort on one GPU, a comparison, not a phase
                add_phase(r, name, substr(t[i], index(t[i], "=") + 1))
        }
}
function colname(i,    c) { for (c in col) if (col[c] == i) return c; return "" }
function add_phase(r, name, v) {
    if (!(name in phaseno)) {
        phaseno[name] = ++nphases
        phname[nphases] = name
    }
    PH[r, phaseno[name]] = v + 0
    hasph[r] = 1
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

END {
    rank_names()
    if (what == "plan") {
        chart_plan()
        exit
    }
    printf "gpu = %s\n", q(gpu)
    printf "chapter = %s\nfocus = %s\n", q(chapter), q(focus)
    printf "chaptitle = %s\n", q(chapter_title(chapter))
    if (what == "throughput") chart_throughput()
    if (what == "ladder") chart_ladder(at + 0)
    if (what == "params") chart_params()
    if (what == "phases") chart_phases()
    if (what == "gpus") chart_gpus()
    if (what == "speedup") chart_speedup()
    if (what == "counts") chart_counts()
}
function chapter_title(ch,    num, name) { # ch10-reduction -> Chapter 10, reduction
    if (match(ch, /^ch[0-9]+-/)) {
        num = substr(ch, 3, RLENGTH - 3) + 0
        name = substr(ch, RLENGTH + 1)
        gsub(/-/, " ", name)
        return "Chapter " num ", " name
    }
    return ch
}

# ---- plan: the charts this CSV makes ------------------------------------------------
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
function chart_plan(    r, i, hasp, g, seen, ng) {
    for (r = 1; r <= nr; r++)
        if (SW[r] == "size" && single(r) && (S[r] == "copy" || in_focus(r)) && kind(S[r]) != "copy") {
            print "throughput"
            break
        }
    ladder_sizes()
    for (i = 1; i <= nls; i++)
        printf "ladder %d %s\n", ls[i], i == 1 ? "" : "-" log2name(ls[i])
    for (r = 1; r <= nr; r++)
        if (SW[r] ~ /^param:/ && SW[r] != "param:gpus" && single(r))
            hasp = 1
    if (hasp)
        print "params"
    for (r = 1; r <= nr; r++)
        if (r in hasph) {
            print "phases"
            break
        }
    for (r = 1; r <= nr; r++)
        if (kind(S[r]) == "step" && (G[r] > 1 || r in hasph) && !((N[r], G[r]) in seen)) {
            seen[N[r], G[r]] = 1
            if (++ng[N[r]] == 2)
                g = 1
        }
    if (g)
        print "gpus"
    for (r = 1; r <= nr; r++)
        if (multi(r) && (G[r] > 1 || kind(S[r]) == "anchor")) {
            print "speedup"
            break
        }
}

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
# a legend in two columns when its longest entry fits half of a 1280-pixel picture (about 9
# pixels a letter), else in one
function key_columns(longest) { return longest <= 60 ? 2 : 1 }
function copy_legend() { return metric == "gbs" ? "copy: the bandwidth ceiling" : "copy: each element read and written once" }

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
