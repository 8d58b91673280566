#!/usr/bin/env bash
# format.sh [--fix]: every C and CUDA file of the lab's master (common/, solutions/, tests/) as
# .clang-format lays it out; CI fails on one that differs. The exercise folders are generated
# from solutions/ (make exercises), so they follow it. --fix rewrites the files that differ.
set -uo pipefail
cd "$(dirname "$0")/../.."
command -v clang-format >/dev/null || { echo "format: clang-format is not installed (Debian: apt-get install clang-format)"; exit 2; }
bad=0
while IFS= read -r f; do
    if ! clang-format --style=file "$f" | cmp -s - "$f"; then
        if [ "${1:-}" = --fix ]; then clang-format -i --style=file "$f"; echo "formatted $f"
        else echo "not formatted: $f (tests/tools/format.sh --fix, or clang-format -i)"; bad=1; fi
    fi
done < <(git ls-files 'common/*' 'solutions/*' 'tests/*' | grep -E '\.(c|h|cu|cuh)$' | grep -v '^tests/bench/harness/')
[ $bad = 0 ] && echo "format: every file as .clang-format lays it out ($(clang-format --version | head -n1))"
exit $bad
