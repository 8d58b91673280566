#!/usr/bin/env bash
# bench.sh [CHAPTER...] - runs the sweeps of tests/bench/sweeps.conf for each chapter (default:
# every chapter there) on this machine's GPU and writes results/<gpu>/<chapter>.csv; `make bench`
# builds what it needs and calls this. Rows go to results/<gpu>/<chapter>.raw as they come, so
# `bench.sh --join results/<gpu>/<chapter>.raw` can make the CSV of an interrupted run.
#
# Environment: BENCH_REPS (timed runs per batch, default 10; each run still batches until its
# median is stable), BENCH_MAX (cap every sweep at this size, e.g. 2^20 for a quick check),
# BENCH_TIMEOUT (seconds per ./run, default 300), BENCH_RESULTS (default results), BENCH_COMMIT
# (the commit to record where git is missing), BENCH_GPU (the GPU's name, instead of asking
# nvidia-smi), BENCH_BUILD (default build), BENCH_CONF (default tests/bench/sweeps.conf).
#
# A run that refuses a size (exit 2: ./run's "cannot run") is skipped for that size with a note;
# a FAIL (exit 1), a CUDA error, no GPU or a timeout stops the bench at once.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/../.."
conf=${BENCH_CONF:-tests/bench/sweeps.conf}
build=${BENCH_BUILD:-build}
results=${BENCH_RESULTS:-results}
reps=${BENCH_REPS:-10}
limit=${BENCH_TIMEOUT:-300}
cap=${BENCH_MAX:-}

die() { echo "bench: $*" >&2; exit 1; }

# ---- sizes: the size syntax is ./run's own (common/options.c): ask a binary that reads it ----
# The copy baseline (every make bench builds it) prints the sizes a -n spec names, one a line
# (--list-sizes: no GPU needed); its -n has no upper limit, so a size a step refuses still runs
# there and is skipped for that step alone (exit 2, below).
sizer=$build/bench/copy
sizes_of() { # SPEC -> its sizes, one a line
    local out
    [ -x "$sizer" ] || die "$sizer is missing: it reads the size syntax for the bench (make $sizer)"
    out=$("$sizer" -n "$1" --list-sizes 2>&1) || die "bad size '$1' in $conf: ${out#copy: }"
    echo "$out"
}
size_num() { # one size -> its number
    local v
    v=$(sizes_of "$1") || exit 1
    [ "$(wc -l <<<"$v")" = 1 ] || die "'$1' in $conf names several sizes where one is needed"
    echo "$v"
}
size_text() { # 16777216 -> 2^24; other numbers as they are
    local k=0
    while (( (1 << k) < $1 )); do k=$((k + 1)); done
    if (( (1 << k) == $1 && k > 0 )); then echo "2^$k"; else echo "$1"; fi
}
sizes_text() { # a list of numbers -> "2^10:2^28" when it is a run of three or more powers of two
    local s expect=$1 t=()
    for s in "$@"; do t+=("$(size_text "$s")"); [ "$s" = "$expect" ] && expect=$((s * 2)) || expect=x; done
    if [ $# -gt 2 ] && [ "$expect" != x ] && [[ ${t[0]} == *^* ]]; then echo "${t[0]}:${t[-1]}"; else local IFS=,; echo "${t[*]}"; fi
}
size_list() { # a -n spec ("2^10:2^28", "1000,2^20") -> its sizes, capped by BENCH_MAX
    local v top=0 all
    if [ -n "$cap" ]; then top=$(size_num "$cap") || exit 1; fi
    all=$(sizes_of "$1") || exit 1
    for v in $all; do ((top && v > top)) || echo "$v"; done
}

# ---- the configuration ------------------------------------------------------
declare -A max focus vs report
declare -a order=() entries=()
chapter=""
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    line=${line%%#*}
    read -r -a w <<<"$line" || true
    [ ${#w[@]} -gt 0 ] || continue
    case ${w[0]} in
    chapter) [ ${#w[@]} = 3 ] || die "$conf:$lineno: chapter NAME MAX"
             chapter=${w[1]}; max[$chapter]=${w[2]}; order+=("$chapter") ;;
    focus) focus[$chapter]=${w[*]:1} ;;
    vs) [ ${#w[@]} = 3 ] || die "$conf:$lineno: vs GLOB PREFIX"
        vs[$chapter]+="${w[1]} ${w[2]}"$'\n' ;;
    report) [ ${#w[@]} = 4 ] || die "$conf:$lineno: report GLOB N TARGET"
            report[$chapter]+="${w[1]} ${w[2]} ${w[3]}"$'\n' ;;
    size | analyze) [ ${#w[@]} -ge 2 ] || die "$conf:$lineno: ${w[0]} TARGET [OPTION...]"
                    entries+=("$chapter"$'\t'"$line") ;;
    param) [ ${#w[@]} -ge 5 ] || die "$conf:$lineno: param TARGET N --OPTION V1,V2,..."
           entries+=("$chapter"$'\t'"$line") ;;
    *) die "$conf:$lineno: unknown line '${w[0]}'" ;;
    esac
    [ -n "$chapter" ] || die "$conf:$lineno: a chapter line must come first"
done <"$conf"

# ---- the GPU and the code ---------------------------------------------------
commit() { # BENCH_COMMIT, or git's HEAD (and whether the tree differs from it)
    if [ -n "${BENCH_COMMIT:-}" ]; then
        echo "$BENCH_COMMIT"
    elif git rev-parse --short HEAD 2>/dev/null; then
        git diff --quiet HEAD 2>/dev/null || echo "(with local changes)"
    else
        echo "unknown (no git here: set BENCH_COMMIT)"
    fi | paste -sd' ' -
}
gpu_header() {
    local name driver cuda sel nv
    if [ -n "${BENCH_GPU:-}" ]; then
        name=$BENCH_GPU driver="(not asked: BENCH_GPU given)" cuda=""
    else
        command -v nvidia-smi >/dev/null || die "nvidia-smi not found: make bench runs on a machine with an NVIDIA GPU and its driver"
        sel=${CUDA_VISIBLE_DEVICES:-}
        sel=${sel%%,*} # the GPU the runs use: CUDA's first visible one
        query() { nvidia-smi "$@" --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n1; }
        IFS=, read -r name driver < <(query ${sel:+-i "$sel"} || true; query || true) || die "nvidia-smi lists no GPU"
        driver=${driver# }
        cuda=$(nvidia-smi | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -n1) || true
    fi
    nv=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\), *\(V[0-9.]*\).*/\1 (\2)/p') || true
    gpu_name=$name
    gpu_dir=${name//[^A-Za-z0-9._-]/_}
    header=("# gpu: $name"
            "# driver: $driver${cuda:+ (its CUDA: $cuda)}"
            "# cuda: nvcc ${nv:-unknown}"
            "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
            "# commit: $(commit)"
            "# timing: device events around device work only, warm-up first, L2 flushed before each timed run, batches of $reps until the median moves < 1% (common/timing.c)"
            "# columns: median_ms; spread = (max - min) / median; gbs = effective GB/s, the bytes that must move / median time; gelems = 1e9 elements/s; ratio_cub = CUB's median / this row's (same kind of work, same n; CUB's fastest form measured); ratio_copy = gbs / the copy's gbs at the same n; sweep = size or param:<option>"
            "# bytes that must move: reduction 4 per element (read once); merge 8 per output element (A and B read, C written); sort 8 per key, 16 per key-value pair (read once, written once); copy 8 per element")
}

# ---- running one line of the configuration ----------------------------------
t0=$SECONDS
elapsed() { local s=$((SECONDS - t0)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
buffered=()
if command -v stdbuf >/dev/null; then buffered=(stdbuf -oL); fi # rows as they come

# Reads a run's output: PASS rows go to the raw file (with the sweep) and the
# screen, the n of every row to $seen, FAIL rows to $fails; the rest is shown.
rows() {
    local sweep=$1 line status params n ms gbs gelems
    while IFS= read -r line; do
        case $line in
        PASS,* | FAIL,*)
            IFS=, read -r status _ params n _ ms _ gbs gelems <<<"$line"
            echo "$n" >>"$seen"
            if [ "$status" = PASS ]; then echo "$sweep,$line" >>"$raw"; else echo "$line" >>"$fails"; fi
            printf '    %s n=%-9s %11s ms %9s GB/s %9s Gelem/s%s\n' "$status" "$(size_text "$n")" "$ms" "$gbs" \
                "$gelems" "$(grep -o ' variant=[^ ]*' <<<" $params" || true)" ;;
        *) printf '    | %s\n' "$line" ;;
        esac
    done
}

# run SWEEP BIN LABEL "SIZES" [OPTION...]: BIN over SIZES (numbers) with the options. A
# refused size is noted and skipped, and the sizes after it run; anything else that is not
# a PASS stops the bench.
run() {
    local sweep=$1 bin=$2 label=$3 rc s refused
    local -a sizes left
    read -r -d '' -a sizes <<<"$4" || true
    shift 4
    job=$((job + 1))
    if [ ${#sizes[@]} = 0 ]; then
        echo "[$ch $job/$jobs] $label${*:+ $*}: no size left under BENCH_MAX=$cap"
        return
    fi
    while [ ${#sizes[@]} -gt 0 ]; do
        : >"$seen"
        : >"$fails"
        echo "[$ch $job/$jobs $(elapsed)] $label -n $(sizes_text "${sizes[@]}")${*:+ $*}"
        set +e
        timeout "$limit" "${buffered[@]}" "$bin" -n "$(IFS=,; echo "${sizes[*]}")" "$@" --reps "$reps" --csv -q \
            2>"$tmp/err" | rows "$sweep"
        rc=${PIPESTATUS[0]}
        set -e
        sed 's/^/    | /' "$tmp/err"
        case $rc in
        0) return ;;
        2) # the first size without a row is the one refused (all have rows: the last one)
            refused=${sizes[-1]}
            for s in "${sizes[@]}"; do
                if ! grep -qx "$s" "$seen"; then refused=$s; break; fi
            done
            echo "    skipped n=$(size_text "$refused"): refused (exit 2)"
            echo "# skipped: $label${*:+ $*} n=$(size_text "$refused"): $(tail -n1 "$tmp/err")" >>"$raw"
            left=()
            for s in "${sizes[@]}"; do
                if ((s > refused)); then left+=("$s"); fi
            done
            sizes=("${left[@]}") ;;
        1) cat "$fails" >&2
            die "FAIL: $label${*:+ $*}: a result differs from the CPU reference; reproduce with $bin -n $(cut -d, -f4 "$fails" | head -n1)${*:+ $*}" ;;
        3) die "no GPU: $bin found no usable CUDA device" ;;
        124) die "$label${*:+ $*} ran past $limit s (BENCH_TIMEOUT) and was stopped" ;;
        *) die "$label${*:+ $*} stopped with exit status $rc (4: a CUDA error, shown above)" ;;
        esac
    done
}

# analyze BIN TARGET: ./run --analyze (chapter 10, steps 1-3) -> rows of $analysis
analyze() {
    local bin=$1 target=$2 rc before
    job=$((job + 1))
    echo "[$ch $job/$jobs $(elapsed)] ${target##*/} --analyze"
    set +e
    timeout "$limit" "$bin" --analyze --csv -q >"$tmp/analyze" 2>"$tmp/err"
    rc=$?
    set -e
    sed 's/^/    | /' "$tmp/err"
    if [ $rc != 0 ]; then # the counts are an extra: note it, finish the chapter, fail at the end
        cat "$tmp/analyze"
        echo "bench: ${target##*/} --analyze stopped with exit status $rc: its counts are left out" >&2
        status=1
        return
    fi
    before=$(wc -l <"$analysis")
    awk -v step="$target" -f tests/bench/analysis.awk "$tmp/analyze" >>"$analysis"
    echo "    $(($(wc -l <"$analysis") - before)) counts beside the book's"
}

# bin_of TARGET: the binary a target runs (empty: a step folder that does not exist yet)
bin_of() {
    case $1 in
    */*) if [ -d "$1" ]; then echo "$build/$1/run"; fi ;;
    *) echo "$build/bench/$1" ;;
    esac
}

# matching GLOB: the lines of stdin that the shell pattern GLOB matches
matching() {
    local s
    while IFS= read -r s; do
        # shellcheck disable=SC2053 # a pattern, on purpose
        if [[ $s == $1 ]]; then echo "$s"; fi
    done
}

# join RAW: RAW's CSV beside it, with the ratios to CUB and to the copy (join.awk) and the
# figures of the chapter's report lines (report.awk) as # report: lines.
join() {
    local raw_file=$1 ch glob prefix n nn target s
    ch=$(basename "$raw_file" .raw)
    [ -n "${max[$ch]:-}" ] || die "no chapter $ch in $conf"
    local csv=${raw_file%.raw}.csv
    awk -F, '!/^#/ { print $3 }' "$raw_file" | sort -u >"$tmp/steps"
    # each step's CUB: the first vs line whose pattern matches it
    while IFS= read -r s; do
        while read -r glob prefix; do
            # shellcheck disable=SC2053 # a pattern, on purpose
            if [ -n "$glob" ] && [[ $s == $glob ]]; then
                printf '%s\t%s\n' "$s" "$prefix"
                break
            fi
        done <<<"${vs[$ch]:-}"
    done <"$tmp/steps" >"$tmp/map"
    awk -v chapter="$ch" -f tests/bench/tokens.awk -f tests/bench/join.awk "$tmp/map" "$raw_file" >"$tmp/csv"
    : >"$tmp/report"
    while read -r glob n target; do
        [ -n "$glob" ] || continue
        awk -F, '!/^#/ && $1 != "chapter" { print $2 }' "$tmp/csv" | sort -u | matching "$glob" >"$tmp/steps"
        nn=$(size_num "$n")
        awk -v n="$nn" -v ntext="$n" -v target="$target" -v glob="$glob" -v focus="${focus[$ch]:-}" \
            -f tests/bench/tokens.awk -f tests/bench/report.awk "$tmp/steps" "$tmp/csv" >>"$tmp/report"
    done <<<"${report[$ch]:-}"
    { awk '/^#/' "$tmp/csv"; cat "$tmp/report"; awk '!/^#/' "$tmp/csv"; } >"$csv"
    echo "== $ch: $(awk '!/^#/' "$csv" | wc -l) lines (the column line and the rows) in $csv"
    sed 's/^# report: /   /' "$tmp/report"
}

# ---- main -------------------------------------------------------------------
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seen=$tmp/seen fails=$tmp/fails status=0

if [ "${1:-}" = --join ]; then
    shift
    [ $# -gt 0 ] || die "--join results/<gpu>/<chapter>.raw ...: which runs"
    for f in "$@"; do join "$f"; done
    exit 0
fi

chapters=("$@")
[ ${#chapters[@]} -gt 0 ] || chapters=("${order[@]}")
for ch in "${chapters[@]}"; do
    [ -n "${max[$ch]:-}" ] || die "no chapter $ch in $conf (there: ${order[*]})"
done
gpu_header
outdir=$results/$gpu_dir
mkdir -p "$outdir"
echo "bench: $gpu_name -> $outdir/ (${chapters[*]})"

for ch in "${chapters[@]}"; do
    # the chapter's lines whose target exists, and how many runs they make
    todo=() jobs=0 job=0
    for e in "${entries[@]}"; do
        [ "${e%%$'\t'*}" = "$ch" ] || continue
        read -r -a w <<<"${e#*$'\t'}"
        bin=$(bin_of "${w[1]}")
        if [ -z "$bin" ]; then
            echo "[$ch] skipping '${w[*]}': no folder ${w[1]} (yet)"
            continue
        fi
        [ -x "$bin" ] || die "$bin is missing: make bench builds it (make $bin)"
        todo+=("${e#*$'\t'}")
        if [ "${w[0]}" = param ]; then
            IFS=, read -r -a vals <<<"${w[4]}"
            jobs=$((jobs + ${#vals[@]}))
        else
            jobs=$((jobs + 1))
        fi
    done
    raw=$outdir/$ch.raw
    analysis=$outdir/${ch%%-*}-analysis.csv
    {
        echo "# lab benchmark: $ch (make bench: the sweeps of $conf)"
        printf '%s\n' "${header[@]}"
        echo "# focus: ${focus[$ch]:-}"
    } >"$raw"
    rm -f "$analysis"
    for line in "${todo[@]}"; do
        read -r -a w <<<"$line"
        bin=$(bin_of "${w[1]}")
        label=${w[1]##*/}
        case ${w[0]} in
        size)
            spec=2^10:${max[$ch]} opts=()
            for ((i = 2; i < ${#w[@]}; i++)); do
                if [ "${w[i]}" = -n ] || [ "${w[i]}" = --size ]; then
                    i=$((i + 1))
                    spec=${w[i]}
                else
                    opts+=("${w[i]}")
                fi
            done
            list=$(size_list "$spec")
            run size "$bin" "$label" "$list" "${opts[@]}" ;;
        param)
            n=$(size_list "${w[2]}")
            if [ -z "$n" ]; then n=$(size_num "$cap"); fi # under BENCH_MAX: at the cap
            IFS=, read -r -a vals <<<"${w[4]}"
            for v in "${vals[@]}"; do
                run "param:${w[3]#--}" "$bin" "$label" "$n" "${w[3]}" "$v" "${w[@]:5}"
            done ;;
        analyze)
            [ -f "$analysis" ] || echo "step,n,metric,measured,book,printed" >"$analysis"
            analyze "$bin" "${w[1]}" ;;
        esac
    done
    if [ -f "$analysis" ]; then
        if [ "$(wc -l <"$analysis")" -gt 1 ]; then
            echo "== $analysis: $(($(wc -l <"$analysis") - 1)) counts (step,n,metric,measured,book,printed)"
        else
            rm -f "$analysis"
            echo "== --analyze gave no counts: no ${analysis##*/}, so no counts plot"
        fi
    fi
    join "$raw"
done
echo "bench: done in $(elapsed). Plots: make plots, wherever gnuplot is (with $results/ copied there)"
exit $status
