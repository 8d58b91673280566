# join.awk - one chapter's raw rows (bench.sh) -> its CSV, with the two ratios.
# Files: the map (step TAB the CUB name prefix it is compared with, from the vs lines of
# sweeps.conf), then the raw file: # lines, and rows
#   sweep,PASS,step,params,n,seed,median_ms,spread,gbs,gelems
# Out: the # lines, the column line, then one line per row:
#   chapter,step,params,n,median_ms,spread,gbs,gelems,ratio_cub,ratio_copy,sweep,seed
# ratio_cub: the CUB row's median time / this row's (1 = as fast as CUB). The CUB row is the
#   fastest of those whose name starts with the step's prefix, at the same n, and whose params
#   tokens all appear among the step's (op=sum type=float; m=.. n=.. dist=uniform; dist=uniform
#   type=uint keys), but for CUB's own knobs (cub_work, tokens.awk: offsets=64): the same kind
#   of work on the same input, in CUB's fastest form measured. Empty for CUB and the copy.
# ratio_copy: this row's GB/s / the copy's GB/s at the same n (1 = the copy ceiling).
BEGIN { FS = OFS = "," }
FILENAME == ARGV[1] { split($0, m, "\t"); prefix[m[1]] = m[2]; next }
/^#/ { print; next }
NF >= 10 {
    r = ++rows
    sweep[r] = $1; step[r] = $3; params[r] = $4; n[r] = $5; seed[r] = $6
    ms[r] = $7; spread[r] = $8; gbs[r] = $9; gelems[r] = $10
    if ($3 == "copy" && !($5 in copy))
        copy[$5] = $9
}
# A row of pairs is compared with CUB's pairs alone (CUB's merge keys row names no `keys`, so its
# params sit inside a pairs row's too, and as the faster it would win).
function pairs(p) { return (" " p " ") ~ / pairs / }
function ratio(x, y) { return y + 0 > 0 ? sprintf("%.4f", x / y) : "" }
END {
    print "chapter", "step", "params", "n", "median_ms", "spread", "gbs", "gelems", "ratio_cub", "ratio_copy", "sweep", "seed"
    for (r = 1; r <= rows; r++) {
        rc = ""; best = 0
        if (step[r] !~ /^cub::/ && step[r] != "copy" && (step[r] in prefix))
            for (c = 1; c <= rows; c++)
                if (n[c] == n[r] && step[c] ~ /^cub::/ && index(step[c], prefix[step[r]]) == 1 &&
                    has_all(cub_work(params[c]), params[r]) && pairs(params[c]) == pairs(params[r]) && ms[c] + 0 > 0 &&
                    (best == 0 || ms[c] + 0 < best)) {
                    best = ms[c] + 0
                    rc = ratio(ms[c], ms[r])
                }
        print chapter, step[r], params[r], n[r], ms[r], spread[r], gbs[r], gelems[r], rc,
              (n[r] in copy) ? ratio(gbs[r], copy[n[r]]) : "", sweep[r], seed[r]
    }
}
