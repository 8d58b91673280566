#!/usr/bin/env bash
# device-check.sh CHAPTER...: on a GPU machine, builds the chapters' steps
# (solutions and exercises) and their suites, runs the suites, the wrong
# variants, the unmodified exercises, each solution's ./run at its default
# size, and compute-sanitizer. Logs go to ${OUT:-build}/; a summary prints last.
set -uo pipefail
out=${OUT:-build}; mkdir -p "$out"
sol=() ex=() muts=()
for ch in "$@"; do
    for s in solutions/$ch/step*/; do sol+=("${s%/}"); done
    for s in $ch/step*/; do ex+=("${s%/}"); done
    muts+=(tests/mutants/$ch/*.sed)
done
targets=(build/tests/common)
for s in "${sol[@]}"; do targets+=("build/$s/run" "build/$s/test"); done
for s in "${ex[@]}"; do targets+=("build/$s/run" "build/$s/test"); done
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$out/gpu.txt"
make -j"$(nproc)" -k "${targets[@]}" >"$out/build.log" 2>&1 || { tail -n 40 "$out/build.log"; echo "BUILD FAILED"; }
tests_sol=(); for s in "${sol[@]}"; do tests_sol+=("build/$s/test"); done
tests_ex=(); for s in "${ex[@]}"; do tests_ex+=("build/$s/test"); done
bash tests/tools/run-suites.sh suites build/tests/common "${tests_sol[@]}" >"$out/suites.log" 2>&1; rs=$?
bash tests/tools/run-suites.sh exercises "${tests_ex[@]}" >"$out/exercises.log" 2>&1; re=$?
bash tests/tools/mutants.sh "${muts[@]}" >"$out/mutants.log" 2>&1; rm=$?
for s in "${sol[@]}"; do echo "\$ build/$s/run"; "build/$s/run"; done >"$out/runs.log" 2>&1
if [ "${SANITIZE:-1}" = 1 ]; then bash tests/tools/sanitize.sh "${sol[@]}" >"$out/sanitize.log" 2>&1; rz=$?; else rz=skipped; fi
echo "== suites (exit $rs)"; grep -E 'Synthesis|Skipped|passed|!!' "$out/suites.log"
echo "== exercises (exit $re)"; cat "$out/exercises.log"
echo "== wrong variants (exit $rm)"; cat "$out/mutants.log"
echo "== ./run"; grep -E '^(PASS|FAIL)|error' "$out/runs.log"
echo "== sanitize (exit $rz)"; [ -f "$out/sanitize.log" ] && grep -vE '^clean' "$out/sanitize.log"; grep -c '^clean' "$out/sanitize.log" 2>/dev/null
