# kit-lib.sh - what the kit's own tests share, sourced (after set -uo pipefail) by loop-tests.sh
# and classroom-tests.sh, and for its copy of the tree by hang-gpu-demo.sh: the lab's top as the
# working folder, nvcc on PATH, the variables of a make that called the script unset; then
#   kit_scratch NAME      $tmp, a new scratch folder, removed at the end (KEEP=1 keeps it)
#   ok, bad, check, has   a check's verdict, counted in npass, nfail and failed
#   kit_summary NAME      the counts and the failures; its status is 0 when none failed
#   kit_copy_tree DIR     the tree as git sees it copied into DIR, .deps/ linked
#   ex STEP               a step's folder from its short name (ch12-merge/step3 -> step3-tiled's)
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
unset MAKEFLAGS MFLAGS MAKELEVEL
top=$(pwd)

kit_scratch() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    if [ "${KEEP:-0}" = 1 ]; then echo "scratch: $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
}

npass=0 nfail=0 failed=()
ok() { echo "ok    $*"; npass=$((npass + 1)); }
bad() { echo "FAIL  $*"; nfail=$((nfail + 1)); failed+=("$*"); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
has() { grep -q -- "$1" "$2"; }   # PATTERN FILE

kit_summary() {
    echo
    echo "$1: $npass passed, $nfail failed ($(($(date +%s) - t0)) s)"
    local f; for f in "${failed[@]}"; do echo "  FAILED: $f"; done
    [ "$nfail" = 0 ]
}

# The files git tracks and the untracked ones it does not ignore (where there is no git: every file
# but build/ and .deps/), as they are in the working tree.
kit_copy_tree() {
    mkdir -p "$1"
    { git ls-files -co --exclude-standard 2>/dev/null || find . -type f ! -path './build/*' ! -path './.deps/*' ! -path './.git/*'; } |
        while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done | tar -cf - -T - | tar -C "$1" -xf -
    if [ -d .deps ]; then ln -s "$top/.deps" "$1/.deps"; fi
}

ex() { ls -d "$1"-*/ 2>/dev/null | head -n1 | sed 's|/$||'; }
