# plotdata.awk - one benchmark CSV (bench.sh) -> the data files and the gnuplot variables of
# one plot (plots.sh runs the .gp script with them). -v what=throughput|ladder|params|counts,
# dir=the folder for the data files. Prints gnuplot assignments (the vars file).
#   throughput: one file per series (size-sweep rows holding the focus tokens, and the copy):
#               "n gbs" lines after a header naming the series
#   ladder:     one line per series at its largest n: label, % of the copy ceiling, color,
#               ratio to CUB as text
#   params:     per swept option and size a panel, one file per step (x = the option's value
#               in params, y = GB/s) and a flat line per CUB row at that size
#   counts:     the analysis CSV (step,n,metric,measured,book,printed): one file per metric,
#               a line per step and N
BEGIN {
    FS = ","
    split("#0072b2 #e69f00 #009e73 #d55e00 #cc79a7 #56b4e9 #882255 #44aa99 #999933 #332288 #aa4499 #661100", pal, " ")
    split("#b2182b #5e3c99 #1b7837 #8c510a", cubpal, " ")
}
function q(s) { gsub(/'/, "''", s); return "'" s "'" } # a gnuplot single-quoted string
function has_all(tokens, params,    t, i, k) {
    k = split(tokens, t, " ")
    for (i = 1; i <= k; i++)
        if (index(" " params " ", " " t[i] " ") == 0)
            return 0
    return 1
}
function value_of(key, params,    t, i, k) { # params "a=1 b=2": value_of("b") = 2
    k = split(params, t, " ")
    for (i = 1; i <= k; i++)
        if (index(t[i], key "=") == 1)
            return substr(t[i], length(key) + 2)
    return ""
}
function kind_of(step) { return step == "copy" ? "copy" : step ~ /^cub::/ ? "cub" : "step" }
function short(step) { # solutions/ch12-merge/step5-tiled-exact -> step5-tiled-exact
    sub(/.*\//, "", step)
    return step == "copy" ? "copy (the ceiling)" : step
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
# series(step, params): a key per step, variant and kind of work; labels[key] its name
function series(step, params,    base, v, key) {
    base = short(step)
    v = value_of("variant", params)
    if (v != "")
        base = base " " v
    key = base SUBSEP signature(params)
    if (!(key in label)) {
        label[key] = base
        order[++nseries] = key
        sig[key] = signature(params)
        if (++nsig[base] > 1)
            clash[base] = 1
    }
    return key
}
# the final label: the kind of work added when one step ran several kinds
function name_of(key) { return clash[label[key]] ? label[key] " (" sig[key] ")" : label[key] }
# keys in display order: steps by name, then CUB, then the copy
function sort_series(    i, j, t) {
    for (i = 1; i <= nseries; i++)
        sorted[i] = order[i]
    for (i = 2; i <= nseries; i++)
        for (j = i; j > 1 && before(sorted[j], sorted[j - 1]); j--) {
            t = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = t
        }
}
function before(a, b,    ka, kb) {
    ka = kindrank[a]; kb = kindrank[b]
    if (ka != kb)
        return ka < kb
    return name_of(a) < name_of(b)
}
/^# gpu: / { gpu = substr($0, 8); next }
/^# focus: / { focus = substr($0, 10); next }
/^#/ || $1 == "chapter" || $1 == "step" { next }
what == "throughput" && $11 == "size" && ($2 == "copy" || has_all(focus, $3)) {
    k = series($2, $3)
    kindrank[k] = kind_of($2) == "step" ? 0 : kind_of($2) == "cub" ? 1 : 2
    rows[k] = rows[k] $4 " " $7 "\n"
    chapter = $1
}
what == "ladder" && $11 == "size" && $2 != "copy" && has_all(focus, $3) {
    k = series($2, $3)
    kindrank[k] = kind_of($2) == "step" ? 0 : 1
    if (!(k in top) || $4 + 0 > top[k] + 0) {
        top[k] = $4; pct[k] = 100 * $10; rcub[k] = $9
    }
    if ($4 + 0 > nmax)
        nmax = $4 + 0
    chapter = $1
}
what == "params" && $11 ~ /^param:/ {
    opt = substr($11, 7)
    p = opt SUBSEP $4
    if (!(p in panel)) {
        panel[p] = ++npanels
        popt[npanels] = opt; pn[npanels] = $4
    }
    k = series($2, $3)
    kindrank[k] = 0
    x = value_of(opt, $3)
    if (x != "")
        prow[panel[p], k] = prow[panel[p], k] x " " $7 "\n"
    if (!((panel[p], k) in pseen)) {
        pseen[panel[p], k] = 1
        pkeys[panel[p]] = pkeys[panel[p]] "\t" k
    }
    if (!(panel[p] in xmin) || x + 0 < xmin[panel[p]]) xmin[panel[p]] = x + 0
    if (!(panel[p] in xmax) || x + 0 > xmax[panel[p]]) xmax[panel[p]] = x + 0
    chapter = $1
}
what == "params" && $11 == "size" && $2 ~ /^cub::/ && has_all(focus, $3) {
    cubrow[$4] = cubrow[$4] $2 "\t" $7 "\n"
}
what == "counts" && NF >= 5 {
    if (!($3 in metric)) {
        metric[$3] = ++nmetrics
        mname[nmetrics] = $3
    }
    s = short($1)
    sub(/-.*/, "", s) # step1-simple -> step1
    crow[metric[$3]] = crow[metric[$3]] "\"" s "\\nN=" $2 "\" " $4 " " ($5 == "" ? "?" : $5) " " ($6 == "" ? "?" : $6) "\n"
}
END {
    if (gpu != "")
        printf "gpu = %s\n", q(gpu)
    if (chapter != "")
        printf "chapter = %s\n", q(chapter)
    printf "focus = %s\n", q(focus)
    if (what == "throughput" || what == "ladder")
        sort_series()
    if (what == "throughput") {
        files = kinds = colors = ""
        nstep = ncub = 0
        for (i = 1; i <= nseries; i++) {
            k = sorted[i]
            f = sprintf("%s/s%02d.dat", dir, i)
            printf "n \"%s\"\n%s", name_of(k), rows[k] > f
            close(f)
            kind = kindrank[k] == 0 ? "step" : kindrank[k] == 1 ? "cub" : "copy"
            color = kind == "step" ? pal[(nstep++ % 12) + 1] : kind == "cub" ? cubpal[(ncub++ % 4) + 1] : "#000000"
            files = files " " f; kinds = kinds " " kind; colors = colors " " color
        }
        printf "files = %s\nkinds = %s\ncolors = %s\n", q(files), q(kinds), q(colors)
    }
    if (what == "ladder") {
        f = dir "/ladder.dat"
        printf "" > f
        for (i = 1; i <= nseries; i++) {
            k = sorted[i]
            name = name_of(k) (top[k] + 0 < nmax ? " (n=" pow2(top[k]) ")" : "")
            printf "\"%s\" %.2f %d \"%s\"\n", name, pct[k], kindrank[k] == 0 ? 1 : 2,
                   rcub[k] == "" ? "" : sprintf("%.2fx CUB", rcub[k]) > f
        }
        close(f)
        printf "file = %s\nnmax = %s\nbars = %d\n", q(f), q(pow2(nmax)), nseries
    }
    if (what == "params") {
        printf "npanels = %d\n", npanels
        for (p = 1; p <= npanels; p++) {
            nk = split(substr(pkeys[p], 2), ks, "\t")
            files = kinds = colors = ""
            for (j = 1; j <= nk; j++) {
                f = sprintf("%s/p%d_%02d.dat", dir, p, j)
                printf "%s \"%s\"\n%s", popt[p], name_of(ks[j]), prow[p, ks[j]] > f
                close(f)
                files = files " " f; kinds = kinds " step"; colors = colors " " pal[((j - 1) % 12) + 1]
            }
            nc = split(cubrow[pn[p]], cl, "\n")
            for (j = 1; j < nc; j++) {
                split(cl[j], cv, "\t")
                f = sprintf("%s/p%d_cub%d.dat", dir, p, j)
                printf "%s \"%s\"\n%s %s\n%s %s\n", popt[p], cv[1], xmin[p], cv[2], xmax[p], cv[2] > f
                close(f)
                files = files " " f; kinds = kinds " cub"; colors = colors " " cubpal[((j - 1) % 4) + 1]
            }
            printf "files%d = %s\nkinds%d = %s\ncolors%d = %s\n", p, q(files), p, q(kinds), p, q(colors)
            printf "title%d = %s\nlogx%d = %d\n", p, q("--" popt[p] " at n = " pow2(pn[p])), p, popt[p] != "bits"
        }
    }
    if (what == "counts") {
        printf "npanels = %d\n", nmetrics
        for (m = 1; m <= nmetrics; m++) {
            f = sprintf("%s/c%02d.dat", dir, m)
            printf "run measured \"the book's formula\" \"the book prints\"\n%s", crow[m] > f
            close(f)
            printf "file%d = %s\ntitle%d = %s\n", m, q(f), m, q(mname[m])
        }
    }
}
