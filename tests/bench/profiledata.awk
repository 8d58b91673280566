# profiledata.awk - a chapter's profile chart (profile.gp): its panels (profile-charts.conf), each a
# counter of tests/profile/counters.awk by step, from the chapter's profile CSV (make
# profile-collect), and for chapter 10 beside ./run --analyze's counts (ch10-analysis.csv). Loaded
# after counters.awk: awk -f tests/profile/counters.awk -f tests/bench/profiledata.awk CONF CSV
# ANALYSIS (ANALYSIS may be /dev/null). Variables: chapter, dir (the data files' folder). Prints
# gnuplot assignments: npanels, fileP, titleP, topP, nbarsP, twoP (a second series), xticsP, and
# gpu, chaptitle, note and notelines (its lines), analysis (1: a panel has --analyze's bars).
BEGIN { FS = ","; counters_init() }
FNR == 1 { file++ }
file == 1 {
    if ($0 ~ /^[ \t]*(#|$)/) next
    split($0, w, /[ \t]+/)
    if (w[1] == chapter) { pkey[++np] = w[2]; split(w[3], r, "-"); plo[np] = r[1] + 0; phi[np] = r[2] + 0 }
    next
}
file == 2 && /^# gpu: / { gpu = substr($0, 8); next }
file == 2 && /^# ncu: / { ncu = substr($0, 8); next }
file == 2 && /^# date: / { date = substr($0, 9); next }
file == 2 && /^chapter,/ { for (i = 1; i <= NF; i++) c[$i] = i; next }
file == 2 && /^#/ { next }
file == 2 && $c["kernel"] == "*" {
    num_ = stepnum($c["step"])
    if (num_ == "") next
    s = ++ns
    snum[s] = num_; sname[s] = $c["step"]; sn[s] = $c["n"]
    for (name in c) v[s, name] = $c[name]
    have[s] = 1
    next
}
file == 3 && $1 != "step" { # step,n,metric,measured,book,printed
    an[stepnum($1), $2, $3] = $4
    next
}
function stepnum(step,    f) { f = step; sub(/.*\/step/, "", f); sub(/-.*/, "", f); return f ~ /^[0-9]+$/ ? f + 0 : "" }
function folder(step) { sub(/.*\/step[0-9]+-?/, "", step); return step }
function q(s) { gsub(/'/, "''", s); return "'" s "'" }
function gq(s) { gsub(/"/, "\\\"", s); return "\"" s "\"" } # a gnuplot double-quoted string ("\n" works)
function dq(s) { gsub(/"/, "'", s); return "\"" s "\"" }
# wrap(text, width): lines of at most width characters, broken at spaces ("\n" between, for gnuplot)
function wrap(text, width,    w, n, i, line, out) {
    n = split(text, w, " ")
    for (i = 1; i <= n; i++) {
        if (line != "" && length(line) + 1 + length(w[i]) > width) { out = out (out == "" ? "" : "\\n") line; line = "" }
        line = line (line == "" ? "" : " ") w[i]
    }
    return out (out == "" ? "" : "\\n") line
}
function pow2(n,    k) { for (k = 0; 2 ^ k < n; k++) ; return 2 ^ k == n && k > 0 ? "2^" k : n }
# short(k, x): a bar's label, in the panel's unit (a title says it): 3 significant figures
function short(k, x) {
    if (x == "") return ""
    if (k ~ /_x$/) return x >= 100 ? sprintf("%.0fx", x) : x >= 10 ? sprintf("%.1fx", x) : sprintf("%.2fx", x)
    if (k ~ /pct$|occupancy|l2_hit/) return sprintf("%.0f%%", x)
    if (k == "time" || k ~ /_coal$/ || k == "active") return sig(x)
    return x >= 1e9 ? sig(x / 1e9) "G" : x >= 1e6 ? sig(x / 1e6) "M" : x >= 1e4 ? sig(x / 1e3) "k" : sprintf("%d", x)
}
function sig(x) { return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : x >= 0.01 ? sprintf("%.2f", x) : sprintf("%.2g", x) }
function unit_of(k) { return k == "time" ? " (ms)" : "" }
# the --analyze count beside a counter (chapter 10's steps 1-3), or ""
function analysed(s, k,    m) {
    if (k == "active") { m = an[snum[s], sn[s], "efficiency: committed / consumed"]; return m == "" ? "" : 32 * m }
    if (k == "requests") {
        m = an[snum[s], sn[s], "global memory requests of the tree"]
        if (m == "") m = an[snum[s], sn[s], "global memory requests: loads; *output"]
        return m
    }
    return ""
}
END {
    printf "gpu = %s\n", q(gpu)
    t = chapter; sub(/^ch/, "", t); n_ = t; sub(/-.*/, "", n_); sub(/^[0-9]+-/, "", t); gsub(/-/, " ", t)
    printf "chaptitle = %s\n", q("Chapter " n_ ", " t)
    # the steps by number, and their sizes for the note
    for (i = 2; i <= ns; i++)
        for (j = i; j > 1 && snum[j] < snum[j - 1]; j--) {
            x = snum[j]; snum[j] = snum[j - 1]; snum[j - 1] = x
            x = sname[j]; sname[j] = sname[j - 1]; sname[j - 1] = x
            x = sn[j]; sn[j] = sn[j - 1]; sn[j - 1] = x
            for (name in c) { x = v[j, name]; v[j, name] = v[j - 1, name]; v[j - 1, name] = x }
        }
    names = ""
    for (s = 1; s <= ns; s++) {
        names = names (s > 1 ? ", " : "") snum[s] " " folder(sname[s])
        if (!(sn[s] in sizes)) { sizes[sn[s]] = snum[s]; sizeorder[++nsz] = sn[s] } else sizes[sn[s]] = sizes[sn[s]] " " snum[s]
    }
    sizetext = ""
    for (i = 1; i <= nsz; i++)
        sizetext = sizetext (i > 1 ? "; " : "") "n = " pow2(sizeorder[i]) (nsz > 1 ? " (steps " sizes[sizeorder[i]] ")" : "")
    note = wrap("Steps: " names ". " sizetext ". Nsight Compute" (ncu != "" ? " (" ncu ")" : "") \
                " over one timed run of each step (make profile-collect" (date != "" ? ", " substr(date, 1, 10) : "") ").", 150)
    printf "note = %s\nnotelines = %d\n", gq(note), gsub(/\\n/, "&", note) + 1
    p = 0
    for (k = 1; k <= np; k++) {
        f = sprintf("%s/p%02d.dat", dir, ++p)
        printf "" > f
        nb = top = two = 0
        xt = ""
        for (s = 1; s <= ns; s++) {
            if (snum[s] < plo[k] || snum[s] > phi[k]) continue
            a = counter(s, pkey[k])
            b = chapter ~ /^ch10/ ? analysed(s, pkey[k]) : ""
            if (a == "" && b == "") continue
            if (b != "") two = 1
            if (a + 0 > top) top = a + 0
            if (b + 0 > top) top = b + 0
            row[nb] = nb " " (a == "" ? "?" : a) " " (b == "" ? "?" : b) " " dq(short(pkey[k], a)) " " \
                      dq(b == "" ? "" : (pkey[k] == "active" ? sprintf("%.1f", b) : b))
            va[nb] = a; vb[nb] = b
            xt = xt (nb ? ", " : "") "\"" snum[s] "\" " nb
            nb++
        }
        # where each label goes: above its bar, and two labels of one step that would touch (their
        # bars within a label's height of each other) one above the other
        for (i = 0; i < nb; i++) {
            ya = va[i] + 0; yb = vb[i] + 0
            if (va[i] != "" && vb[i] != "" && (ya - yb < 0.1 * top && yb - ya < 0.1 * top)) {
                if (ya >= yb) ya = yb + 0.1 * top; else yb = ya + 0.1 * top
            }
            printf "%s %s %s\n", row[i], ya, yb > f
        }
        close(f)
        if (nb == 0) { p--; continue }
        printf "file%d = %s\ntitle%d = %s\ntop%d = %s\nnbars%d = %d\ntwo%d = %d\nxtics%d = %s\nyformat%d = %s\n", p, q(f), p,
               q(label[pkey[k]] unit_of(pkey[k])), p, (top > 0 ? top : 1), p, nb, p, two, p, q(xt), p, q(top >= 1e4 ? "%.1s%c" : "%g")
        if (two) analysis = 1
    }
    printf "npanels = %d\nanalysis = %d\n", p, analysis
}
