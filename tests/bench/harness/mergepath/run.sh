#!/bin/bash
# run.sh - tests/bench/harness/mergepath on one GPU: the ladder of ch12 step 6's and ch13 step
# 8's ideas, built from the steps' own sources (Makefile, ladder.cuh).
#   ./run.sh            builds $B/gpu/ladder (make -j ladder: no CUB, about 15 s
#                       on 16 cores) and runs every variant on the same inputs: merge
#                       keys and pairs at 2^27 + 2^27, sort keys and pairs at 2^26,
#                       every output checked (about 60-90 s on an H100)
#   ./run.sh --speed    also builds the harness with CUB and runs the full steps
#                       beside CUB and a device copy (add about 2 minutes)
# Everything it prints goes to ONE file, $OUT/mergepath-ladder.txt ($OUT unset:
# build/), and the table comes last. Exit 1 when a build failed or an output was
# wrong, 3 with no GPU.
cd "$(dirname "$0")" || exit 2
B=../../../../build/harness-mergepath # the build outputs, under the lab's build/
export NCCL_NVLS_ENABLE=0
speed=0
for a in "$@"; do
    case $a in
    --speed) speed=1 ;;
    *) echo "usage: $0 [--speed]"; exit 2 ;;
    esac
done
out_dir=${OUT:-$B}
mkdir -p "$out_dir" $B
log=$out_dir/mergepath-ladder.txt
start=$(date +%s)
targets=ladder
[ $speed = 1 ] && targets="ladder harness"
{
    echo "== tests/bench/harness/mergepath/run.sh $*: $(date -u +%FT%TZ), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n1)"
    echo "== build: make -j$(nproc) $targets"
} >"$log"
if ! make -j"$(nproc)" $targets >$B/make.log 2>&1; then
    tail -n 40 $B/make.log | tee -a "$log"
    echo "RESULT: BUILD FAILED ($B/make.log)" | tee -a "$log"
    exit 1
fi
echo "== built in $(($(date +%s) - start)) s" | tee -a "$log"
status=0
# the output goes into the log as it comes: a run stopped from outside still leaves what it measured
timeout 200 $B/gpu/ladder 2>&1 | tee $B/ladder.out >>"$log"
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] || status=$rc # 124: past its 200 s
: >$B/speed.out
if [ $speed = 1 ]; then
    timeout 300 $B/gpu/harness --speed 2>&1 | tee $B/speed.out >>"$log"
    rc=${PIPESTATUS[0]}
    [ "$rc" = 0 ] || [ "$status" != 0 ] || status=$rc
fi
{
    echo
    echo "==================== SUMMARY (tests/bench/harness/mergepath, $(($(date +%s) - start)) s) ===================="
    head -n 1 $B/ladder.out
    grep -h "^FAIL" $B/ladder.out $B/speed.out 2>/dev/null
    [ $speed = 1 ] && sed -n '/^==== speed/,$p' $B/speed.out
    sed -n '/^==== ladder/,$p' $B/ladder.out
    if [ "$status" = 0 ]; then echo "RESULT: PASS (every output checked; the whole log: $log)"
    else echo "RESULT: FAIL (exit $status; see FAIL lines above and $log)"; fi
} | tee -a "$log"
[ "$status" = 0 ] || exit 1
exit 0
