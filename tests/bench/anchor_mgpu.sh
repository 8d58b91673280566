#!/usr/bin/env bash
# anchor_mgpu.sh - the multi-GPU anchor as a bench baseline: runs the straightforward CUB + NCCL
# sample sort (../shared/anchors/mgpu_anchor.cu, not the lab's code: a reference point, built by
# tests/bench/bench.mk where that file is, ANCHORS= names its folder) on every visible GPU, once per
# size of -n (powers of two), and prints its figures as ./run's --csv lines: the sort as
# "anchor:mgpu" (its phases as ms_* tokens) and its equal-chunk all-to-all as "anchor:alltoall".
#   build/bench/anchor_mgpu -n 2^28,2^30 [--reps R] [--csv] [-q]   (the anchor takes 5 runs itself)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${ANCHOR_BIN:-$here/mgpu_anchor.bin}
sizes="" csv=0
while [ $# -gt 0 ]; do
    case $1 in
    -n) sizes=$2; shift ;;
    --reps) shift ;;
    --csv) csv=1 ;;
    -q | --quiet) ;;
    -h | --help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "anchor_mgpu: unknown option '$1'" >&2; exit 2 ;;
    esac
    shift
done
[ -x "$bin" ] || { echo "anchor_mgpu: $bin is not built (the anchor's source was not found at build time)" >&2; exit 2; }
[ -n "$sizes" ] || sizes=$((1 << 30))
nvidia-smi -L >/dev/null 2>&1 || { echo "anchor_mgpu: no NVIDIA GPU visible" >&2; exit 3; }
[ "$csv" = 1 ] && echo "status,step,params,n,seed,median_ms,spread,GB_per_s,Gelem_per_s"
status=0
for n in ${sizes//,/ }; do
    k=0
    while (((1 << k) < n)); do k=$((k + 1)); done
    if (((1 << k) != n)); then echo "anchor_mgpu: -n $n: the anchor takes powers of two" >&2; exit 2; fi
    out=$(NCCL_NVLS_ENABLE=0 "$bin" "$k" 2>&1) || { echo "$out" >&2; exit 4; }
    awk -v n="$n" '
        /^verify:/ { pass = $2 == "PASS" ? "PASS" : "FAIL" }
        /^all-to-all/ { for (i = 1; i <= NF; i++) if ($i == "ms") a2a = $(i - 1) }
        /^sample sort G=/ {
            split($3, g, "="); gpus = g[2]
            for (i = 1; i <= NF; i++) if ($i == "ms") ms = $(i - 1)
            line = $0; sub(/.*\[/, "", line); sub(/\].*/, "", line); gsub(/ \| /, "|", line)
            np = split(line, part, "|")
            for (i = 1; i <= np; i++) {
                m = split(part[i], w, " "); val = w[m]; name = w[1]; tokens = tokens " ms_" name "=" val
            }
        }
        END {
            if (ms == "") exit 1
            printf "%s,anchor:mgpu,gpus=%s dist=uniform type=uint keys%s,%d,7,%s,0,%.2f,%.4f\n", pass, gpus, tokens, n, ms,
                   8.0 * n / (ms * 1e6), n / (ms * 1e6)
            if (a2a != "")
                printf "PASS,anchor:alltoall,gpus=%s keys,%d,7,%s,0,%.2f,%.4f\n", gpus, n, a2a, 4.0 * n * (gpus - 1) / gpus / gpus / (a2a * 1e6), n / (a2a * 1e6)
        }' <<<"$out" || { echo "anchor_mgpu: could not read the anchor's output:" >&2; echo "$out" >&2; exit 4; }
    grep -q '^verify: PASS' <<<"$out" || status=1
done
exit $status
