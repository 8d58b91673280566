#!/usr/bin/env bash
# collect.sh [STEP...] - make profile-collect: the counters of every solution step of the ladder
# (or of the STEPs named: ch12-merge/step3, ch12-merge/step3-tiled, with or without solutions/) on
# this machine's GPU, written to the committed profile of each chapter,
# docs/plots/<gpu>/<chapter>-profile.csv (one row per step and kernel, and a "*" row per step:
# its whole run). Steps of a chapter that are not profiled again keep their rows (said in the
# CSV's header). make plots draws the profile charts from them; make profile sets a step beside
# the step before it from them; tests/profile/markdown.sh prints the guides' tables.
# The raw ncu output and launch traces stay under build/profile/raw/<gpu>/ (the CPU tests'
# fixtures: tests/profile/test.sh --record build/profile/raw/<gpu> makes them of a few).
#
# How long: each step's ./run once at full speed with its launch trace (PROFILE_JOBS at a time,
# default 4), then ncu over each step's first timed run, one step after another: about 0.2 s per
# kernel launch (ncu replays each kernel once per group of counters) and 3 s per step. All 23 steps:
# about 3 minutes on an H100. Environment: CHAPTERS (default: every chapter of steps.conf),
# PROFILE_JOBS, PLOTS_DIR (default docs/plots), NCU, PROFILE_COMMIT (the commit to record where
# git is missing).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. tests/profile/lib.sh
plots=${PLOTS_DIR:-docs/plots}
jobs=${PROFILE_JOBS:-4}
t0=$SECONDS
elapsed() { local s=$((SECONDS - t0)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# ---- the steps ------------------------------------------------------------------------------
resolve() { # a step as named -> its solution folder, or nothing
    local key=${1#solutions/} s
    key=${key%/}
    while read -r s; do
        case $s in "$key" | "$key"-*) echo "solutions/$s"; return ;; esac
    done < <(prof_steps_of "${key%%/*}")
}
steps=()
if [ $# -gt 0 ]; then
    for a in "$@"; do
        s=$(resolve "$a")
        if [ -z "$s" ] || [ ! -d "$s" ]; then prof_die 2 "collect: '$a' names no solution step"; fi
        steps+=("$s")
    done
else
    chapters=${CHAPTERS:-$(awk '$1 == "chapter" { print $2 }' "$PROF_DIR/steps.conf")}
    for ch in $chapters; do
        [ -d "solutions/$ch" ] || prof_die 2 "collect: no chapter solutions/$ch"
        while read -r s; do steps+=("solutions/$s"); done < <(prof_steps_of "$ch")
    done
fi
[ ${#steps[@]} -gt 0 ] || prof_die 2 "collect: no step to profile"

prof_need_gpu
prof_find_ncu
prof_gpu_name
ncu_version=$("$NCU" --version 2>/dev/null | tail -n1)
echo "profile-collect: ${#steps[@]} steps on $P_GPU ($ncu_version)"
runs=()
for s in "${steps[@]}"; do runs+=("$PROF_BUILD/$s/run"); done
${MAKE:-make} --no-print-directory -j"$(nproc 2>/dev/null || echo 4)" "$PROF_TRACE_LIB" "${runs[@]}" >/dev/null

work=$PROF_BUILD/profile/collect
raw=$PROF_BUILD/profile/raw/$P_GPU_DIR
rm -rf "$work"
mkdir -p "$work" "$raw"
name_of() { echo "${1#solutions/}" | tr / _; } # solutions/ch12-merge/step3-tiled -> ch12-merge_step3-tiled

# ---- 1. each ./run once with its launch trace, a few at a time ------------------------------
echo "[$(elapsed)] 1/2: each step's ./run once, with its launch trace ($jobs at a time)"
for s in "${steps[@]}"; do
    out=$work/$(name_of "$s")
    (
        prof_conf "$s"
        if prof_trace "$PROF_BUILD/$s/run" "$out" 2>"$out.why"; then
            echo "  ${s#solutions/}: $P_COUNT launch(es) in a timed run"
            echo ok >"$out.status"
        else
            echo "failed" >"$out.status"
        fi
    ) &
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
done
wait || true

# ---- 2. ncu over each step's first timed run, one at a time --------------------------------
echo "[$(elapsed)] 2/2: ncu over each step's first timed run"
failed=()
i=0
for s in "${steps[@]}"; do
    i=$((i + 1))
    out=$work/$(name_of "$s")
    if [ "$(cat "$out.status" 2>/dev/null)" != ok ]; then
        echo "  [$i/${#steps[@]}] ${s#solutions/}: not profiled: $(tail -n1 "$out.why" 2>/dev/null)"
        failed+=("${s#solutions/}")
        continue
    fi
    t1=$SECONDS
    if (prof_conf "$s" && prof_counters "$PROF_BUILD/$s/run" "$out" "$s") 2>"$out.why"; then
        cp "$out.ncu.csv" "$raw/$(name_of "$s").ncu.csv"
        cp "$out.trace" "$raw/$(name_of "$s").trace"
        cp "$out.csv" "$raw/$(name_of "$s").rows.csv"
        echo "  [$i/${#steps[@]} $(elapsed)] ${s#solutions/}: $(awk -F, '$5 == "*" { print $6 }' "$out.csv") launch(es), $((SECONDS - t1)) s"
    else
        echo "  [$i/${#steps[@]} $(elapsed)] ${s#solutions/}: ncu failed: $(tail -n1 "$out.why")"
        failed+=("${s#solutions/}")
        rm -f "$out.csv"
    fi
done

# ---- the chapters' CSVs ----------------------------------------------------------------------
commit() {
    if [ -n "${PROFILE_COMMIT:-}" ]; then
        echo "$PROFILE_COMMIT"
    elif git rev-parse --short HEAD 2>/dev/null; then
        git diff --quiet HEAD 2>/dev/null || echo "(with local changes)"
    else
        echo "unknown (no git here: set PROFILE_COMMIT)"
    fi | paste -sd' ' -
}
commit_text=$(commit) # before the CSVs below change the tree
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)
nv=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\), *\(V[0-9.]*\).*/\1 (\2)/p') || true
mkdir -p "$plots/$P_GPU_DIR"
for ch in $(for s in "${steps[@]}"; do s=${s#solutions/}; echo "${s%%/*}"; done | awk '!seen[$0]++'); do
    csv=$plots/$P_GPU_DIR/$ch-profile.csv
    new=$work/$ch-profile.csv
    profiled=() kept=()
    for s in "${steps[@]}"; do
        case $s in solutions/$ch/*) [ -f "$work/$(name_of "$s").csv" ] && profiled+=("$s") ;; esac
    done
    [ ${#profiled[@]} -gt 0 ] || { echo "profile-collect: nothing profiled in $ch: $csv is left as it was"; continue; }
    # the chapter's other steps keep their rows from the CSV there (same GPU folder)
    while read -r s; do
        case " ${profiled[*]} " in *" solutions/$s "*) continue ;; esac
        if [ -f "$csv" ] && awk -F, -v s="solutions/$s" '$2 == s { f = 1 } END { exit !f }' "$csv"; then kept+=("solutions/$s"); fi
    done < <(prof_steps_of "$ch")
    {
        echo "# lab profile: $ch (make profile-collect: tests/profile/collect.sh with the counters of tests/profile/steps.conf)"
        echo "# gpu: $P_GPU"
        echo "# driver: ${driver:-unknown}"
        echo "# ncu: $ncu_version"
        echo "# cuda: nvcc ${nv:-unknown}"
        echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "# commit: $commit_text"
        echo "# how: each step's first timed run (./run -n N OPTIONS --reps 2 --csv -q; its kernel launches found by tests/profile/launch_trace.c) under ncu --clock-control none (the clocks ./run has), caches flushed before each replay pass; a row per kernel of the run (its launches added up), and a * row for the whole run"
        echo "# columns: time_ns the kernels' time (ns); dram_read, dram_write: DRAM bytes; l2_read, l2_write: bytes between the SMs and the L2 (32-byte sectors); ld_req, st_req: global load and store requests (warp-wide instructions), ld_sect, st_sect: their 32-byte sectors; bank_ld, bank_st: shared-memory bank conflicts; atom, red: global atomic requests (with and without a return value); atom_shared: shared-memory atomic warp instructions; inst, thread_inst: warp and thread instructions executed; occupancy, dram_pct (of the DRAM's peak bandwidth), l2_hit: percentages, each launch weighed by its time (l2_hit by its L2 traffic); min_read, min_write: the bytes the run must read and write at least (steps.conf); empty: not collected in this chapter (metrics.conf)"
        [ ${#kept[@]} = 0 ] || echo "# kept: ${kept[*]#solutions/} (from the collection of $(sed -n 's/^# date: //p' "$csv" | head -n1), commit $(sed -n 's/^# commit: //p' "$csv" | head -n1))"
        head -n1 "$work/$(name_of "${profiled[0]}").csv"
        while read -r s; do
            s=solutions/$s
            if [ -f "$work/$(name_of "$s").csv" ]; then
                tail -n +2 "$work/$(name_of "$s").csv"
            elif case " ${kept[*]} " in *" $s "*) true ;; *) false ;; esac; then
                awk -F, -v s="$s" '$2 == s' "$csv"
            fi
        done < <(prof_steps_of "$ch")
    } >"$new"
    mv "$new" "$csv"
    echo "== $csv: ${#profiled[@]} steps profiled$([ ${#kept[@]} = 0 ] || echo ", ${#kept[@]} kept")"
done
echo "profile-collect: done in $(elapsed). The raw ncu output: $raw/ (test.sh --record $raw makes the fixtures); charts: make plots"
if [ ${#failed[@]} -gt 0 ]; then
    echo "profile-collect: not profiled: ${failed[*]} (the reasons: $work/*.why)" >&2
    exit 1
fi
