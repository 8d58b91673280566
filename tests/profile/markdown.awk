# markdown.awk - a chapter's profile as the guide's markdown table (with counters.awk: awk -f
# counters.awk -f markdown.awk LESSONS CSV): a row per step, its lesson's counters, the time of one
# run, its effective bandwidth and the DRAM bandwidth it used. LESSONS: "FOLDER<TAB>KEYS<TAB>N" lines
# (markdown.sh writes them from steps.conf) in the ladder's order; CSV: the chapter's profile CSV,
# or /dev/null: then every figure is the placeholder "(H100: TBD)", for the lead to fill.
BEGIN { FS = "\t"; counters_init(); tbd = "(H100: TBD)" }
FNR == 1 { file++ }
file == 1 { step[++ns] = $1; lesson[ns] = $2; size[ns] = $3; idx["solutions/" $1] = ns; next }
FNR == 1 || /^#/ || /^chapter,/ { if (/^chapter,/) { split($0, h, ","); for (i in h) c[h[i]] = i } next }
{
    split($0, f, ",")
    s = idx[f[c["step"]]]
    if (s == "" || f[c["kernel"]] != "*")
        next
    for (name in c)
        v[s, name] = f[c[name]]
    have[s] = 1
}
function plain(s) { sub(/ \(.*\)$/, "", s); return s } # a label without its note in brackets
function cell(s, k,    x) { x = counter(s, k); return have[s] ? (x == "" ? "-" : shown[s, k]) : tbd }
END {
    print "| step | n | the lesson's counters (`make profile`) | time of one run | effective bandwidth | DRAM bandwidth used |"
    print "| --- | --- | --- | --- | --- | --- |"
    for (s = 1; s <= ns; s++) {
        name = step[s]; sub(/.*\/step/, "", name); sub(/-/, " ", name)
        nk = split(lesson[s], lk, ",")
        text = ""
        for (i = 1; i <= nk; i++)
            if (lk[i] == "time" || lk[i] == "dram_pct") # they have their own columns
                continue
            else if (lk[i] in label)
                text = text (text == "" ? "" : "; ") plain(label[lk[i]]) ": " cell(s, lk[i])
            else if (lk[i] == "kernels")
                text = text (text == "" ? "" : "; ") "time per kernel: `make profile`"
        printf "| %s | %s | %s | %s | %s | %s |\n", name, size[s], text, cell(s, "time"), cell(s, "gbs"), cell(s, "dram_pct")
    }
}
