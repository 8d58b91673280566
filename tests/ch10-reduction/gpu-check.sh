#!/usr/bin/env bash
# Temporary: one device call for chapter 10. Logs -> $OUT/ch10-logs.tgz, summary -> $OUT/summary.txt
set -uo pipefail
out=${OUT:-build/gpucheck}; mkdir -p "$out"; L=build/gpulogs; rm -rf $L; mkdir -p $L
t0=$SECONDS
log() { echo "[$((SECONDS - t0))s] $*" | tee -a $L/progress.log; }
finish() { tar czf "$out/ch10-logs.tgz" -C build gpulogs; cp $L/progress.log "$out/summary.txt"; }
trap finish EXIT
trap 'exit 143' TERM
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader >$L/gpu.txt 2>&1; nvcc --version | tail -1 >>$L/gpu.txt
sol=(solutions/ch10-reduction/step*); ex=(ch10-reduction/step*)
targets=(); for s in "${sol[@]}" "${ex[@]}"; do targets+=("build/$s/run" "build/$s/test"); done
make -j16 -k "${targets[@]}" >$L/build.log 2>&1; log "build rc=$? warnings=$(grep -ci 'warning' $L/build.log)"
timeout 170 bash tests/run-suites.sh suites build/solutions/ch10-reduction/step*/test >$L/suites.log 2>&1
log "suites rc=$?"; grep -E 'Synthesis|passed|!!' $L/suites.log >>$L/progress.log
for s in "${sol[@]}"; do echo "\$ build/$s/run"; timeout 60 build/$s/run; echo "rc=$?"; done >$L/runs.log 2>&1
log runs; grep -E '^(PASS|FAIL)|rc=|rror' $L/runs.log >>$L/progress.log
for s in 1 2 3; do d=$(ls -d solutions/ch10-reduction/step$s-*); echo "\$ build/$d/run --analyze"; timeout 30 build/$d/run --analyze; echo "rc=$?"; done >$L/analyze.log 2>&1
log "analyze"
# mutants, in parallel (their shared objects are built above)
for f in tests/mutants/ch10-reduction/*.sed; do
    (timeout 240 bash tests/mutants.sh "$f" >"$L/mutant-$(basename "$f" .sed).log" 2>&1) &
done
# meanwhile: racecheck on steps 6 and 7
SANITIZE_TOOLS=racecheck timeout 150 bash tests/sanitize.sh solutions/ch10-reduction/step6-warp-volatile solutions/ch10-reduction/step7-warp-sync >$L/racecheck.log 2>&1
log "racecheck rc=$?"; cat $L/racecheck.log >>$L/progress.log
cp build/solutions/ch10-reduction/step6-warp-volatile/sanitize-racecheck-0.log $L/step6-racecheck-full.log 2>/dev/null
timeout 90 bash tests/run-suites.sh exercises build/ch10-reduction/step*/test >$L/exercises.log 2>&1
log "exercises rc=$?"; cat $L/exercises.log >>$L/progress.log
wait
log "mutants"; grep -h -E '^(caught|unprovable|!!)' $L/mutant-*.log >>$L/progress.log
# measurements (after the mutants, so the GPU is not shared)
r="timeout 25 build/solutions/ch10-reduction"
{
    for c in 8 1; do for n in 2^24 2^20; do
        $r/step7-warp-sync/run -n $n --coarsen $c --reps 50
        $r/step6-warp-volatile/run -n $n --coarsen $c --reps 50
        $r/step5-coarsened/run -n $n --coarsen $c --reps 50
    done; done
    $r/step4-segmented/run --reps 50
    for c in 1 2 4 8 16 32 64; do $r/step5-coarsened/run --coarsen $c --reps 30; done
    for k in "sum int" "max int" "min float"; do set -- $k; $r/step7-warp-sync/run --op $1 --type $2 --reps 30; done
    $r/step7-warp-sync/run --block 256 --reps 50
    $r/step5-coarsened/run --dist uniform -n 1000003,2^26
} >$L/measure.log 2>&1
log "measure"; grep -cE '^PASS' $L/measure.log >>$L/progress.log; grep -E '^FAIL' $L/measure.log >>$L/progress.log
timeout $((400 - (SECONDS - t0) > 10 ? 400 - (SECONDS - t0) : 10)) bash tests/sanitize.sh "${sol[@]}" >$L/sanitize-all.log 2>&1
log "sanitize-all rc=$?"; grep -v '^clean' $L/sanitize-all.log >>$L/progress.log; grep -c '^clean' $L/sanitize-all.log >>$L/progress.log
