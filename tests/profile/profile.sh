#!/usr/bin/env bash
# profile.sh [--full] STEP | --check - make profile: one step's hardware counters, in the lab's words, beside
# the step before it. STEP is a built step folder (ch12-merge/step3-tiled: the student's version;
# solutions/ch12-merge/step3-tiled: the solution's); make profile builds it first.
#   1. its ./run runs once at full speed with a launch trace (launch_trace.c) that finds the
#      kernels of its first timed run;
#   2. Nsight Compute (ncu) profiles exactly those launches with the chapter's counters
#      (steps.conf, metrics.conf), each kernel replayed once per group of counters;
#   3. the table (table.awk) sets them beside the step before it (steps.conf's vs=), whose
#      figures come from the committed profile of this GPU (docs/plots/<gpu>/<chapter>-profile.csv,
#      make profile-collect) when it has them, else from profiling that step's solution now.
# --full also keeps ncu's full report of the same launches (--set full) for the Nsight Compute
# GUI: build/profile/STEP.ncu-rep (it replays each kernel about 40 times: minutes, not seconds).
# Environment: PREV=none (no comparison) or PREV=run (profile the step before even when the
# committed CSV has it); NCU=/path/to/ncu; PLOTS_DIR (default docs/plots).
# Exit: 0; 1 the step FAILs or ncu failed; 2 bad usage; 3 no GPU; 5 no ncu, no CUPTI, or the
# GPU's counters are closed to this user (each said in one line).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. tests/profile/lib.sh

full=0
if [ "${1:-}" = --check ]; then # make profile's first step: a GPU and ncu, before anything is built
    prof_need_gpu
    prof_find_ncu
    exit 0
fi
if [ "${1:-}" = --full ]; then full=1; shift; fi
[ $# = 1 ] || prof_die 2 "usage: profile.sh [--full] STEP (make profile STEP=ch12-merge/step3 [FULL=1])"
step=${1%/}
key=${step#solutions/}
bin=$PROF_BUILD/$step/run
[ -x "$bin" ] || prof_die 2 "$bin is missing: make profile STEP=$step builds it"
plots=${PLOTS_DIR:-docs/plots}

prof_need_gpu
prof_find_ncu
prof_conf "$key"
prof_gpu_name
out=$PROF_BUILD/profile/$step/run

echo "make profile: $step, n = $P_N${P_OPTS[*]:+ ${P_OPTS[*]}}, on $P_GPU ($($NCU --version 2>/dev/null | tail -n1 | sed 's/ (build.*//'))"
prof_trace "$bin" "$out"
echo "  its first timed run: $P_COUNT kernel launch$([ "$P_COUNT" = 1 ] || echo es) (after $P_SKIP); ncu replays each once per group of counters"
prof_counters "$bin" "$out" "$step"
this=$out.csv

# ---- the step before: the committed profile of this GPU, else its solution profiled now ----
prev=$(prof_prev "$key")
prev_rows="" prev_note=""
if [ -n "$prev" ] && [ "${PREV:-auto}" != none ]; then
    committed=$plots/$P_GPU_DIR/$P_CHAPTER-profile.csv
    prev_rows=$PROF_BUILD/profile/$step/prev.csv
    if [ "${PREV:-auto}" != run ] && [ -f "$committed" ] &&
        awk -F, -v s="solutions/$prev" '$2 == s && $5 == "*" { found = 1 } END { exit !found }' "$committed"; then
        awk -F, -v s="solutions/$prev" '/^chapter,/ || $2 == s' "$committed" >"$prev_rows"
        prev_note="its solution, from $committed ($(sed -n 's/^# date: //p' "$committed" | head -n1), commit $(sed -n 's/^# commit: //p' "$committed" | head -n1))"
    else
        prev_step=$prev
        [ -d "solutions/$prev" ] && prev_step=solutions/$prev
        echo "  the step before, $prev_step: profiling it too (no committed profile of it on this GPU)"
        ${MAKE:-make} --no-print-directory "$PROF_BUILD/$prev_step/run" >/dev/null
        (
            prof_conf "$prev"
            prof_measure "$PROF_BUILD/$prev_step/run" "$PROF_BUILD/profile/$prev_step/run" "$prev_step"
        )
        cp "$PROF_BUILD/profile/$prev_step/run.csv" "$prev_rows"
        prev_note="$prev_step, profiled now"
    fi
fi

echo
this_name=${key#*/}
this_name="${this_name%%-*} (n=$P_SIZE)"
if [ -n "$prev_rows" ]; then
    prev_n=$(awk -F, 'NR > 1 && $5 == "*" { print $4; exit }' "$prev_rows")
    prev_name="${prev#*/}"
    awk -v lesson="$P_LESSON" -v this_name="$this_name" -v prev_name="${prev_name%%-*} (n=$prev_n)" \
        -v prev_note="$prev_note" -f tests/profile/counters.awk -f tests/profile/table.awk "$this" "$prev_rows"
else
    awk -v lesson="$P_LESSON" -v this_name="$this_name" -f tests/profile/counters.awk -f tests/profile/table.awk "$this"
fi
echo
echo "  ncu's clocks as ./run's (--clock-control none); caches flushed before each replay. Rows: $this"

if [ $full = 1 ]; then
    rep=$PROF_BUILD/profile/$step
    mkdir -p "$(dirname "$rep")"
    echo "make profile: FULL=1: ncu --set full over the same $P_COUNT launch(es) (each kernel replayed ~40 times)..."
    prof_ncu_run "$bin" "$out.full" --set full --clock-control none --force-overwrite --export "$rep"
    echo "make profile: the full report: $rep.ncu-rep (open it in Nsight Compute: ncu-ui $rep.ncu-rep)"
fi
