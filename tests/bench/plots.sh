#!/usr/bin/env bash
# plots.sh [--merge-only] - `make plots`: the benchmark CSVs -> PNG, SVG and PDF charts under
# docs/plots/<gpu>/. First each results/<gpu>/*.csv (a fresh `make bench`) newer than its committed
# docs/plots/<gpu>/ CSV is merged into it (tests/bench/merge.awk: by step, parameters and size, the
# newer run's row winning, no row lost; it says what it replaced), or copied there when there is
# none: the CSVs are committed next to the charts made from them, so anyone can re-plot without a
# GPU. --merge-only stops there. Then, for every docs/plots/<gpu>/<chapter>.csv, the charts its
# rows allow:
#   <chapter>-throughput   the chapter's metric against n (log-log): a line per step, CUB, the copy
#   <chapter>-ladder       every step and CUB at the largest n, with the ratio to CUB on each bar
#   <chapter>-ladder-nK    the same at n = 2^K, for steps that stop at 2^K (every bar at 2^K)
#   <chapter>-params       the parameter sweeps, a panel per swept option
#   <chapter>-phases       a multi-GPU step's time by phase, a bar per GPU count (rows with phases),
#                          and the CUB + NCCL anchor's (anchor:mgpu rows) beside it
#   <chapter>-gpus         its throughput against the GPU count (rows on two or more GPU counts)
#   <chapter>-speedup      its speed-up over one-GPU CUB against n, per GPU count, and the anchor's
# from ch10-analysis.csv (./run --analyze: step,n,metric,measured,book,printed):
#   ch10-reduction-counts  the book's printed counts against its formula and the measurement
# and from <chapter>-profile.csv (make profile-collect: Nsight Compute's counters of each step):
#   <chapter>-profile      the counters of the steps' lessons, a panel each (profile-charts.conf),
#                          chapter 10's beside ./run --analyze's counts
# A chart whose data is not there yet (no profile CSV before the GPU run, no rows on 2 GPUs) is
# skipped with one line.
# The metric fits the chapter: reduction GB/s (against the copy, the bandwidth ceiling), merge
# Gelem/s, sort Gkeys/s (a `# metric: COLUMN UNIT|YLABEL|XLABEL` line of the CSV overrides it). Labels
# and colours come from docs/catalogue.txt (a step has one colour in every chart of its
# chapter); what a --variant means from `# variant:` lines of the CSV, else the table below.
# Old charts of a chapter are removed first, so a chart no longer backed by rows disappears.
# gnuplot: the system's, or fetched into .deps/gnuplot (tests/bench/fetch-gnuplot.sh). The PDF
# comes from gnuplot's pdfcairo terminal; a gnuplot without it gets the PDF converted from the
# SVG by rsvg-convert when that is installed, else no PDF (said so).
# Environment: BENCH_RESULTS (default results), PLOTS_DIR (default docs/plots).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/../.."
results=${BENCH_RESULTS:-results}
plots=${PLOTS_DIR:-docs/plots}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

shopt -s nullglob
fresh=("$results"/*/*.csv)
for csv in "${fresh[@]}"; do
    gpu=$(basename "$(dirname "$csv")")
    mkdir -p "$plots/$gpu"
    dest=$plots/$gpu/${csv##*/}
    if [ ! -e "$dest" ]; then
        cp "$csv" "$dest"
        echo "plots: $csv -> $dest (no committed CSV to merge into)"
        continue
    fi
    [ "$csv" -nt "$dest" ] || continue
    d=$(sed -n 's/^# date: //p' "$csv" | head -n1)
    if [ -n "$d" ] && grep -q "^# \(date: $d\|merged: .*measured on $d \)" "$dest"; then
        echo "plots: $csv is merged into $dest already"
        continue
    fi
    echo "plots: $csv merged into $dest"
    awk -v out="$tmp/merged.csv" -v from="$csv" -v fresh_time="$(date -u -r "$csv" +%Y-%m-%dT%H:%M:%SZ)" \
        -f tests/bench/merge.awk "$dest" "$csv"
    case $? in
    0) mv "$tmp/merged.csv" "$dest" ;;
    3) ;;
    *) echo "plots: $dest left as it was" >&2; exit 1 ;;
    esac
done
[ "${1:-}" = --merge-only ] && exit 0
csvs=("$plots"/*/*.csv)
if [ ${#csvs[@]} = 0 ]; then
    echo "plots: no benchmark CSVs in $results/*/ or $plots/*/: run make bench on a GPU machine first" >&2
    exit 1
fi
gnuplot=$(bash tests/bench/fetch-gnuplot.sh)

formats="png svg pdf"
pdf_from_svg=""
if ! "$gnuplot" -e 'set print "-"; print GPVAL_TERMINALS' 2>/dev/null | grep -qw pdfcairo; then
    if command -v rsvg-convert >/dev/null 2>&1; then
        formats="png svg" pdf_from_svg=1
        echo "plots: this gnuplot has no pdfcairo terminal: the PDFs are converted from the SVGs (rsvg-convert)"
    else
        formats="png svg"
        echo "plots: this gnuplot has no pdfcairo terminal and rsvg-convert is missing: no PDFs" >&2
    fi
fi

# The facts the legends need that the CSV may not carry: what each --variant means (a CSV's
# `# variant: FOLDER NAME meaning` lines win), what each option means (its .help in the lab_opt
# table of the chapter that declares it, common/*/ and common/), and the anchors' names.
{
    printf 'variant\t%s\t%s\t%s\n' \
        step6-warp-volatile v1 "steps guarded: idx < 16, < 8, ..." \
        step6-warp-volatile v2 "lanes 0-15 run all five steps" \
        step7-warp-sync syncwarp "__syncwarp() between the steps" \
        step7-warp-sync shfl "through registers: __shfl_down_sync" \
        step6-sorting-networks bitonic "O(n log^2 n) work" \
        step6-sorting-networks odd-even "O(n^2) work, one block"
    printf 'anchor\t%s\t%s\n' anchor:mgpu "CUB + NCCL sample sort (anchor)"
    # each lab_opt entry {.name = "--tile", ..., .help = "elements per shared-memory tile"}
    cat common/*.c common/*/*.c 2>/dev/null | awk '
        { text = text " " $0 }
        END {
            while (match(text, /\.name *= *"--[a-z-]+"/)) {
                name = substr(text, RSTART, RLENGTH); sub(/^[^"]*"--/, "", name); sub(/"$/, "", name)
                text = substr(text, RSTART + RLENGTH)
                entry = substr(text, 1, index(text, "}"))
                gsub(/" *"/, "", entry) # "a" "b": one C string
                if (!(name in seen) && match(entry, /\.help *= *"[^"]*"/)) {
                    h = substr(entry, RSTART, RLENGTH); sub(/^[^"]*"/, "", h); sub(/"$/, "", h)
                    seen[name] = 1
                    printf "option\t%s\t%s\n", name, h
                }
            }
        }'
} >"$tmp/facts"

# metric_of CHAPTER CSV: "COLUMN UNIT|YLABEL|XLABEL", the chapter's metric and what its n counts
metric_of() {
    local m
    m=$(sed -n 's/^# metric: //p' "$2" | head -n1)
    if [ -n "$m" ]; then echo "$m"; return; fi
    case $1 in
    *-reduction*) echo "gbs GB/s|effective GB/s (bytes that must move / median time)|n (elements)" ;;
    *-merge*) echo "gelems Gelem/s|Gelem/s (10^9 output elements per second)|n = m + n (output elements)" ;;
    *-sort*) echo "gelems Gkeys/s|Gkeys/s (10^9 keys sorted per second)|n (keys)" ;;
    *) echo "gbs GB/s|effective GB/s (bytes that must move / median time)|n (elements)" ;;
    esac
}

# the awk program of a chart's data (and of plan, the charts a CSV makes), in its files' order:
# tokens.awk's rule for matching rows, plotdata.awk's reading, then the charts (its header)
plotdata=()
for part in tokens plotdata plotdata-series plotdata-ladder plotdata-params plotdata-multigpu plotdata-counts; do
    plotdata+=(-f "tests/bench/$part.awk")
done

# plot WHAT CSV OUT [AWK-ASSIGNMENTS...]: the data of one chart (plotdata), then render it
plot() {
    local what=$1 csv=$2 out=$3
    shift 3
    rm -rf "$tmp/data"
    mkdir -p "$tmp/data"
    awk -v what="$what" -v dir="$tmp/data" -v catalogue=docs/catalogue.txt -v facts="$tmp/facts" \
        -v metric="$metric" -v unit="$unit" "$@" "${plotdata[@]}" "$csv" >"$tmp/vars.gp"
    printf 'unit = %s\nylabel = %s\nxlabel = %s\n' "'$unit'" "'${ylabel//\'/\'\'}'" "'${xlabel//\'/\'\'}'" >>"$tmp/vars.gp"
    render "$what" "$csv" "$out"
}

# plot_profile CSV OUT CHAPTER ANALYSIS: a chapter's profile chart (profiledata.awk), then render it
plot_profile() {
    rm -rf "$tmp/data"
    mkdir -p "$tmp/data"
    awk -v chapter="$3" -v dir="$tmp/data" -f tests/profile/counters.awk -f tests/bench/profiledata.awk \
        tests/bench/profile-charts.conf "$1" "$4" >"$tmp/vars.gp"
    if grep -qx 'npanels = 0' "$tmp/vars.gp"; then
        echo "  $1 has no rows for the panels of tests/bench/profile-charts.conf: no chart"
        return
    fi
    render profile "$1" "$2"
}

# render WHAT CSV OUT: tests/bench/WHAT.gp with $tmp/vars.gp, once per format; the PDF dated as
# the measurement (CSV's # date:)
render() {
    local what=$1 csv=$2 out=$3 fmt stamp
    for fmt in $formats; do
        if ! "$gnuplot" -e "fmt = '$fmt'; out = '$out'; here = '$here/'" "$tmp/vars.gp" "tests/bench/$what.gp" \
            2>"$tmp/gnuplot.log"; then
            cat "$tmp/gnuplot.log" >&2
            echo "plots: gnuplot failed on $out.$fmt (data: $csv; its variables: $tmp/vars.gp)" >&2
            trap - EXIT
            exit 1
        fi
    done
    if [ -n "$pdf_from_svg" ]; then rsvg-convert -f pdf -o "$out.pdf" "$out.svg"; fi
    # the PDF's creation date: the measurement's (the CSV's # date:), so that plotting the same
    # CSV again gives the same file (a date of the same length keeps the PDF's offsets right)
    stamp=$(sed -n 's/^# date: //p' "$csv" | head -n1 | tr -dc 0-9 | cut -c1-14)
    if [ -e "$out.pdf" ] && [ ${#stamp} = 14 ]; then
        LC_ALL=C sed "s|/CreationDate (D:[0-9]\{14\}Z)|/CreationDate (D:${stamp}Z)|" "$out.pdf" >"$tmp/stamped.pdf"
        mv "$tmp/stamped.pdf" "$out.pdf"
    fi
    echo "  $out.png .svg$([ -e "$out.pdf" ] && echo ' .pdf')"
}

for dir in "$plots"/*/; do
    dir=${dir%/}
    gpu=${dir##*/}
    for csv in "$dir"/*.csv; do
        name=$(basename "$csv" .csv)
        case $name in
        *-analysis | *-profile) continue ;; # the counts and profile charts: below
        esac
        echo "plots: $csv"
        for f in "$dir/$name"-*.png "$dir/$name"-*.svg "$dir/$name"-*.pdf; do
            case ${f##*/} in
            "$name"-counts.* | "$name"-profile.*) ;; # from the analysis and profile CSVs, below
            *) rm -f "$f" ;;
            esac
        done
        m=$(metric_of "$name" "$csv")
        IFS='|' read -r metric ylabel xlabel <<<"$m"
        unit=${metric#* } metric=${metric%% *}
        xlabel=${xlabel:-n}
        plan=$(awk -v what=plan -v stem="$name-ladder" -v metric="$metric" -v catalogue=docs/catalogue.txt \
               "${plotdata[@]}" "$csv")
        [ -n "$plan" ] || echo "  no size or parameter sweep in it: no chart"
        if grep -qx phases <<<"$plan" && ! grep -qx speedup <<<"$plan"; then
            echo "  no rows on 2 or more GPUs (make bench on a machine with several adds them): no gpus or speedup chart"
        fi
        while read -r chart n suffix; do
            case $chart in
            "") ;;
            ladder) plot ladder "$csv" "$dir/$name-ladder$suffix" -v at="$n" -v stem="$name-ladder" ;;
            *) plot "$chart" "$csv" "$dir/$name-$chart" ;;
            esac
        done <<<"$plan"
    done
    # chapter 10's counts: <prefix>-analysis.csv beside <prefix>-<name>.csv
    for analysis in "$dir"/*-analysis.csv; do
        prefix=$(basename "$analysis" -analysis.csv)
        chapter=$prefix
        for c in "$dir/$prefix"-*.csv; do
            case $c in "$analysis" | *-profile.csv) ;; *) chapter=$(basename "$c" .csv) ;; esac
        done
        echo "plots: $analysis"
        rm -f "$dir/$chapter"-counts.{png,svg,pdf}
        metric=count unit=count ylabel=count xlabel=N
        # the GPU's name: the chapter CSV's (else the folder's), as the analysis rows' # gpu: line
        name=$(sed -n 's/^# gpu: //p' "$dir/$chapter.csv" 2>/dev/null | head -n1) || true
        { echo "# gpu: ${name:-$gpu}"; sed -n '/^# date: /p' "$dir/$chapter.csv" 2>/dev/null | head -n1
          cat "$analysis"; } >"$tmp/analysis.csv"
        plot counts "$tmp/analysis.csv" "$dir/$chapter-counts" -v chapter="$chapter"
    done
    if [ -n "$(find "$dir" -maxdepth 1 -name 'ch10-*.csv' ! -name '*-analysis.csv' ! -name '*-profile.csv')" ] && [ ! -e "$dir/ch10-analysis.csv" ]; then
        echo "plots: no $dir/ch10-analysis.csv (./run --analyze gave no counts): no counts plot"
    fi
    # each chapter's profile (make profile-collect), beside --analyze's counts where there are some
    for csv in "$dir"/*.csv; do
        name=$(basename "$csv" .csv)
        case $name in *-analysis | *-profile) continue ;; esac
        if [ ! -e "$dir/$name-profile.csv" ]; then
            echo "plots: no $dir/$name-profile.csv (make profile-collect on a GPU writes it): no profile chart"
        fi
    done
    for prof in "$dir"/*-profile.csv; do
        chapter=$(basename "$prof" -profile.csv)
        echo "plots: $prof"
        rm -f "$dir/$chapter"-profile.{png,svg,pdf}
        analysis=$dir/${chapter%%-*}-analysis.csv
        [ -e "$analysis" ] || analysis=/dev/null
        plot_profile "$prof" "$dir/$chapter-profile" "$chapter" "$analysis"
    done
done
