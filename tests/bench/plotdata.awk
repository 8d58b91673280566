# plotdata.awk - the reading of one benchmark CSV (bench.sh) into rows, the small helpers of
# every chart (quoting, params tokens, sizes), and the choice of the chart whose data END writes:
# the data files and gnuplot variables of one chart (plots.sh runs tests/bench/<what>.gp with
# them). The rest is in the files run after it (awk -f tokens.awk -f plotdata.awk -f ... CSV, in
# this order: plots.sh's plotdata list); functions only:
#   plotdata-series.awk    the steps' names and colours, the series (a line or bar each) and
#                          their styles and legends, numbers as the charts print them
#   plotdata-ladder.awk    the throughput and ladder charts (and the ladders' sizes, for plan)
#   plotdata-params.awk    the params chart
#   plotdata-multigpu.awk  the phases, gpus and speedup charts
#   plotdata-counts.awk    the counts chart (its rows, the analysis CSV's, are read here)
# Variables (-v):
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
