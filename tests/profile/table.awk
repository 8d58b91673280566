# table.awk - make profile's table (with counters.awk: awk -f counters.awk -f table.awk ...): one
# step's counters beside another step's, in the lab's words, and the step's time per kernel. The
# first file holds the step's profile rows (profile CSV: a column line, a row per kernel and a "*"
# row for the whole run), the second, optional, the other step's. Variables (-v): lesson (the row
# keys of steps.conf's lesson=, marked with ">"), this_name, prev_name (the columns' titles),
# prev_note (where the second file's figures come from). A row shows when either step has it.
BEGIN {
    FS = ","
    counters_init()
    nl = split(lesson, lk, ",")
    for (i = 1; i <= nl; i++) {
        marked[lk[i]] = 1
        if (lk[i] == "l2_x") # the L2 traffic as a whole: both of its rows
            marked["l2_read_x"] = marked["l2_write_x"] = 1
    }
}
FNR == 1 { file++; delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
/^#/ { next }
{
    if ($c["kernel"] != "*") {
        if (file == 1) {
            kname[++nk] = $c["kernel"]; klaunch[nk] = $c["launches"]; kns[nk] = $c["time_ns"]
        }
        next
    }
    for (name in c)
        v[file, name] = $c[name]
    have[file] = 1
}
function change(a, b) {
    if (a == "" || b == "")
        return ""
    if (a == b)
        return "same"
    if (b == 0)
        return ""
    return sprintf("x%.2f", a / b)
}
END {
    if (!have[1]) {
        print "table.awk: no \"*\" row (the whole run) in the step's profile rows" > "/dev/stderr"
        exit 1
    }
    printf "  %-54s %20s", "", this_name
    if (have[2])
        printf " %20s %8s", prev_name, "change"
    printf "\n"
    for (r = 1; r <= nkeys; r++) {
        k = keys[r]
        a = counter(1, k)
        b = have[2] ? counter(2, k) : ""
        if (a == "" && b == "")
            continue
        printf "%s %-54s %20s", (marked[k] ? ">" : " "), label[k], (a == "" ? "-" : shown[1, k])
        if (have[2])
            printf " %20s %8s", (b == "" ? "-" : shown[2, k]), change(a, b)
        printf "\n"
    }
    if (nl > 0)
        printf "  (> the counters that show this step's lesson: its README says what to see in them)\n"
    if (have[2] && prev_note != "")
        printf "  (%s: %s)\n", prev_name, prev_note
    if (nk > 1 || marked["kernels"]) {
        total = 0
        for (i = 1; i <= nk; i++)
            total += kns[i]
        printf "%s time per kernel of this step:\n", (marked["kernels"] ? ">" : " ")
        for (i = 1; i <= nk; i++)
            printf "    %-40s %5d launch%s %12s %5.1f %%\n", kname[i], klaunch[i], (klaunch[i] == 1 ? " " : "es"),
                   ms(kns[i] / 1e6), (total > 0 ? 100 * kns[i] / total : 0)
    }
}
