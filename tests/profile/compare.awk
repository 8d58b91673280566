# compare.awk - gpu-check.sh's test of one lesson (with counters.awk: awk -f counters.awk -f
# compare.awk A.csv B.csv): step B's counter k is below (rel=lt) or above (rel=gt) step A's.
# Variables: k, rel, a, b (the steps' names), why (what the README says). Prints ok or FAIL with
# both figures; exit 1 when it moved the other way or a step lacks the counter.
BEGIN { FS = ","; counters_init() }
FNR == 1 { file++; delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["kernel"] == "*" { for (n in c) v[file, n] = $c[n]; have[file] = 1 }
END {
    x = counter(1, k); y = counter(2, k)
    ok = x != "" && y != "" && (rel == "lt" ? y < x : y > x)
    printf "%-4s %s: %s %s, %s %s (%s): %s\n", (ok ? "ok" : "FAIL"), (k in label ? label[k] : k), b, shown[2, k],
           (rel == "lt" ? "below" : "above"), a, shown[1, k], why
    exit !ok
}
