# shellcheck shell=bash disable=SC2034 # P_* are the callers' (set here, read there)
# lib.sh - what profile.sh, collect.sh and gpu-check.sh share (sourced, from the top of the
# tree): a step's settings from steps.conf, the checks (a GPU, ncu, the counters open to this
# user), and one profile of a step: its ./run traced once at full speed to find the launches of
# its first timed run (launch_trace.c, trace.awk), then those launches under ncu, added up per
# kernel (ncu.awk). Exit statuses: 2 bad usage (a step or setting that does not exist), 3 no
# GPU, 5 the profiler cannot run here (no ncu, no CUPTI, or the counters are closed to this
# user); ./run's own 1 (FAIL), 2 (a refused size) and 4 (a CUDA error) pass through.
PROF_DIR=tests/profile
PROF_BUILD=${PROF_BUILD:-build}
PROF_TRACE_LIB=${PROF_TRACE_LIB:-$PROF_BUILD/profile/liblaunch_trace.so}
PROF_EXIT_NOPROFILER=5

prof_die() { # STATUS MESSAGE: one line, then exit STATUS
    local rc=$1
    shift
    echo "make profile: $*" >&2
    exit "$rc"
}

# ---- steps.conf --------------------------------------------------------------------------
# prof_conf STEP (ch12-merge/step3-tiled, with or without solutions/): sets P_CHAPTER, P_N,
# P_READ, P_WRITE (bytes per element), P_METRICS (comma-separated), P_LESSON, P_VS, P_OPTS
# (./run's options, an array)
prof_conf() {
    local key=${1#solutions/} line w i kv k v in_opts chapter_opts=() step_opts=()
    P_CHAPTER=${key%%/*}
    P_N="" P_READ="" P_WRITE="" P_METRICS="" P_LESSON="" P_VS="" P_OPTS=()
    while IFS= read -r line || [ -n "$line" ]; do
        line=${line%%#*}
        read -r -a w <<<"$line" || true
        [ ${#w[@]} -ge 2 ] || continue
        case ${w[0]} in
        chapter) [ "${w[1]}" = "$P_CHAPTER" ] || continue ;;
        step) [ "${w[1]}" = "$key" ] || continue ;;
        *) prof_die 2 "$PROF_DIR/steps.conf: unknown line '${w[0]}'" ;;
        esac
        in_opts=0
        for ((i = 2; i < ${#w[@]}; i++)); do
            kv=${w[i]}
            if [ $in_opts = 1 ]; then
                if [ "${w[0]}" = chapter ]; then chapter_opts+=("$kv"); else step_opts+=("$kv"); fi
                continue
            fi
            [ "$kv" = -- ] && { in_opts=1; continue; }
            k=${kv%%=*} v=${kv#*=}
            case $k in
            n) P_N=$v ;;
            read) P_READ=$v ;;
            write) P_WRITE=$v ;;
            metrics) P_METRICS=$v ;;
            metrics+) P_METRICS=${P_METRICS:+$P_METRICS,}$v ;;
            lesson) P_LESSON=$v ;;
            vs) P_VS=$v ;;
            *) prof_die 2 "$PROF_DIR/steps.conf: '$kv' is not a setting (n, read, write, metrics, lesson, vs)" ;;
            esac
        done
    done <"$PROF_DIR/steps.conf"
    if [ -z "$P_N" ] || [ -z "$P_METRICS" ]; then prof_die 2 "$PROF_DIR/steps.conf has no chapter line for $P_CHAPTER (n=, metrics=): add one"; fi
    P_OPTS=("${chapter_opts[@]}" "${step_opts[@]}")
}

# prof_ncu_metrics NAMES: metrics.conf's ncu names of the short NAMES (comma-separated)
prof_ncu_metrics() {
    awk -v want="$1" 'BEGIN { n = split(want, w, ","); for (i = 1; i <= n; i++) need[w[i]] = 1 }
        /^[ \t]*(#|$)/ { next }
        ($1 in need) { out = out (out == "" ? "" : ",") $2; delete need[$1] }
        END { for (m in need) { print "metrics.conf has no metric " m > "/dev/stderr"; exit 1 } print out }' \
        "$PROF_DIR/metrics.conf"
}

# prof_steps_of CHAPTER: the chapter's step folders (solutions/ first, else the student's), in order
prof_steps_of() {
    local base=$1
    [ -d "solutions/$1" ] && base=solutions/$1
    (cd "$base" 2>/dev/null && ls -d step*/ 2>/dev/null) | sed 's|/$||' | sort -V | sed "s|^|$1/|"
}

# prof_prev STEP: the step it is set beside (vs=, else the one before it in its chapter; none: empty)
prof_prev() {
    local key=${1#solutions/} s prev=""
    if [ -n "$P_VS" ]; then echo "$P_VS"; return; fi
    while read -r s; do
        [ "$s" = "$key" ] && { echo "$prev"; return; }
        prev=$s
    done < <(prof_steps_of "${key%%/*}")
}

# ---- the machine -------------------------------------------------------------------------
# prof_need_gpu: the lab's no-GPU message (exit 3) when nvidia-smi sees none
prof_need_gpu() {
    nvidia-smi -L >/dev/null 2>&1 && return 0
    echo "make profile: your kernel was not run: no NVIDIA GPU visible (nvidia-smi finds none): profiles are made on a GPU machine" >&2
    exit 3
}

# prof_find_ncu: sets NCU (the NCU variable, ncu on PATH, or the CUDA Toolkit's: PROF_NCU_PLACES
# replaces the places looked at after PATH), else one line and exit 5
prof_find_ncu() {
    local c
    for c in ${NCU:-} "$(command -v ncu 2>/dev/null)" ${PROF_NCU_PLACES-${CUDA_HOME:+$CUDA_HOME/bin/ncu} \
        /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu}; do
        if [ -n "$c" ] && [ -x "$c" ]; then NCU=$c; return 0; fi
    done
    prof_die $PROF_EXIT_NOPROFILER "Nsight Compute (ncu) was not found: it comes with the CUDA Toolkit (its bin/ncu) or from https://developer.nvidia.com/nsight-compute; put it on PATH or name it: make profile NCU=/path/to/ncu"
}

# prof_gpu_name: sets P_GPU (nvidia-smi's name of the GPU the runs use) and P_GPU_DIR (as
# make bench names its folder: docs/plots/<P_GPU_DIR>/)
prof_gpu_name() {
    local sel=${CUDA_VISIBLE_DEVICES:-}
    sel=${sel%%,*}
    P_GPU=$(nvidia-smi ${sel:+-i "$sel"} --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
    [ -n "$P_GPU" ] || P_GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
    P_GPU=${P_GPU:-unknown GPU}
    P_GPU_DIR=${P_GPU//[^A-Za-z0-9._-]/_}
}

# ---- one profile ---------------------------------------------------------------------------
# Every run of BIN here: -n P_N, the step's options, --reps 2 (two timed runs at least) --csv -q.
# OUT: the path its files start with (OUT.run, OUT.trace, OUT.ncu.csv, OUT.csv).

# prof_trace BIN OUT: BIN once, at full speed, with the launch trace (OUT.trace); its output in
# OUT.run. ./run's failures (and its no-GPU message) stop here, with its exit status.
prof_trace() {
    local bin=$1 out=$2 rc n
    [ -f "$PROF_TRACE_LIB" ] || prof_die $PROF_EXIT_NOPROFILER "$PROF_TRACE_LIB is missing (make $PROF_TRACE_LIB builds it, with CUPTI from the CUDA Toolkit)"
    mkdir -p "$(dirname "$out")"
    n=$("$bin" -n "$P_N" --list-sizes 2>&1) || prof_die 2 "$bin: steps.conf's n=$P_N: $n"
    echo "$n" >"$out.n"
    rm -f "$out.trace"
    set +e
    CUDA_INJECTION64_PATH=$(realpath "$PROF_TRACE_LIB") LAB_LAUNCH_TRACE=$out.trace \
        "$bin" -n "$P_N" "${P_OPTS[@]}" --reps 2 --csv -q >"$out.run" 2>"$out.err"
    rc=$?
    set -e
    case $rc in
    0) ;;
    1) grep -v '^PASS,' "$out.run" | head -n 5 >&2
       prof_die 1 "${bin%/run}: FAIL: the kernel's results differ from the CPU reference; the counters of a wrong kernel teach nothing (make check STEP=... first)" ;;
    *) cat "$out.err" >&2; exit "$rc" ;; # 3: ./run's own no-GPU line; 2: a refused option; 4: CUDA
    esac
    [ -s "$out.trace" ] ||
        prof_die $PROF_EXIT_NOPROFILER "the launch trace of $bin is empty: the CUDA driver did not load $PROF_TRACE_LIB (CUPTI, libcupti.so, comes with the CUDA Toolkit)"
    prof_launches "$out"
    if [ "$(grep -c '^PASS,' "$out.run")" -gt 1 ]; then
        echo "make profile: $bin printed $(grep -c '^PASS,' "$out.run") results: the first one's timed run is profiled ($P_PARAMS)" >&2
    fi
}

# prof_launches OUT: from prof_trace's files, P_SKIP and P_COUNT (the launches before BIN's first
# timed run, and that run's), P_PARAMS (its result line's params) and P_SIZE (its n)
prof_launches() {
    local out=$1 line
    read -r P_SKIP P_COUNT < <(awk -f "$PROF_DIR/trace.awk" "$out.trace" || echo "- -")
    [ "$P_SKIP" != - ] || prof_die 1 "the launches of one timed run could not be told apart ($out.trace)"
    line=$(grep -m1 '^PASS,' "$out.run" || true)
    [ -n "$line" ] || prof_die 1 "no result line (--csv) in $out.run"
    IFS=, read -r _ _ P_PARAMS _ <<<"$line"
    P_SIZE=$(cat "$out.n")
}

# prof_ncu_run BIN OUT [NCU OPTIONS...]: BIN's first timed run under ncu (after prof_launches):
# ncu's output in OUT.ncu.csv, the program's in OUT.ncurun. Here the counters' permission shows.
prof_ncu_run() {
    local bin=$1 out=$2 rc
    shift 2
    set +e
    LC_ALL=C "$NCU" "$@" --launch-skip "$P_SKIP" --launch-count "$P_COUNT" --log-file "$out.ncu.csv" \
        "$bin" -n "$P_N" "${P_OPTS[@]}" --reps 2 --csv -q >"$out.ncurun" 2>&1
    rc=$?
    set -e
    if grep -qs 'ERR_NVGPUCTRPERM' "$out.ncu.csv" "$out.ncurun"; then
        prof_die $PROF_EXIT_NOPROFILER "the GPU's performance counters are not open to this user (ncu: ERR_NVGPUCTRPERM): run as root, or let every user profile (the NVIDIA driver's option NVreg_RestrictProfilingToAdminUsers=0, then reload the driver; https://developer.nvidia.com/ERR_NVGPUCTRPERM)"
    fi
    if [ $rc != 0 ] || grep -qs '^==ERROR==' "$out.ncu.csv" "$out.ncurun"; then
        grep -hs '^==ERROR==' "$out.ncu.csv" "$out.ncurun" | head -n 5 >&2
        prof_die 1 "ncu stopped with exit status $rc on $bin (its output: $out.ncu.csv, $out.ncurun)"
    fi
}

# prof_counters BIN OUT NAME: after prof_trace, the counters of BIN's first timed run -> OUT.csv
# (profile CSV rows with their column line; NAME: the step column)
prof_counters() {
    local bin=$1 out=$2 name=$3 list got
    list=$(prof_ncu_metrics "$P_METRICS") || prof_die 2 "$PROF_DIR/steps.conf: a metric of $name is not in metrics.conf"
    prof_launches "$out"
    prof_ncu_run "$bin" "$out" --csv --page raw --clock-control none --metrics "$list"
    got=$(grep -c '^"[0-9]' "$out.ncu.csv" || true)
    [ "$got" = "$P_COUNT" ] || prof_die 1 "ncu profiled $got launches of $bin where its timed run has $P_COUNT ($out.trace, $out.ncu.csv)"
    awk -v want="$P_METRICS" -v chapter="$P_CHAPTER" -v step="$name" -v params="$P_PARAMS" -v n="$P_SIZE" \
        -v min_read=$((${P_READ:-0} * P_SIZE)) -v min_write=$((${P_WRITE:-0} * P_SIZE)) -v header=1 \
        -f "$PROF_DIR/ncu.awk" "$PROF_DIR/metrics.conf" "$out.ncu.csv" >"$out.csv"
}

# prof_measure BIN OUT NAME: prof_trace, then prof_counters
prof_measure() {
    prof_trace "$1" "$2"
    prof_counters "$@"
}
