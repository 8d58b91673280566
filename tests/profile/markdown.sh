#!/usr/bin/env bash
# markdown.sh CHAPTER [CSV] - the chapter guide's table of counters, as markdown, from the chapter's
# committed profile (default: docs/plots/NVIDIA_H100_80GB_HBM3/CHAPTER-profile.csv; make
# profile-collect writes it): a row per step of the ladder, with the counters its lesson is in
# (steps.conf's lesson=), the time of one run, the effective bandwidth and the DRAM bandwidth used.
# With no such CSV every figure is "(H100: TBD)": the placeholder the guides carry until then.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. tests/profile/lib.sh
[ $# -ge 1 ] || prof_die 2 "usage: markdown.sh CHAPTER [CSV]"
ch=${1%/}
csv=${2:-docs/plots/NVIDIA_H100_80GB_HBM3/$ch-profile.csv}
[ -f "$csv" ] || csv=/dev/null
lessons=$(mktemp)
trap 'rm -f "$lessons"' EXIT
while read -r s; do
    (prof_conf "$s"; printf '%s\t%s\t%s\n' "$s" "$P_LESSON" "$P_N")
done < <(prof_steps_of "$ch") >"$lessons"
[ -s "$lessons" ] || prof_die 2 "markdown.sh: no steps in $ch"
awk -f tests/profile/counters.awk -f tests/profile/markdown.awk "$lessons" "$csv"
