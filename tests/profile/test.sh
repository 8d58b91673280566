#!/usr/bin/env bash
# test.sh - make profile's CPU tests (make test runs them; no GPU, no ncu needed): on recorded ncu
# output and launch traces (fixtures/, listed in fixtures/MANIFEST) the launch finder (trace.awk),
# the parser (ncu.awk), the table (table.awk), the guides' markdown (markdown.awk) and the lesson
# checks (compare.awk) give what fixtures/expected/ holds; they refuse what is not theirs; every
# step's settings in steps.conf read; and without a GPU, ncu or the counters' permission,
# make profile says so in one line with its exit status.
#   test.sh --update             rewrites fixtures/expected/ from what the scripts give now (then
#                                read the diff: it is what changed)
#   test.sh --record RAWDIR      takes the recordings of a few steps from a make profile-collect
#                                (build/profile/raw/<gpu>/) as fixtures, in MANIFEST, and updates
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. tests/profile/lib.sh
fix=$PROF_DIR/fixtures
exp=$fix/expected
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
update=0
pass=0 fail=0

if [ "${1:-}" = --record ]; then
    raw=${2:?test.sh --record build/profile/raw/<gpu>}
    for s in ch10-reduction/step1-simple ch10-reduction/step2-convergent ch10-reduction/step4-segmented \
             ch12-merge/step2-basic ch12-merge/step3-tiled ch13-sort/step2-radix-local ch13-sort/step3-radix-multibit; do
        name=$(echo "$s" | tr / _)
        [ -f "$raw/$name.ncu.csv" ] || { echo "test.sh --record: no $raw/$name.ncu.csv: left out"; continue; }
        cp "$raw/$name.ncu.csv" "$raw/$name.trace" "$fix/"
        grep -q "^$name " "$fix/MANIFEST" ||
            printf '%-32s solutions/%-32s %-15s %s\n' "$name" "$s" "${s%%/*}" "$(awk -F, '$5 == "*" { print $4 }' "$raw/$name.rows.csv")" >>"$fix/MANIFEST"
        echo "test.sh --record: $fix/$name.{ncu.csv,trace}"
    done
    set -- --update
fi
[ "${1:-}" = --update ] && update=1 && mkdir -p "$exp"

ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL $*"; }
# same NAME FILE: FILE is expected/NAME (with --update: becomes it)
same() {
    if [ $update = 1 ]; then cp "$2" "$exp/$1"; ok; return; fi
    if [ ! -f "$exp/$1" ]; then no "$1: no expected/$1 (test.sh --update makes it)"; return; fi
    if diff -u "$exp/$1" "$2" >"$tmp/diff"; then ok; else no "$1 differs from expected/$1:"; head -n 30 "$tmp/diff"; fi
}
# refuses WHAT STATUS GREP COMMAND...: COMMAND exits STATUS with a line matching GREP on stderr
refuses() {
    local what=$1 want=$2 pattern=$3 rc
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc = "$want" ] && grep -q -- "$pattern" "$tmp/err"; then ok
    else no "$what: exit $rc (want $want), stderr: $(head -c 300 "$tmp/err")"; fi
}

# ---- the fixtures: launches, rows, tables, markdown -------------------------------------------
names=() steps=() chapters=() sizes=()
while read -r name step chapter n; do
    names+=("$name") steps+=("$step") chapters+=("$chapter") sizes+=("$n")
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$fix/MANIFEST")
[ ${#names[@]} -gt 0 ] || no "fixtures/MANIFEST lists no fixture"

for i in "${!names[@]}"; do
    name=${names[i]} step=${steps[i]} chapter=${chapters[i]} n=${sizes[i]}
    if [ -f "$fix/$name.trace" ]; then
        awk -f "$PROF_DIR/trace.awk" "$fix/$name.trace" >"$tmp/$name.launches" || no "$name.trace: trace.awk failed"
        same "$name.launches" "$tmp/$name.launches"
    fi
    (prof_conf "$step" && echo "$P_METRICS $P_READ $P_WRITE") >"$tmp/conf" || no "$step: steps.conf"
    read -r metrics rd wr <"$tmp/conf"
    awk -v want="$metrics" -v chapter="$chapter" -v step="$step" -v params="dist=uniform" -v n="$n" \
        -v min_read=$((${rd:-0} * n)) -v min_write=$((${wr:-0} * n)) -v header=1 \
        -f "$PROF_DIR/ncu.awk" "$PROF_DIR/metrics.conf" "$fix/$name.ncu.csv" >"$tmp/$name.rows.csv" ||
        no "$name.ncu.csv: ncu.awk failed"
    same "$name.rows.csv" "$tmp/$name.rows.csv"
done
# the table: each fixture beside the one before it of its chapter
prev="" prevch=""
for i in "${!names[@]}"; do
    name=${names[i]} chapter=${chapters[i]}
    lesson=$( (prof_conf "${steps[i]}" && echo "$P_LESSON") )
    if [ "$chapter" = "$prevch" ]; then
        awk -v lesson="$lesson" -v this_name="$name" -v prev_name="$prev" -v prev_note="a fixture" \
            -f "$PROF_DIR/counters.awk" -f "$PROF_DIR/table.awk" "$tmp/$name.rows.csv" "$tmp/$prev.rows.csv" >"$tmp/t" ||
            no "$name: table.awk failed"
    else
        awk -v lesson="$lesson" -v this_name="$name" -f "$PROF_DIR/counters.awk" -f "$PROF_DIR/table.awk" \
            "$tmp/$name.rows.csv" >"$tmp/t" || no "$name: table.awk failed"
    fi
    same "$name.table" "$tmp/t"
    prev=$name prevch=$chapter
done
# the guides' markdown: each chapter's fixtures as its profile CSV, and with none (placeholders)
for chapter in $(printf '%s\n' "${chapters[@]}" | awk '!seen[$0]++'); do
    { echo "# a chapter profile made of the fixtures"
      for i in "${!names[@]}"; do
          [ "${chapters[i]}" = "$chapter" ] || continue
          if [ -z "${header:-}" ]; then head -n1 "$tmp/${names[i]}.rows.csv"; header=1; fi
          tail -n +2 "$tmp/${names[i]}.rows.csv"
      done; } >"$tmp/$chapter-profile.csv"
    unset header
    bash "$PROF_DIR/markdown.sh" "$chapter" "$tmp/$chapter-profile.csv" >"$tmp/md" || no "markdown.sh $chapter failed"
    same "$chapter.md" "$tmp/md"
done
bash "$PROF_DIR/markdown.sh" ch12-merge "$tmp/none.csv" >"$tmp/md" || no "markdown.sh without a CSV failed"
if grep -q '(H100: TBD)' "$tmp/md" && ! grep -q '[0-9] ms\|GB/s' "$tmp/md"; then ok; else no "markdown.sh without a CSV: no (H100: TBD) placeholders"; fi
# a lesson check (gpu-check.sh's): the second fixture's warps beside the first's, both ways
if [ -f "$tmp/standin-2.rows.csv" ] && [ -f "$tmp/standin-1.rows.csv" ]; then
    awk -v k=active -v rel=gt -v a=1 -v b=2 -f "$PROF_DIR/counters.awk" -f "$PROF_DIR/compare.awk" \
        "$tmp/standin-1.rows.csv" "$tmp/standin-2.rows.csv" >/dev/null && ok || no "compare.awk: Fig 10.9's warps are not more active than Fig 10.6's"
    awk -v k=active -v rel=lt -v a=1 -v b=2 -f "$PROF_DIR/counters.awk" -f "$PROF_DIR/compare.awk" \
        "$tmp/standin-1.rows.csv" "$tmp/standin-2.rows.csv" >/dev/null && no "compare.awk passed a counter that moved the other way" || ok
fi

# ---- what is not theirs -----------------------------------------------------------------------
F=104857600 # an H100's flush: twice its 50 MB L2
printf 'launch _Z1kv\nmemset %s\nevent 0x1\nlaunch _Z1kv\n' $F >"$tmp/one.trace"
refuses "trace.awk with one timed run" 1 "only one timed run" awk -f "$PROF_DIR/trace.awk" "$tmp/one.trace"
printf 'launch _Z1kv\nlaunch _Z1kv\n' >"$tmp/none.trace"
refuses "trace.awk with no timed run" 1 "no timed runs" awk -f "$PROF_DIR/trace.awk" "$tmp/none.trace"
printf 'memset %s\nevent 0x1\nlaunch _Z1kv\nmemset 4\nevent 0x3\nlaunch _Z1jv\nmemset %s\nevent 0x1\nlaunch _Z1kv\nmemset 4\nevent 0x3\n' $F $F >"$tmp/mixed.trace"
if [ "$(awk -f "$PROF_DIR/trace.awk" "$tmp/mixed.trace" | head -n1)" = "0 2" ]; then ok
else no "trace.awk: a step's own memset (and event) inside the run is taken for a flush"; fi
# a driver that times its runs by events (ch13 step 9): the second run, to its last event
printf 'launch gen\nevent 0xb\nlaunch a\nlaunch b\nevent 0xe\nlaunch gen\nevent 0xb\nlaunch a\nlaunch b\nlaunch c\nevent 0xe\nlaunch gen\nlaunch hash\nevent 0xb\nlaunch a\nevent 0xe\n' >"$tmp/events.trace"
if [ "$(awk -f "$PROF_DIR/trace.awk" "$tmp/events.trace" | head -n1)" = "4 3" ]; then ok
else no "trace.awk: the runs marked by events: not the second run's launches ($(awk -f "$PROF_DIR/trace.awk" "$tmp/events.trace" | head -n1))"; fi
refuses "ncu.awk on what is not ncu's output" 1 "no profiled launch" \
    awk -v want=time_ns -f "$PROF_DIR/ncu.awk" "$PROF_DIR/metrics.conf" "$PROF_DIR/steps.conf"
printf '"ID","Name"\n"0","x"\n' >"$tmp/other.csv"
refuses "ncu.awk on another CSV" 1 "Kernel Name" awk -v want=time_ns -f "$PROF_DIR/ncu.awk" "$PROF_DIR/metrics.conf" "$tmp/other.csv"
refuses "ncu.awk wanting a metric ncu did not collect" 1 "no lts__t_sectors_srcunit_tex_op_read.sum" \
    awk -v want=l2_read -f "$PROF_DIR/ncu.awk" "$PROF_DIR/metrics.conf" "$fix/standin-1.ncu.csv"
refuses "ncu.awk wanting a name metrics.conf lacks" 1 "not in metrics.conf" \
    awk -v want=bogus -f "$PROF_DIR/ncu.awk" "$PROF_DIR/metrics.conf" "$fix/standin-1.ncu.csv"

# ---- steps.conf: every step reads, its metrics exist, its lesson's rows are the table's ---------
printf 'BEGIN { counters_init(); for (i = 1; i <= nkeys; i++) printf "%%s ", keys[i] }\n' >"$tmp/keys.awk"
keys=" $(awk -f "$PROF_DIR/counters.awk" -f "$tmp/keys.awk") l2_x kernels "
for ch in ch10-reduction ch12-merge ch13-sort; do
    while read -r s; do
        if ! (prof_conf "$s" && prof_ncu_metrics "$P_METRICS" >/dev/null && echo "$P_LESSON") >"$tmp/l" 2>"$tmp/e"; then
            no "$s: steps.conf: $(cat "$tmp/e")"; continue
        fi
        for k in $(tr , ' ' <"$tmp/l"); do
            case $keys in *" $k "*) ;; *) no "$s: lesson '$k' is not a row of the table (counters.awk)"; continue 2 ;; esac
        done
        ok
    done < <(prof_steps_of "$ch")
done
[ "$(prof_conf ch10-reduction/step2-convergent && prof_prev ch10-reduction/step2-convergent)" = ch10-reduction/step1-simple ] && ok ||
    no "prof_prev: step 2 is not set beside step 1"
[ "$(prof_conf ch13-sort/step8-merge-sort-path && prof_prev ch13-sort/step8-merge-sort-path)" = ch13-sort/step5-merge-sort ] && ok ||
    no "prof_prev: vs= is not followed"
[ -z "$(prof_conf ch10-reduction/step1-simple && prof_prev ch10-reduction/step1-simple)" ] && ok ||
    no "prof_prev: step 1 has a step before it"

# ---- the orchestration (profile.sh, collect.sh), with stand-ins for the GPU, ncu and ./run ------
# nvidia-smi names an H100; ./run (solutions/ch10-reduction/step1 and step2) writes the recorded
# launch trace where the injection library would and prints its result line; ncu writes the
# recorded raw page to its --log-file. What is tested: the steps' order, the launches ncu is told
# to skip and count, the rows, the table beside the step before (profiled now, or from the
# committed CSV), and collect.sh's chapter CSV.
fake=$tmp/fake
mkdir -p "$fake/bin" "$fake/build/solutions/ch10-reduction/step1-simple" "$fake/build/solutions/ch10-reduction/step2-convergent"
printf '#!/bin/bash\ncase "$*" in *-L*) echo "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0)" ;; *driver_version*) echo 580.00 ;; *) echo "NVIDIA H100 80GB HBM3" ;; esac\n' >"$fake/bin/nvidia-smi"
printf '#!/bin/bash\nwhile [ $# -gt 0 ]; do case $1 in --version) echo "Version 2025.3.1.0 (stand-in)"; exit 0 ;; --launch-skip) echo "$2" >>"%s/skips" ;; --launch-count) echo "$2" >>"%s/counts" ;; --log-file) log=$2 ;; */run) run=$1 ;; esac; shift; done\ncp "$(cat "$(dirname "$run")/fixture").ncu.csv" "$log"\n' "$fake" "$fake" >"$fake/bin/ncu"
for s in 1:step1-simple 2:step2-convergent; do
    d=$fake/build/solutions/ch10-reduction/${s#*:}
    echo "$PWD/$fix/standin-${s%%:*}" >"$d/fixture"
    printf '#!/bin/bash\nfor a; do [ "$a" = --list-sizes ] && { echo 2048; exit 0; }; done\n[ -n "${LAB_LAUNCH_TRACE:-}" ] && cp "$(cat "$(dirname "$0")/fixture").trace" "$LAB_LAUNCH_TRACE"\necho "PASS,solutions/ch10-reduction/%s,op=sum type=float dist=digits,2048,2024,0.0036,0.1,2.2,0.56"\n' "${s#*:}" >"$d/run"
done
touch "$fake/liblaunch_trace.so"
chmod +x "$fake"/bin/* "$fake"/build/solutions/ch10-reduction/*/run
standins() { env PATH="$fake/bin:$PATH" NCU="$fake/bin/ncu" MAKE=true PROF_BUILD="$fake/build" \
    PROF_TRACE_LIB="$fake/liblaunch_trace.so" PLOTS_DIR="$fake/plots" "$@"; }
if standins bash "$PROF_DIR/profile.sh" solutions/ch10-reduction/step2-convergent >"$tmp/out" 2>"$tmp/err"; then
    grep -q 'step2 (n=2048) *step1 (n=2048) *change' "$tmp/out" && grep -q '^> active threads per warp instruction (32: none idle) *31.7 *28.6' "$tmp/out" &&
        grep -q 'profiled now' "$tmp/out" && ok || { no "profile.sh with stand-ins: not the table expected:"; cat "$tmp/out"; }
    [ "$(tr '\n' ' ' <"$fake/skips")" = "3 3 " ] && [ "$(tr '\n' ' ' <"$fake/counts")" = "1 1 " ] && ok ||
        no "profile.sh told ncu to skip $(tr '\n' ' ' <"$fake/skips")and count $(tr '\n' ' ' <"$fake/counts")(want 3 3 and 1 1)"
else
    no "profile.sh with stand-ins failed: $(cat "$tmp/err")"
fi
if standins bash "$PROF_DIR/collect.sh" ch10-reduction/step1 ch10-reduction/step2 >"$tmp/out" 2>"$tmp/err"; then
    csv=$fake/plots/NVIDIA_H100_80GB_HBM3/ch10-reduction-profile.csv
    if [ "$(grep -c ',\*,' "$csv")" = 2 ] && grep -q '^# gpu: NVIDIA H100 80GB HBM3$' "$csv" && grep -q '^chapter,step,params,n,kernel' "$csv"; then ok
    else no "collect.sh with stand-ins: $csv is not two steps' rows"; fi
    # make profile now sets step 1 beside step 2 from that CSV, without profiling it again
    rm -f "$fake/skips"
    standins bash "$PROF_DIR/profile.sh" solutions/ch10-reduction/step2-convergent >"$tmp/out" 2>&1
    grep -q "from $csv" "$tmp/out" && [ "$(wc -l <"$fake/skips")" = 1 ] && ok || no "profile.sh did not take step 1 from the committed CSV: $(tail -n 3 "$tmp/out")"
else
    no "collect.sh with stand-ins failed: $(tail -n 3 "$tmp/out") $(cat "$tmp/err")"
fi

# ---- make profile's one-line refusals ---------------------------------------------------------
if ! nvidia-smi -L >/dev/null 2>&1; then
    refuses "profile.sh without a GPU" 3 "no NVIDIA GPU visible" bash "$PROF_DIR/profile.sh" --check
else
    echo "(a GPU is visible: the no-GPU message is not tested here)"
fi
refuses "no ncu" 5 "Nsight Compute (ncu) was not found" \
    env PATH=/usr/bin:/bin NCU= PROF_NCU_PLACES=/nonexistent bash -c '. tests/profile/lib.sh; prof_find_ncu'
printf '#!/bin/bash\nwhile [ $# -gt 0 ]; do [ "$1" = --log-file ] && echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters" >"$2"; shift; done\nexit 1\n' >"$tmp/ncu"
chmod +x "$tmp/ncu"
refuses "counters closed to the user" 5 "NVreg_RestrictProfilingToAdminUsers=0" \
    env NCU="$tmp/ncu" P_SKIP=0 P_COUNT=1 bash -c '. tests/profile/lib.sh; P_N=4; P_OPTS=(); prof_ncu_run /bin/true '"$tmp"'/x --csv'

echo "profile tests: $pass passed, $fail failed$([ $update = 1 ] && echo " (expected/ updated)")"
[ $fail = 0 ]
