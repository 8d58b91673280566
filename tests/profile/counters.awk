# counters.awk - the profile's rows in the lab's words, for every script that shows them (the
# table of make profile, the guides' markdown, the charts, gpu-check.sh): loaded with -f before the
# script that uses it. That script fills v[S, column] with a step's "*" row of the profile CSV (S:
# its own index for the step) and sets have[S] = 1; then counter(S, K) is the number of row K
# ("" when the step has not those counters) and shown[S, K] how to print it. The keys, in the
# table's order, are keys[1..nkeys]; label[K] says what each is. steps.conf's lesson= names them
# (and l2_x: both L2 rows; kernels: the time per kernel). Two keys are not rows of the table but
# serve the charts and checks: l2_x (L2 read + written) and requests (loads + stores).
function counters_init() {
    nkeys = split("launches time active inst ld_req ld_coal st_req st_coal dram_read_x dram_write_x " \
                  "l2_read_x l2_write_x dram_pct gbs bank atomics atom_shared occupancy l2_hit", keys, " ")
    label["launches"] = "kernel launches in one run"
    label["time"] = "time of one run, its kernels added"
    label["active"] = "active threads per warp instruction (32: none idle)"
    label["inst"] = "warp instructions executed"
    label["ld_req"] = "global load requests (one per warp-wide load)"
    label["ld_coal"] = "sectors per load request (4: coalesced 4-byte loads)"
    label["st_req"] = "global store requests"
    label["st_coal"] = "sectors per store request (4: coalesced)"
    label["dram_read_x"] = "DRAM read, x the minimum"
    label["dram_write_x"] = "DRAM written, x the minimum"
    label["l2_read_x"] = "read through L2 from the SMs, x the minimum"
    label["l2_write_x"] = "written through L2 from the SMs, x the minimum"
    label["dram_pct"] = "DRAM bandwidth used, % of its peak"
    label["gbs"] = "effective bandwidth (the bytes that must move / time)"
    label["l2_x"] = "through L2 from the SMs, read + written, x the minimum"
    label["requests"] = "global memory requests (loads + stores)"
    label["bank"] = "shared-memory bank conflicts (loads + stores)"
    label["atomics"] = "global atomics (requests)"
    label["atom_shared"] = "shared-memory atomics (warp instructions)"
    label["occupancy"] = "achieved occupancy, % of the SM's warp slots"
    label["l2_hit"] = "L2 hit rate, %"
}
function has(s, name) { return ((s, name) in v) && v[s, name] != "" }
function num(s, name) { return v[s, name] + 0 }
# counter(s, k): the number of row k for step s, or ""; shown[s, k] how the table prints it
function counter(s, k,    x, mn, by, what) {
    shown[s, k] = ""
    if (!have[s])
        return ""
    if (k == "launches") x = num(s, "launches")
    else if (k == "time") { if (!has(s, "time_ns")) return ""; x = num(s, "time_ns") / 1e6 }
    else if (k == "active") { if (!has(s, "inst") || num(s, "inst") == 0) return ""; x = num(s, "thread_inst") / num(s, "inst") }
    else if (k == "inst" || k == "ld_req" || k == "st_req") { if (!has(s, k)) return ""; x = num(s, k) }
    else if (k == "requests") { if (!has(s, "ld_req") || !has(s, "st_req")) return ""; x = num(s, "ld_req") + num(s, "st_req") }
    else if (k == "ld_coal" || k == "st_coal") {
        what = substr(k, 1, 2)
        if (!has(s, what "_req") || num(s, what "_req") == 0) return ""
        x = num(s, what "_sect") / num(s, what "_req")
    } else if (k ~ /_x$/) {
        by = k ~ /^dram/ ? "dram" : "l2"
        what = k ~ /read/ ? "read" : "write"
        if (k == "l2_x") {
            if (!has(s, "l2_read") || !has(s, "l2_write")) return ""
            mn = num(s, "min_read") + num(s, "min_write")
            x = num(s, "l2_read") + num(s, "l2_write")
        } else {
            if (!has(s, by "_" what)) return ""
            mn = num(s, "min_" what)
            x = num(s, by "_" what)
        }
        shown[s, k] = mn > 0 ? sprintf("%.2fx (%s)", x / mn, bytes(x)) : bytes(x)
        return mn > 0 ? x / mn : x
    } else if (k == "gbs") {
        if (!has(s, "time_ns") || num(s, "time_ns") == 0 || num(s, "min_read") + num(s, "min_write") == 0) return ""
        x = (num(s, "min_read") + num(s, "min_write")) / num(s, "time_ns")
        shown[s, k] = sprintf("%.0f GB/s", x)
        return x
    } else if (k == "dram_pct" || k == "occupancy" || k == "l2_hit") { if (!has(s, k)) return ""; x = num(s, k) }
    else if (k == "bank") { if (!has(s, "bank_ld")) return ""; x = num(s, "bank_ld") + num(s, "bank_st") }
    else if (k == "atomics") { if (!has(s, "atom")) return ""; x = num(s, "atom") + num(s, "red") }
    else if (k == "atom_shared") { if (!has(s, k)) return ""; x = num(s, k) }
    else return ""
    if (k == "time") shown[s, k] = ms(x)
    else if (k == "active" || k ~ /_coal$/) shown[s, k] = sprintf("%.1f", x)
    else if (k == "dram_pct" || k == "occupancy" || k == "l2_hit") shown[s, k] = sprintf("%.0f %%", x)
    else shown[s, k] = count(x)
    return x
}
function count(x) {
    if (x < 1e4) return sprintf("%d", x)
    if (x < 1e6) return sprintf("%.1f k", x / 1e3)
    if (x < 1e9) return sprintf("%.2f M", x / 1e6)
    return sprintf("%.2f G", x / 1e9)
}
function bytes(x) {
    if (x < 1e3) return sprintf("%d B", x)
    if (x < 1e6) return sprintf("%.1f kB", x / 1e3)
    if (x < 1e9) return sprintf("%.1f MB", x / 1e6)
    return sprintf("%.2f GB", x / 1e9)
}
function ms(x) { return x >= 100 ? sprintf("%.0f ms", x) : x >= 1 ? sprintf("%.2f ms", x) : x >= 0.01 ? sprintf("%.4f ms", x) : sprintf("%.2f us", x * 1e3) }
