#!/usr/bin/env bash
# plots.sh - `make plots`: the benchmark CSVs -> PNG and SVG under docs/plots/<gpu>/.
# First results/<gpu>/*.csv (a fresh `make bench`) are copied to docs/plots/<gpu>/ when newer:
# the CSVs are committed next to the plots made from them, so anyone can re-plot without a
# GPU. Then, for every docs/plots/<gpu>/<chapter>.csv:
#   <chapter>-throughput  effective GB/s against n: a line per step, CUB dashed, the copy ceiling
#   <chapter>-ladder      every step and CUB at the largest n: % of the copy ceiling, ratio to CUB
#   <chapter>-params      the parameter sweeps, a panel per swept option
# and from ch10-analysis.csv (./run --analyze: step,n,metric,measured,book,printed):
#   ch10-reduction-counts the measured counts beside the book's
# gnuplot: the system's, or fetched into .deps/gnuplot (tests/bench/fetch-gnuplot.sh).
# Environment: BENCH_RESULTS (default results), PLOTS_DIR (default docs/plots).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/../.."
results=${BENCH_RESULTS:-results}
plots=${PLOTS_DIR:-docs/plots}

shopt -s nullglob
fresh=("$results"/*/*.csv)
for csv in "${fresh[@]}"; do
    gpu=$(basename "$(dirname "$csv")")
    mkdir -p "$plots/$gpu"
    if [ ! -e "$plots/$gpu/${csv##*/}" ] || [ "$csv" -nt "$plots/$gpu/${csv##*/}" ]; then
        cp "$csv" "$plots/$gpu/"
        echo "plots: $csv -> $plots/$gpu/"
    fi
done
csvs=("$plots"/*/*.csv)
if [ ${#csvs[@]} = 0 ]; then
    echo "plots: no benchmark CSVs in $results/*/ or $plots/*/: run make bench on a GPU machine first" >&2
    exit 1
fi
gnuplot=$(bash tests/bench/fetch-gnuplot.sh)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# plot WHAT CSV OUT [gnuplot assignments]: the data of one plot (plotdata.awk), then
# tests/bench/WHAT.gp once for the PNG and once for the SVG.
plot() {
    local what=$1 csv=$2 out=$3 fmt
    shift 3
    rm -rf "$tmp/data"
    mkdir -p "$tmp/data"
    awk -v what="$what" -v dir="$tmp/data" -f tests/bench/plotdata.awk "$csv" >"$tmp/vars.gp"
    for fmt in png svg; do
        if ! "$gnuplot" -e "fmt = '$fmt'; out = '$out'; here = '$here/'; $*" "$tmp/vars.gp" "tests/bench/$what.gp" \
            2>"$tmp/gnuplot.log"; then
            cat "$tmp/gnuplot.log" >&2
            echo "plots: gnuplot failed on $out.$fmt (data: $csv)" >&2
            exit 1
        fi
    done
    echo "  $out.png, .svg"
}

# has_sweep SWEEP CSV: whether CSV has rows whose sweep column starts with SWEEP
has_sweep() { awk -F, -v s="$1" '!/^#/ && index($11, s) == 1 { found = 1; exit } END { exit !found }' "$2"; }

for dir in "$plots"/*/; do
    dir=${dir%/}
    gpu=${dir##*/}
    for csv in "$dir"/*.csv; do
        name=$(basename "$csv" .csv)
        case $name in
        *-analysis) continue ;;
        esac
        echo "plots: $csv"
        if has_sweep size "$csv"; then
            plot throughput "$csv" "$dir/$name-throughput"
            plot ladder "$csv" "$dir/$name-ladder"
        else
            echo "  no size sweep in it: no throughput or ladder plot"
        fi
        if has_sweep param: "$csv"; then
            plot params "$csv" "$dir/$name-params"
        else
            echo "  no parameter sweep in it: no params plot"
        fi
    done
    # chapter 10's counts: <prefix>-analysis.csv beside <prefix>-<name>.csv
    for analysis in "$dir"/*-analysis.csv; do
        prefix=$(basename "$analysis" -analysis.csv)
        chapter=$prefix
        for c in "$dir/$prefix"-*.csv; do
            [ "$c" = "$analysis" ] || chapter=$(basename "$c" .csv)
        done
        name=$(sed -n "s/^# gpu: //p" "$dir/$chapter.csv" 2>/dev/null | head -n1 | tr -d "'") || true
        echo "plots: $analysis"
        plot counts "$analysis" "$dir/$chapter-counts" "gpu = '${name:-$gpu}'; chapter = '$chapter'"
    done
    if [ -n "$(find "$dir" -maxdepth 1 -name 'ch10-*.csv' ! -name '*-analysis.csv')" ] && [ ! -e "$dir/ch10-analysis.csv" ]; then
        echo "plots: no $dir/ch10-analysis.csv (./run --analyze gave no counts): no counts plot"
    fi
done
