#!/usr/bin/env bash
# tests/bench/harness/samplesort/run.sh - the multi-GPU harness of ch13 steps 9 and 10 (the sample sort
# across GPUs), built from the step's own sources (SAMPLESORT_STEP: solutions/ch13-sort/step10-sample-sort-tuned
# by default, or step9-sample-sort) by the lab's Makefile.
# It runs on every visible GPU, unchanged on G GPUs:
#   1. the step's suite (build/<step>/test): the plan on the CPU for 1-64 simulated ranks, the
#      phases on one GPU for several ranks sharing it, and ./run in every launch form it can
#      (--ranks G, --gpus 1, mpirun -np 1; --gpus G and mpirun -np G with several GPUs);
#   2. on G GPUs (G > 1): ./run --gpus G and mpirun -np G, every distribution, keys and pairs;
#   3. the breakdown: 2^28 and 2^30 keys, step 7's sort and CUB as the local sort (--local). On
#      one GPU: one rank (--gpus 1: the local sort of the whole input) and four ranks sharing it
#      (--ranks 4: every phase runs, the exchange by device copies); on G GPUs: --gpus G with one
#      chunk per rank and four (--chunks). Then pairs, and the largest size here (2^32 keys, CUB),
#      each in the form where every phase runs.
# Summary table LAST; exit status non-zero when anything failed. About 60-90 s on one H100 once
# built, before --ranks 4 came in (not timed since; the build: about a minute with 16 cores).
#
#   bash tests/bench/harness/samplesort/run.sh          build, then run everything
#   bash tests/bench/harness/samplesort/run.sh build    build only (no GPU needed)
#   GPUS=2 bash tests/bench/harness/samplesort/run.sh   use 2 of the visible GPUs
# Logs: build/harness-samplesort/logs/; packed into $OUT/samplesort-logs.tgz when OUT is set.
set -u
cd "$(dirname "$0")/../../../.."
export NCCL_NVLS_ENABLE=0 # NVLink multicast stays off
S=${SAMPLESORT_STEP:-solutions/ch13-sort/step10-sample-sort-tuned}
B=build/harness-samplesort
ARCH=${CUDA_ARCH:-90}
mkdir -p "$B/logs"
T0=$(date +%s)

echo "== toolchain: $(command -v nvcc) ($(nvcc --version | tail -1)); mpicc: $(command -v mpicc || echo none);" \
     "mpirun: $(command -v mpirun || echo none)"
nvidia-smi -L 2>/dev/null || echo "nvidia-smi: no GPU listed"

# ---- build: the step's ./run and suite (its Makefile names the steps it uses, LAB_USES: step 7's sort comes with them)
make --no-print-directory CUDA_ARCH="$ARCH" -j"$(nproc)" "build/$S/run" "build/$S/test" >"$B/logs/build.log" 2>&1 ||
    { echo "BUILD FAILED"; tail -n 40 "$B/logs/build.log"; exit 1; }
LOCALS="onesweep cub" # --local: step 7's sort or CUB's, on the whole chunk
MPI=0
nm "build/$S/run" 2>/dev/null | grep -q ' U MPI_Init' && MPI=1
echo "build: ok in $(( $(date +%s) - T0 )) s (local sorts: $LOCALS; MPI form: $([ $MPI = 1 ] && echo yes || echo no))"
[ "${1:-}" = build ] && exit 0

# ---- on the GPU ---------------------------------------------------------------------------------
NGPU=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
[ "$NGPU" -ge 1 ] 2>/dev/null || { echo "no GPU visible: nothing run"; exit 3; }
R=build/$S/run
MPIRUN="mpirun --allow-run-as-root --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE -np $NGPU"
SUMMARY=()
FAILED=0
step() { # name, time limit (s), command...: its output to logs/name.log, a line in the summary
    local name=$1 limit=$2 t rc line
    shift 2
    t=$(date +%s)
    echo "== $name: $*"
    timeout --kill-after=10 "$limit" "$@" >"$B/logs/$name.log" 2>&1
    rc=$?
    line=$(grep -o 'Synthesis:.*' "$B/logs/$name.log" | tail -n1)
    [ -z "$line" ] && line="$(grep -c '^PASS' "$B/logs/$name.log") PASS, $(grep -c '^FAIL' "$B/logs/$name.log") FAIL lines"
    [ $rc = 124 ] && line="$line (TIMED OUT after $limit s)"
    [ $rc = 0 ] || { FAILED=1; grep -m 12 -E 'FAIL|Assertion|error|rror:' "$B/logs/$name.log" | cut -c1-240; }
    SUMMARY+=("$(printf '%-24s rc=%-3s %4ss  %s' "$name" "$rc" "$(( $(date +%s) - t ))" "$line")")
}

step suite 150 "build/$S/test" --jobs 8 --verbose=1
if [ "$NGPU" -gt 1 ]; then
    step "gpus-$NGPU" 120 $R --gpus "$NGPU" -n 0,1000,2^20+3,2^24,2^28 --dist all --reps 1
    step "gpus-$NGPU-keys" 120 $R --gpus "$NGPU" -n 0,1000,2^20+3,2^24,2^28 --dist all --reps 1 --keys-only
    [ $MPI = 1 ] && step "mpi-np$NGPU" 120 $MPIRUN $R -n 0,1000,2^20+3,2^24,2^28 --dist all --reps 1
    [ $MPI = 1 ] && step "mpi-np$NGPU-keys" 120 $MPIRUN $R -n 1000,2^20+3,2^24 --dist all --reps 1 --keys-only
fi
# the breakdown: fresh input each rep, median of 5 (the first, checked sort is not timed). Each
# form is name:options. One GPU: one rank sorts the whole input (nothing split or sent) and four
# ranks share the GPU (--ranks 4, device copies) so that every phase runs; --gpus takes no
# --ranks. G GPUs: one chunk per rank (no pipeline) and four (--chunks 4; the default, two, is
# make bench's).
if [ "$NGPU" = 1 ]; then
    FORMS=("gpus1:--gpus 1" "ranks4:--ranks 4")
else
    FORMS=("gpus$NGPU-chunks1:--gpus $NGPU --chunks 1" "gpus$NGPU-chunks4:--gpus $NGPU --chunks 4")
fi
EVERY=${FORMS[1]#*:} # the form in which every phase runs
for L in $LOCALS; do
    for f in "${FORMS[@]}"; do
        step "time-$L-${f%%:*}" 90 $R ${f#*:} -n 2^28,2^30 --dist uniform --keys-only --local "$L" --reps 5 --csv
    done
done
step "time-cub-pairs" 60 $R $EVERY -n 2^30 --dist uniform --local cub --reps 5 --csv
step "largest-cub" 90 $R $EVERY -n 2^32 --dist uniform --keys-only --local cub --reps 1 --csv

if [ -n "${OUT:-}" ]; then
    grep -h '^PASS,\|^FAIL,' "$B"/logs/time-*.log "$B"/logs/largest-*.log >"$B/logs/timing.csv" 2>/dev/null
    tar czf "$OUT/samplesort-logs.tgz" -C "$B" logs
fi
echo
echo "== summary ($NGPU GPU$([ "$NGPU" = 1 ] || echo s), $(( $(date +%s) - T0 )) s)"
grep -h '^PASS,\|^FAIL,' "$B"/logs/time-*.log "$B"/logs/largest-*.log 2>/dev/null | awk -F, '
    function tok(s, k,   t, i, n) { n = split(s, t, " "); for (i = 1; i <= n; i++) if (index(t[i], k "=") == 1) return substr(t[i], length(k) + 2); return "" }
    { mode = $3 ~ / pairs / ? "pairs" : "keys"
      g = tok($3, "gpus") != "" ? tok($3, "gpus") " GPU" : tok($3, "ranks") " rk" # ranks: sharing one GPU
      one = tok($3, "ms_one_gpu")
      printf "  %s %-8s G=%-6s K=%-2s N=%-10s %-5s %8.2f ms %6.2f Gkeys/s  split %s count %s scatter %s xchg %s sort %s wait %s  bucket %s peak %sx%s\n",
             $1, tok($3, "local"), g, tok($3, "chunks"), $4, mode, $6, $9, tok($3, "ms_splitters"), tok($3, "ms_count"),
             tok($3, "ms_scatter"), tok($3, "ms_exchange"), tok($3, "ms_sort"), tok($3, "waited"), tok($3, "bucket"), tok($3, "peak"),
             one != "" ? "  one GPU " one " ms" : "" }'
for l in "${SUMMARY[@]}"; do echo "  $l"; done
echo "samplesort: $([ $FAILED = 0 ] && echo PASS || echo FAIL)"
exit $FAILED
