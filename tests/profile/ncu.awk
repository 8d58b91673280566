# ncu.awk - Nsight Compute's raw page (ncu --csv --page raw) -> the profile CSV's rows of one run:
# one row per kernel (its launches added up, in the order the kernels first launch) and a "*" row
# for the whole run. Reads tests/profile/metrics.conf first, then ncu's output: lines that do not
# start with a quote (ncu's ==PROF== lines, the program's own output) are skipped; the first CSV
# line names the columns, the next (ID empty) gives their units, then one line per launch.
# Variables (-v): want (the short names to fill, comma-separated; the other columns stay empty),
# chapter, step, params, n, min_read, min_write (bytes: the least the run must read and write),
# header=1 to print the column line first. Exit 1 with the reason on stderr when the output holds
# no launch or lacks a wanted metric.
BEGIN { FS = "\n" }
FNR == 1 { file++ }
file == 1 {
    if ($0 ~ /^[ \t]*(#|$)/)
        next
    split($0, w, /[ \t]+/)
    names[++nm] = w[1]; metric[w[1]] = w[2]; how[w[1]] = w[3]
    next
}
!/^"/ { next }
{
    nf = fields($0, f)
    if (!ncols) { # the column line
        ncols = nf
        for (i = 1; i <= nf; i++)
            col[f[i]] = i
        if (!("Kernel Name" in col)) {
            print "ncu.awk: no \"Kernel Name\" column: not ncu's --page raw output" > "/dev/stderr"
            bad = 1; exit 1
        }
        split(want, wl, ",")
        for (i in wl)
            if (wl[i] != "") {
                if (!(wl[i] in metric)) {
                    print "ncu.awk: '" wl[i] "' is not in metrics.conf" > "/dev/stderr"
                    bad = 1; exit 1
                }
                if (!(metric[wl[i]] in col)) {
                    print "ncu.awk: ncu's output has no " metric[wl[i]] " (" wl[i] ")" > "/dev/stderr"
                    bad = 1; exit 1
                }
                wanted[wl[i]] = 1
            }
        next
    }
    if (f[1] == "") { # the units line
        for (m in wanted)
            unit[m] = f[col[metric[m]]]
        next
    }
    launch(f)
}
# fields(line, f): a line of ncu's CSV (every field quoted) -> f[1..n]; kernel names hold commas
function fields(line, f,    n) {
    sub(/\r$/, "", line)
    n = split(substr(line, 2, length(line) - 2), f, "\",\"")
    return n
}
function value(s) { gsub(/,/, "", s); return s } # "1,234" (a locale's thousands) -> 1234
function scale(m, u) { # a unit -> the factor to the profile CSV's unit (bytes, ns)
    if (how[m] == "sectors") return u ~ /^K/ ? 32000 : u ~ /^M/ ? 32e6 : 32
    if (u ~ /^(Kbyte|KB)$/) return 1e3
    if (u ~ /^(Mbyte|MB)$/) return 1e6
    if (u ~ /^(Gbyte|GB)$/) return 1e9
    if (u ~ /^(usecond|us)$/) return 1e3
    if (u ~ /^(msecond|ms)$/) return 1e6
    if (u ~ /^(second|s)$/) return 1e9
    return 1
}
# clean(name): "void cub::X::Kernel<...>(int, float *)" -> "Kernel"
function clean(s) {
    sub(/^void /, "", s)
    sub(/\(.*/, "", s)
    sub(/<.*/, "", s)
    sub(/.*::/, "", s)
    return s
}
function launch(f,    k, m, v, t, l2) {
    k = clean(f[col["Kernel Name"]])
    if (!(k in launches))
        order[++nk] = k
    launches[k]++
    nl++
    t = ("time_ns" in wanted) ? value(f[col[metric["time_ns"]]]) * scale("time_ns", unit["time_ns"]) : 1
    l2 = 0
    if ("l2_read" in wanted) l2 += value(f[col[metric["l2_read"]]])
    if ("l2_write" in wanted) l2 += value(f[col[metric["l2_write"]]])
    if (!("l2_read" in wanted) && !("l2_write" in wanted)) l2 = t
    for (m in wanted) {
        v = value(f[col[metric[m]]])
        if (v == "" || v ~ /[^0-9.eE+-]/) { # n/a: ncu could not measure it here
            na[m] = 1
            continue
        }
        if (how[m] == "pct") {
            wsum[k, m] += v * t; wt[k, m] += t
        } else if (how[m] == "hit") {
            wsum[k, m] += v * l2; wt[k, m] += l2
        } else
            tot[k, m] += v * scale(m, unit[m])
    }
}
function cell(k, m,    i, s, w) { # the value of metric m for kernel k ("*": the whole run)
    if (!(m in wanted) || (m in na))
        return ""
    if (how[m] == "pct" || how[m] == "hit") {
        if (k != "*")
            return wt[k, m] > 0 ? sprintf("%.2f", wsum[k, m] / wt[k, m]) : sprintf("%.2f", 0)
        s = w = 0
        for (i = 1; i <= nk; i++) { s += wsum[order[i], m]; w += wt[order[i], m] }
        return w > 0 ? sprintf("%.2f", s / w) : sprintf("%.2f", 0)
    }
    if (k != "*")
        return sprintf("%.0f", tot[k, m])
    s = 0
    for (i = 1; i <= nk; i++)
        s += tot[order[i], m]
    return sprintf("%.0f", s)
}
function row(k, nlaunch,    i, s) {
    s = chapter "," step "," params "," n "," k "," nlaunch
    for (i = 1; i <= nm; i++)
        s = s "," cell(k, names[i])
    print s "," min_read "," min_write
}
END {
    if (bad)
        exit 1
    if (!nl) {
        print "ncu.awk: ncu's output holds no profiled launch" > "/dev/stderr"
        exit 1
    }
    if (header) {
        s = "chapter,step,params,n,kernel,launches"
        for (i = 1; i <= nm; i++)
            s = s "," names[i]
        print s ",min_read,min_write"
    }
    for (i = 1; i <= nk; i++)
        row(order[i], launches[order[i]])
    row("*", nl)
}
