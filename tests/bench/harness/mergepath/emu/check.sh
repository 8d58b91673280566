#!/bin/bash
# check.sh BUILD... - runs the CPU emulation builds (make check builds them):
# the real ones must pass, under AddressSanitizer and ThreadSanitizer too; each
# wrong variant (mutant-*) must be caught. Exit 1 otherwise.
cd "$(dirname "$0")" || exit 2
status=0
for b in "$@"; do
    args=() expect=pass
    case $b in
    mutant-*) args=(--expect-fail) expect=caught ;;
    small-tsan) args=(--max 4000) ;;
    real) args=(--max 170000) ;;
    esac
    out=$(TSAN_OPTIONS=halt_on_error=1 timeout 900 ../../../../../build/harness-mergepath/emu/$b/emu "${args[@]}" 2>&1); rc=$?
    line=$(grep -m1 '^CHECK' <<<"$out")
    if [ $rc = 0 ]; then echo "ok      $b ($expect): $line"
    else echo "PROBLEM $b (rc $rc, expected $expect): ${line:-no CHECK line}"; grep -m5 -E "FAIL|ERROR|WARNING|SUMMARY|emu:" <<<"$out"; status=1; fi
done
exit $status
