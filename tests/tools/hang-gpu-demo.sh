#!/usr/bin/env bash
# hang-gpu-demo.sh: issue 37 item 1 on a GPU machine: a kernel that never ends fails `make check`
# and `make grade` within 60 s in all; the first launch past its deadline stops the suite's GPU
# tests with one message. About 2 minutes on one H100. In a scratch copy of this tree (DEMO_DIR=dir
# keeps it there; default a temporary folder, removed at the end), as a student has it:
#   1. ch12 steps 1, 3 and 4 filled with the solution's files (step 4 builds on 3 and 1); the
#      lab's own code built; make check STEP=ch12-merge/step4, the control: it passes;
#   2. the wrong variant tests/mutants/ch12-merge/step4-co-rank-circular-unwrapped.sed applied to
#      step 4's circular.h (co_rank_circular's index without its wrap: A_S_start + i % tile_size,
#      a search that never ends); make check STEP=ch12-merge/step4, timed from the start of the
#      command, the step's build included;
#   3. make grade STEP=ch12-merge/step4 in that copy (in place), timed the same way.
# Then a table: each expectation and what happened; exit 1 when one is not met, 3 with no GPU.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/kit-lib.sh" # the top as the working folder, kit_copy_tree, ex
nvidia-smi -L >/dev/null 2>&1 || { echo "hang-gpu-demo.sh: no NVIDIA GPU visible (nvidia-smi finds none): it runs on a GPU machine"; exit 3; }
if [ -n "${DEMO_DIR:-}" ]; then tmp=$DEMO_DIR; rm -rf "$tmp"; mkdir -p "$tmp"; else tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; fi
rows=() bad=0
row() { rows+=("$(printf '%-4s  %-58s %-26s %s' "$4" "$1" "$2" "$3")"); [ "$4" = ok ] || bad=1; }   # WHAT EXPECTED GOT ok|FAIL
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | head -n1

# ---- the student's tree ---------------------------------------------------------------------------
t=$tmp/lab
kit_copy_tree "$t"
cd "$t" || exit 2
s1=$(ex ch12-merge/step1) s3=$(ex ch12-merge/step3) s4=$(ex ch12-merge/step4)
mut=tests/mutants/ch12-merge/step4-co-rank-circular-unwrapped.sed
for s in "$s1" "$s3" "$s4"; do
    for f in solutions/"$s"/*.cu solutions/"$s"/*.cuh solutions/"$s"/*.h solutions/"$s"/*.c; do [ -f "$f" ] && cp "$f" "$s/"; done
done
echo "== building the lab's own code and ch12-merge/step4 (filled with the solution)"
make -j"$(nproc)" "build/$s4/test" "build/$s4/run" >"$tmp/build.log" 2>&1 || { tail -n 20 "$tmp/build.log"; echo "the build failed"; exit 1; }

# ---- 1. the control ------------------------------------------------------------------------------
echo "== 1. make check STEP=ch12-merge/step4, the solution's files"
make check STEP=ch12-merge/step4 >"$tmp/check0.log" 2>&1; rc=$?
grep -E 'Synthesis|^PASS|^FAIL|took' "$tmp/check0.log"
row "control: make check of step 4 filled with the solution" "exit 0, PASS" "exit $rc" "$([ "$rc" = 0 ] && grep -q '^PASS: all' "$tmp/check0.log" && echo ok || echo FAIL)"

# ---- 2. the kernel that never ends: make check ---------------------------------------------------
sed -i -f "$mut" "$s4/circular.h"
echo "== 2. $mut applied: $(diff <(sed -f "$mut" "$top/solutions/$s4/circular.h") "$top/solutions/$s4/circular.h" | sed -n 's/^< *//p' | head -n1)"
echo "   make check STEP=ch12-merge/step4 (the step rebuilt from the edit)"
t0=$(date +%s.%N)
make check STEP=ch12-merge/step4 >"$tmp/check1.log" 2>&1; rc=$?
dt=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
grep -E 'Synthesis|^stopped|^FAIL|^compute-sanitizer|took|did not finish within' "$tmp/check1.log" | cut -c1-240
tap=build/$s4/test.tap
gpu_fail=$(grep '^not ok' "$tap" | grep -vc 'circular_host::')
host_fail=$(grep '^not ok' "$tap" | grep -c 'circular_host::')
stopped=$(grep -c '# SKIP not run: the GPU did not finish' "$tap")
others=$(grep '# SKIP' "$tap" | grep -vc 'the GPU did not finish')
echo "   $dt s, exit $rc; GPU tests failed: $gpu_fail; stopped with the hang's reason: $stopped; host tests failed: $host_fail (ASan: the read past the tile)"
row "make check of the variant fails" "exit non-zero" "exit $rc" "$([ "$rc" != 0 ] && echo ok || echo FAIL)"
row "  ... within 60 s in all, the step's build included" "<= 60 s" "$dt s" "$(awk -v d="$dt" 'BEGIN { exit !(d <= 60) }' && echo ok || echo FAIL)"
row "  ... one GPU test fails (the first past its deadline)" "1" "$gpu_fail" "$([ "$gpu_fail" = 1 ] && echo ok || echo FAIL)"
row "  ... the suite's other GPU tests stop, with that one reason" ">= 1 stopped, 0 other skips" "$stopped stopped, $others other" \
    "$([ "$stopped" -ge 1 ] && [ "$others" = 0 ] && grep -q '^stopped: the GPU did not finish' "$tmp/check1.log" && echo ok || echo FAIL)"
if command -v compute-sanitizer >/dev/null; then
    row "  ... and compute-sanitizer does not run the endless kernel" "said so" "$(grep -c '^compute-sanitizer was not run' "$tmp/check1.log") line" \
        "$(grep -q '^compute-sanitizer was not run' "$tmp/check1.log" && echo ok || echo FAIL)"
fi

# ---- 3. the same files graded ---------------------------------------------------------------------
echo "== 3. make grade STEP=ch12-merge/step4 (in place)"
t0=$(date +%s.%N)
make grade STEP=ch12-merge/step4 GRADE_OUT="$tmp/grade" >"$tmp/grade.log" 2>&1; rc=$?
dt=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
line=$(grep "^$s4 " "$tmp/grade/table.txt")
echo "   $line" | cut -c1-240
echo "   $dt s, exit $rc; the suite ran $(cat "$tmp/grade/logs/$s4/seconds" 2>/dev/null) s"
row "make grade of the variant: 0 points" "0/10" "$(awk '{ print $3 }' <<<"$line")" "$([[ $line == *" 0/"* ]] && echo ok || echo FAIL)"
row "  ... saying the suite stopped after a kernel that never finished" "in its reason" "$(grep -c 'a kernel never finished' <<<"$line") mention" \
    "$(grep -q 'a kernel never finished' <<<"$line" && echo ok || echo FAIL)"
row "  ... within 60 s in all" "<= 60 s" "$dt s" "$(awk -v d="$dt" 'BEGIN { exit !(d <= 60) }' && echo ok || echo FAIL)"

echo
printf '%-4s  %-58s %-26s %s\n' "" "check" "expected" "got"
printf '%s\n' "${rows[@]}"
[ "$bad" = 0 ] && echo "hang demo: every expectation met" || echo "hang demo: an expectation was not met (FAIL above; logs in ${DEMO_DIR:-the scratch folder: DEMO_DIR=dir keeps them})"
exit $bad
