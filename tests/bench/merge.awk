# merge.awk - a fresh benchmark CSV merged into the committed one (tests/bench/plots.sh): no row of
# either is lost, and where both have a row of one measurement the newer run's wins.
#   awk -f tests/bench/merge.awk -v out=MERGED -v from=FRESH_PATH -v fresh_time=T COMMITTED FRESH
# A row's identity is the columns that say what was measured, those of step, params, n, sweep,
# metric and kernel the CSV has (its column line), the params less what a run measures (ms_<phase>=,
# waited=, bucket=, peak=): a quick bench's rows replace the committed rows of the same steps,
# parameters and sizes, and leave every other row as it was. The newer run is the one with the later
# "# date:" (the committed CSV's latest is its own or that of a "# merged:" line; a CSV without one,
# chapter 10's analysis, is dated fresh_time). The merged CSV keeps the committed # lines and adds
# one "# merged:" line (the fresh run's date and commit, what it replaced), the fresh run's
# "# skipped:" lines, and its "# report:" lines where they report a row (each in place of the
# committed report of that step and size). Prints what it did, and each row it replaced (ten at
# most), to stdout; exit 2 (nothing written) when the two CSVs' columns differ, 3 when the fresh CSV
# adds nothing.
BEGIN { FS = OFS = "," }
function measured(tok) { return tok ~ /^(ms_[A-Za-z0-9_]+|waited|bucket|peak)=/ }
function key_of(line,   f, k, i, j, t, nt, p, w) {
    split(line, f, ",")
    k = ""
    for (i = 1; i <= nkey; i++) {
        t = f[kcol[i]]
        if (kname[i] == "params") {
            nt = split(t, w, " "); p = ""
            for (j = 1; j <= nt; j++) if (w[j] != "" && !measured(w[j])) p = p (p == "" ? "" : " ") w[j]
            t = p
        }
        k = k SUBSEP t
    }
    return k
}
function report_subject(line,   s) { s = line; sub(/^# report: /, "", s); sub(/: .*/, "", s); return s }
function date_in(line) {
    if (match(line, /[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9:]+Z/)) return substr(line, RSTART, RLENGTH)
    return ""
}
FNR == 1 { file++ }
file == 1 && /^#/ {
    if ($0 ~ /^# report: /) { nrep_old++; rep_old[nrep_old] = $0 }
    else { nhead++; head[nhead] = $0 }
    if ($0 ~ /^# date: / || $0 ~ /^# merged: /) { d = date_in($0); if (d > old_date) old_date = d }
    if ($0 ~ /^# skipped: /) skipped_old[$0] = 1
    next
}
file == 1 && !cols_old { cols_old = $0; next }
file == 1 { nold++; old[nold] = $0; next }
file == 2 && /^#/ {
    if ($0 ~ /^# report: /) { if ($0 !~ /: no row/) { nrep_new++; rep_new[nrep_new] = $0; reported[report_subject($0)] = 1 } }
    else if ($0 ~ /^# skipped: /) { if (!($0 in skipped_old)) { nskip++; skip_new[nskip] = $0 } }
    else if ($0 ~ /^# date: /) new_date = date_in($0)
    else if ($0 ~ /^# commit: /) { new_commit = $0; sub(/^# commit: /, "", new_commit) }
    next
}
file == 2 && !cols_new { cols_new = $0; next }
file == 2 { nnew++; new[nnew] = $0; next }
END {
    if (cols_old != cols_new) {
        printf "  not merged: its columns differ from the committed CSV's (%s)\n", cols_new
        exit 2
    }
    nc = split(cols_old, c, ",")
    for (i = 1; i <= nc; i++)
        if (c[i] ~ /^(step|params|n|sweep|metric|kernel)$/) { nkey++; kcol[nkey] = i; kname[nkey] = c[i] }
    for (i = 1; i <= nc; i++) { col[c[i]] = i }
    if (new_date == "") new_date = fresh_time
    fresh_wins = new_date >= old_date
    for (r = 1; r <= nnew; r++) { k = key_of(new[r]); at_new[k] = r }
    for (r = 1; r <= nold; r++) { k = key_of(old[r]); in_old[k] = 1 }
    # the rows: the committed ones in their order (the newer run's row in place of an older one of the
    # same measurement), then the fresh rows no committed row measured, after the last of their step
    for (r = 1; r <= nold; r++) {
        k = key_of(old[r])
        if (k in at_new && fresh_wins && old[r] != new[at_new[k]]) {
            line[r] = new[at_new[k]]; nrepl++
            if (nrepl <= 10) shown[nrepl] = describe(old[r], new[at_new[k]])
        } else {
            line[r] = old[r]
            if (k in at_new && !fresh_wins) nstale++
        }
        split(line[r], f, ","); last_of[f[col["step"]]] = r
    }
    for (r = 1; r <= nnew; r++) {
        k = key_of(new[r]); if (k in in_old) continue
        split(new[r], f, ","); s = f[col["step"]]
        if (s in last_of) { after[last_of[s]] = after[last_of[s]] new[r] "\n" } else tail = tail new[r] "\n"
        nadded++
    }
    kept = nold - nrepl
    if (nrepl + nadded == 0) { printf "  nothing to merge: the committed CSV has each of its %d rows\n", nnew; exit 3 }
    summary = sprintf("%d rows measured on %s (commit %s) from %s: %d replace the committed rows of the same step, parameters and size, %d new; %d committed rows kept", \
        nnew, new_date, (new_commit == "" ? "unknown" : new_commit), from, nrepl, nadded, kept)
    if (!fresh_wins) summary = summary sprintf(" (this run is older than the committed rows of %s: its %d rows of a measurement they have were left out)", old_date, nstale)
    for (i = 1; i <= nhead; i++) print head[i] > out
    printf "# merged: %s; ratio_cub and ratio_copy of a row are against CUB and the copy of its own run\n", summary > out
    for (i = 1; i <= nskip; i++) print skip_new[i] > out
    for (i = 1; i <= nrep_old; i++) if (!(report_subject(rep_old[i]) in reported) || !fresh_wins) print rep_old[i] > out
    if (fresh_wins) for (i = 1; i <= nrep_new; i++) print rep_new[i] > out
    print cols_old > out
    for (r = 1; r <= nold; r++) { print line[r] > out; if (r in after) printf "%s", after[r] > out }
    printf "%s", tail > out
    close(out)
    print "  " summary
    for (i = 1; i <= nrepl && i <= 10; i++) print "    replaced " shown[i]
    if (nrepl > 10) printf "    ... and %d more\n", nrepl - 10
}
function describe(o, n,   a, b, what) {
    split(o, a, ","); split(n, b, ",")
    what = a[col["step"]]
    if ("params" in col && a[col["params"]] != "") what = what " (" substr(a[col["params"]], 1, 60) ")"
    if ("n" in col) what = what " n=" a[col["n"]]
    if ("sweep" in col) what = what " " a[col["sweep"]]
    if ("median_ms" in col) what = what ": " a[col["median_ms"]] " -> " b[col["median_ms"]] " ms"
    else if ("measured" in col) what = what " " a[col["metric"]] ": " a[col["measured"]] " -> " b[col["measured"]]
    return what
}
