# report.awk - the figure to report for one `report` line of sweeps.conf: among the size-sweep
# rows of the listed steps at size n whose params hold every focus token, the fastest, with
# its ratio to CUB beside the target. Files: the step names, one per line; the chapter's CSV.
# -v n (a number), ntext (as written), target, glob, focus. Prints one "# report:" line.
BEGIN { FS = "," }
FILENAME == ARGV[1] { want[$0] = 1; next }
/^#/ || $1 == "chapter" { next }
$11 == "size" && ($2 in want) && $4 == n && has_all(focus, $3) && (best == "" || $8 + 0 > best + 0) {
    best = $8; step = $2; params = $3; rcub = $9; rcopy = $10
}
END {
    if (best == "") {
        printf "# report: %s at n=%s: no row (the sweep did not reach it)\n", glob, ntext
        exit
    }
    verdict = rcub == "" ? "no CUB row to compare with" : \
              sprintf("%.3f of CUB, target %s: %s", rcub, target, rcub + 0 >= target + 0 ? "met" : "NOT met")
    printf "# report: %s at n=%s: %s; %.0f%% of the copy ceiling; %s Gelem/s (%s)\n", step, ntext, verdict,
           100 * rcopy, best, params
}
