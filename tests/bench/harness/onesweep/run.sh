#!/bin/bash
# run.sh - the speed and tuning harness of ch13 step 7 (the single-pass radix sort), built from
# the step's own source, on one GPU (an H100) in about 4 minutes. Builds each variant (a copy of
# solutions/ch13-sort/step7-onesweep/ with its sed scripts applied, compiled with harness.cu,
# check.cu and speed.cu and its -D flags; inputs.cu once for all), then runs
#   real          the step as it is: the full correctness suite (both entry points), then
#                 speed against cub::DeviceRadixSort in the same process
#   wrong-*       the step's wrong variants (tests/mutants/ch13-sort/onesweep-*.sed): caught
#                 when the harness finds a wrong result
#   the others    what each idea is worth: speed (and the output compared with CUB's)
#   suite         the step's Criterion suite (build/solutions/ch13-sort/step7-onesweep/test),
#                 when it is built and time is left
# and prints a summary table LAST. Exit status: 0 when every result of the step and of every
# measured variant is right and every wrong variant is caught, 1 otherwise (2: a build failed).
# Timings never fail it.
#   bash tests/bench/harness/onesweep/run.sh          build what is stale, run (from anywhere)
#   bash tests/bench/harness/onesweep/run.sh build    build only (no GPU needed): ptxas registers and spills
#   BUDGET=230 (seconds: a run that would end past it is skipped), REBUILD=1, SUITE=0 (skip it)
#   SET=pairs    the pairs' variants instead (PAIRS_VARIANTS below): each one's speed (2^28 keys, pairs
#                at 2^24 and 2^28, output compared with CUB's), then each one's quick correctness suite
#   ONLY="a b"   only these variants (and real)
# Build outputs: build/harness-onesweep/ (ignored by git); logs in build/harness-onesweep/logs/,
# and with $OUT set, packed into $OUT/onesweep-logs.tgz.
set -u
export NCCL_NVLS_ENABLE=0
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
STEP=$ROOT/solutions/ch13-sort/step7-onesweep
MUT=$ROOT/tests/mutants/ch13-sort
B=$ROOT/build/harness-onesweep
mkdir -p "$B"
START=$(date +%s)
elapsed() { echo $(($(date +%s) - START)); }
BUDGET=${BUDGET:-230}

NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_HOME=$(dirname "$(dirname "$NVCC")")
FLAGS="-O3 -std=c++17 -arch=sm_90 -lineinfo -I$ROOT/common -I$ROOT/common/ch13-sort -I$HERE -Xcompiler -Wall,-Wno-unused-function"

# name | sed scripts (applied in order to the step's headers) | -D flags | CUB linked (1) or not (0) | what it is
VARIANTS=(
    "real|||1|the step as it is"
    "lb1||-DONESWEEP_LOOKBACK_WINDOW=1|1|onesweep_look_back reads one earlier tile per round trip (CUB's walk)"
    "matchany|$HERE/variants/matchany.sed||1|one __match_any_sync instead of eight votes"
    "cvotes|$HERE/variants/cvotes.sed||1|the eight votes in C instead of PTX"
    "digitmajor|$HERE/variants/digitmajor.sed||1|status words [digit][tile]: uncoalesced"
    "twowords-lb1|$MUT/onesweep-split-status.sed $HERE/variants/fenced.sed|-DONESWEEP_LOOKBACK_WINDOW=1|1|flag and count in two words with __threadfence on each side (compare with lb1)"
    "t512k15||-DONESWEEP_THREADS=512 -DONESWEEP_KEYS_PER_THREAD=15|1|512 threads x 15 keys (the same tile, more warps)"
    "k24||-DONESWEEP_KEYS_PER_THREAD=24|1|384 x 24 keys"
    "k16||-DONESWEEP_KEYS_PER_THREAD=16|1|384 x 16 keys"
    "warpsame|$HERE/variants/warpsame.sed||1|one atomicAdd a warp where its 32 keys share a digit (runs: sorted keys)"
    "wrong-a|$MUT/onesweep-aggregate-as-prefix.sed||0|wrong: an aggregate read as an inclusive prefix"
    "wrong-b|$MUT/onesweep-split-status.sed||0|wrong: flag and count in two words, no fence"
    "wrong-c|$MUT/onesweep-unstable-rank.sed||0|wrong: an unstable ranking"
)
SPEED_ORDER="lb1 matchany cvotes digitmajor twowords-lb1 t512k15 k24 k16 warpsame"

# SET=pairs: what the pairs' sort is worth in other forms (ONESWEEP_MIN_BLOCKS_PAIRS, the step as it
# was before 2026-11-28, and forms not kept: README.md has their numbers); a tile other than 384 x 19
# changes the keys' tile too (their row shows it)
V=$HERE/variants
PAIRS_VARIANTS=(
    "real|||1|the step as it is"
    "p-mb1||-DONESWEEP_MIN_BLOCKS_PAIRS=1|1|pairs: 1 block per SM asked"
    "p-mb3||-DONESWEEP_MIN_BLOCKS_PAIRS=3|1|pairs: 3 blocks per SM asked"
    "p-var|$V/pairs-values-after-rank.sed||1|pairs: values loaded after the ranking, staged before the look-back (the step before 2026-11-28)"
    "p-nofl|$V/no-full-load.sed||1|a full tile's loads test every key against the tile's end, as the last tile's do (the step before 2026-11-28)"
    "p-old|$V/pairs-values-after-rank.sed $V/no-full-load.sed||1|both: the step before 2026-11-28"
    "p-fs|$V/full-scatter.sed||1|a full tile's scatter tests no key either (the tile's size a literal)"
    "p-ldcs|$V/load-streaming.sed||1|a full tile's loads with __ldcs (read once: evicted first from L2)"
    "p-kf|$V/pairs-keys-first.sed||1|pairs: keys out, then values through the same shared memory (CUB's order)"
    "p-lb2||-DONESWEEP_LOOKBACK_WINDOW=2|1|the look-back reads 2 earlier tiles per round trip (keys too; the step: 4)"
    "p-lb8||-DONESWEEP_LOOKBACK_WINDOW=8|1|the look-back reads 8 earlier tiles per round trip (keys too)"
    "p-k23||-DONESWEEP_KEYS_PER_THREAD=23|1|384 x 23 (keys too); pairs as the step"
    "p-kf-k23|$V/pairs-keys-first.sed|-DONESWEEP_KEYS_PER_THREAD=23|1|384 x 23 (keys too); pairs keys first: CUB's form"
)
SET=${SET:-all}
case $SET in
all) ;;
pairs)
    VARIANTS=("${PAIRS_VARIANTS[@]}")
    SPEED_ORDER=$(printf '%s\n' "${PAIRS_VARIANTS[@]}" | cut -d'|' -f1 | grep -vx real | tr '\n' ' ')
    ;;
*)
    echo "SET=$SET: all or pairs"
    exit 2
    ;;
esac
if [ -n "${ONLY:-}" ]; then # real, the wrong variants, and the variants named
    kept=()
    for v in "${VARIANTS[@]}"; do
        name=${v%%|*}
        [[ " real wrong-a wrong-b wrong-c $ONLY " == *" $name "* ]] && kept+=("$v")
    done
    VARIANTS=("${kept[@]}")
    SPEED_ORDER=$(for t in $SPEED_ORDER; do [[ " $ONLY " == *" $t "* ]] && echo "$t"; done | tr '\n' ' ')
fi

# ---- build (parallel) --------------------------------------------------------
# Skipped when every binary is there and the sources' checksum is the one they were built from
# (a build carried from the development machine: mtimes may not survive the copy), unless
# REBUILD=1 or "build". The harness's own files: every *.cu and *.h of this folder.
SOURCES="$STEP/*.cuh $STEP/*.h $STEP/*.cu $MUT/onesweep-*.sed $HERE/variants/*.sed $HERE/*.cu $HERE/*.h"
SUM=$( (cat $SOURCES; printf '%s\n' "${VARIANTS[@]}" "$FLAGS") | cksum)
fresh=1
[ "$(cat "$B/sources.sum" 2>/dev/null)" = "$SUM" ] || fresh=0
for v in "${VARIANTS[@]}"; do
    IFS='|' read -r name seds defs cub what <<<"$v"
    [ -x "$B/$name" ] || fresh=0
done
if [ $fresh = 1 ] && [ "${REBUILD:-0}" = 0 ] && [ "${1:-}" != build ]; then
    echo "== using the binaries in $B (built from these sources; REBUILD=1 rebuilds)"
else
    rm -f "$B/sources.sum"
    echo "== build ($NVCC) into $B"
    for c in lab launch; do
        gcc -O2 -std=gnu11 -I"$ROOT/common" -I"$CUDA_HOME/include" -c "$ROOT/common/$c.c" -o "$B/$c.o" || exit 2
    done
    "$NVCC" $FLAGS -c "$HERE/cub_bench.cu" -o "$B/cub_bench.o" >"$B/cub_bench.build.log" 2>&1 &
    CUB_PID=$!
    "$NVCC" $FLAGS -I"$STEP" -c "$HERE/inputs.cu" -o "$B/inputs.o" >"$B/inputs.build.log" 2>&1 &
    INPUTS_PID=$! # the inputs and the CPU reference: nothing of the step's but onesweep.h
    build_variant() { # name nvcc-flags...: its harness.cu (the step's kernels), check.cu, speed.cu, one log
        local name=$1 f p rc=0 pids=()
        shift
        for f in harness check speed; do
            "$NVCC" "$@" -Xptxas -v -c "$HERE/$f.cu" -o "$B/$name.$f.o" >"$B/$name.$f.log" 2>&1 &
            pids+=($!)
        done
        for p in "${pids[@]}"; do wait "$p" || rc=1; done
        cat "$B/$name".{harness,check,speed}.log >"$B/$name.build.log" # harness.cu's ptxas lines first
        rm -f "$B/$name".{harness,check,speed}.log
        return $rc
    }
    PIDS=()
    for v in "${VARIANTS[@]}"; do
        IFS='|' read -r name seds defs cub what <<<"$v"
        src=$B/src/$name
        rm -rf "$src" && mkdir -p "$src" && cp "$STEP"/*.cuh "$STEP"/*.h "$STEP"/*.cu "$src"/
        for s in $seds; do # one sed per pass: a script may edit lines an earlier one wrote
            cat "$src"/*.cuh >"$src/before.all"
            for f in "$src"/*.cuh; do sed -i -f "$s" "$f"; done # it edits the header that holds its lines
            cat "$src"/*.cuh | cmp -s - "$src/before.all" && { echo "$name: $s changed nothing"; exit 2; }
        done
        for f in $defs; do # a knob the step no longer reads would time the step itself under this name
            m=${f#-D}
            grep -q "^#ifndef ${m%%=*}\b" "$src"/*.cuh || { echo "$name: $f: the step has no knob ${m%%=*}"; exit 2; }
        done
        extra=""
        [ "$cub" = 0 ] && extra="-DNO_CUB"
        build_variant "$name" $FLAGS -I"$src" $defs $extra -DHARNESS_NAME="\"$name\"" -DHARNESS_WHAT="\"$what\"" &
        PIDS+=($!)
    done
    fail=0
    wait $CUB_PID || { echo "cub_bench.cu failed to build:"; cat "$B/cub_bench.build.log"; fail=1; }
    wait $INPUTS_PID || { echo "inputs.cu failed to build:"; cat "$B/inputs.build.log"; fail=1; }
    i=0
    for v in "${VARIANTS[@]}"; do
        IFS='|' read -r name seds defs cub what <<<"$v"
        if ! wait "${PIDS[$i]}"; then
            echo "$name failed to build:"
            cat "$B/$name.build.log"
            fail=1
        else
            objs="$B/$name.harness.o $B/$name.check.o $B/$name.speed.o $B/inputs.o $B/lab.o $B/launch.o"
            [ "$cub" = 1 ] && objs="$objs $B/cub_bench.o"
            "$NVCC" -arch=sm_90 $objs -o "$B/$name" || fail=1
        fi
        i=$((i + 1))
    done
    [ $fail = 0 ] || exit 2
    rm -f "$B"/*.o # only the binaries travel (build/harness-onesweep is small enough to carry)
    echo "$SUM" >"$B/sources.sum"
    echo "built ${#VARIANTS[@]} variants in $(elapsed) s"
fi

# registers, spills and static shared memory of each pass kernel (ptxas -v)
REGROWS=()
for v in "${VARIANTS[@]}"; do
    IFS='|' read -r name seds defs cub what <<<"$v"
    info=$(awk '/Compiling entry function/ { k = ""; if ($0 ~ /onesweep_keys/) k = "keys"; if ($0 ~ /onesweep_pairs/) k = "pairs" }
                k != "" && /spill stores/ { sp[k] = $5 + $9 }
                k != "" && /Used [0-9]+ registers/ {
                    for (i = 1; i <= NF; i++) { if ($i == "registers,") r[k] = $(i - 1); if ($i == "smem") s = $(i - 2) }
                    k = ""
                }
                END { printf "regs keys %s pairs %s; spilled B keys %s pairs %s; static smem %s B", r["keys"], r["pairs"],
                      sp["keys"], sp["pairs"], s }' "$B/$name.build.log" 2>/dev/null)
    REGROWS+=("ROW|$name|ptxas (dynamic smem: the tile, 4 B a key; pairs 8, or 4 keys first)|-|$info")
done
[ "${1:-}" = build ] && { printf '%s\n' "${REGROWS[@]}" | cut -d'|' -f2,5; exit 0; }

# ---- run -----------------------------------------------------------------------
ROWS=()
ok=1
LOGS=$B/logs
rm -rf "$LOGS" && mkdir -p "$LOGS"
go() { # name limit args...: one harness mode with a time limit, to the terminal and a log
    local name=$1 limit=$2
    shift 2
    echo
    echo "== $name $* (limit ${limit}s, at $(elapsed)s)"
    timeout "$limit" "$B/$name" "$@" >"$LOGS/$name.$1.log" 2>&1
    local rc=$?
    cat "$LOGS/$name.$1.log"
    return $rc
}
rows_of() { grep '^ROW|' "$LOGS/$1.$2.log" 2>/dev/null; }
late() { [ $(($(elapsed) + $1)) -ge "$BUDGET" ]; } # late SECONDS: would a run that long end past the budget?
verdict() { # rc of a wrong variant's run -> caught / not caught / ...
    case $1 in
    1) echo "caught" ;;
    0) echo "NOT caught" ;;
    124) echo "hang (timeout)" ;;
    *) echo "error rc $1" ;;
    esac
}

if [ "$SET" = pairs ]; then # speed first (each output compared with CUB's), then the quick suites
    PAIRS_TABLE=("variant|ptxas: registers, spilled bytes|blocks/SM|ours/CUB: pairs 2^28 2^24; keys 2^28 (ms)|quick suite")
    for t in real $SPEED_ORDER; do
        if late 25; then ROWS+=("ROW|$t|speed pairs|skipped|time budget"); continue; fi
        go $t 30 speed pairs
        rc=$?
        [ $rc = 0 ] || ok=0
        ROWS+=("$(rows_of $t speed | grep 'ours/CUB:' || echo "ROW|$t|speed pairs|FAIL|rc $rc")")
    done
    for t in real $SPEED_ORDER; do
        if late 20; then ROWS+=("ROW|$t|correctness (quick)|skipped|time budget"); continue; fi
        go $t 30 quick stop
        rc=$?
        [ $rc = 0 ] || ok=0
        ROWS+=("$(rows_of $t quick || echo "ROW|$t|correctness (quick)|FAIL|rc $rc")")
    done
    for t in real $SPEED_ORDER; do # one line a variant
        regs=$(printf '%s\n' "${REGROWS[@]}" | awk -F'|' -v t="$t" '$2 == t { print $5 }' | sed 's/; static.*//')
        blocks=$(rows_of "$t" speed | awk -F'|' '$3 ~ /^blocks per SM/ { print $4 }')
        speed=$(rows_of "$t" speed | awk -F'|' '$3 ~ /ours\/CUB/ { print ($4 == "same output as CUB" ? "" : $4 ": ") $5 }')
        quick=$(rows_of "$t" quick | awk -F'|' '{ print $4 " " $5 }')
        PAIRS_TABLE+=("$t|${regs:--}|${blocks:--}|${speed:-not run}|${quick:-not run}")
    done
    SUITE=${SUITE:-0}
else
    if [ "${ABLATIONS_ONLY:-0}" != 1 ]; then
    go real 100 check
    rc=$?
    [ $rc = 0 ] || ok=0
    ROWS+=("$(rows_of real check || echo "ROW|real|correctness (full)|FAIL|rc $rc (124: timeout, 4: CUDA error)")")
    fi
    go real 45 speed
    rc=$?
    [ $rc = 0 ] || ok=0
    ROWS+=("$(rows_of real speed)")
    [ $rc = 0 ] || ROWS+=("ROW|real|speed run|FAIL|rc $rc")

    [ "${ABLATIONS_ONLY:-0}" = 1 ] || for w in wrong-a wrong-c; do
        go $w 30 quick stop
        rc=$?
        [ $rc = 1 ] || ok=0
        ROWS+=("ROW|$w|quick suite, stop at the first wrong|$(verdict $rc)|$(rows_of $w quick | cut -d'|' -f5)")
    done
    if late 45 || [ "${ABLATIONS_ONLY:-0}" = 1 ]; then
        ROWS+=("ROW|wrong-b|repeat|skipped|time budget or ABLATIONS_ONLY")
    else
        go wrong-b 45 repeat 10
        rc=$?
        [ $rc = 1 ] || ok=0
        r=$(rows_of wrong-b repeat)
        ROWS+=("${r:-ROW|wrong-b|repeat|$(verdict $rc)|no result line}")
    fi

    for t in $SPEED_ORDER; do
        if late 35; then ROWS+=("ROW|$t|speed|skipped|time budget"); continue; fi
        go $t 35 speed
        rc=$?
        [ $rc = 0 ] || ok=0
        ROWS+=("$(rows_of $t speed | grep 'ours/CUB:' || echo "ROW|$t|speed|FAIL|rc $rc")")
    done
fi

SUITE_BIN=$ROOT/build/solutions/ch13-sort/step7-onesweep/test
if [ "${SUITE:-1}" = 0 ]; then
    :
elif [ ! -x "$SUITE_BIN" ]; then
    ROWS+=("ROW|suite|the step's Criterion suite|skipped|not built (make CUDA_ARCH=90 build/solutions/ch13-sort/step7-onesweep/test)")
elif late 60; then
    ROWS+=("ROW|suite|the step's Criterion suite|skipped|time budget")
else
    left=$((BUDGET - $(elapsed)))
    echo
    echo "== suite (limit ${left}s, at $(elapsed)s)"
    (cd "$ROOT" && timeout "$left" "$SUITE_BIN" --jobs 4 --tap="$LOGS/suite.tap" >"$LOGS/suite.log" 2>&1)
    rc=$?
    grep -v '^\[RUN \]\|^\[PASS\]' "$LOGS/suite.log" | tail -n 25
    synth=$(grep -o 'Synthesis:.*' "$LOGS/suite.log" | tail -n1 | tr '|' ';')
    skipped=$(grep -c '# SKIP' "$LOGS/suite.tap" 2>/dev/null)
    if [ $rc = 127 ] || grep -q 'error while loading shared libraries' "$LOGS/suite.log"; then
        ROWS+=("ROW|suite|the step's Criterion suite|skipped|cannot start (carry .deps: Criterion's library)")
    else
        [ $rc = 0 ] || ok=0
        ROWS+=("ROW|suite|the step's Criterion suite|$([ $rc = 0 ] && echo PASS || echo "FAIL rc $rc")|${synth:-no synthesis line}; skipped $skipped")
    fi
fi

if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT"
    cp "$B"/*.build.log "$LOGS"/ 2>/dev/null
    tar czf "$OUT/onesweep-logs.tgz" -C "$B" logs
fi

# ---- the summary table, last -----------------------------------------------------
table() { # |-separated lines in aligned columns: column(1) where there is one (not on every GPU machine)
    if command -v column >/dev/null; then
        column -t -s'|'
    else
        awk -F'|' '{ n[NR] = NF; for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } }
                   END { for (r = 1; r <= NR; r++) { l = ""; for (i = 1; i <= n[r]; i++) l = l sprintf("%-" (w[i] + 2) "s", c[r, i]); sub(/ +$/, "", l); print l } }'
    fi
}
echo
echo "== summary (total $(elapsed) s)   profile: see tests/bench/harness/onesweep/README.md"
if [ "$SET" = pairs ]; then # one line a variant (ptxas: the pairs' kernel, then the keys')
    printf '%s\n' "${PAIRS_TABLE[@]}" | table
    printf '%s\n' "${VARIANTS[@]}" | awk -F'|' '{ gsub(/[^ ]*\/variants\//, "", $2); printf "  %-14s %s %s %s\n", $1, $2, $3, $5 }'
else
    {
        echo "variant|what|result|details"
        printf '%s\n' "${REGROWS[@]}" "${ROWS[@]}" | grep '^ROW|' | cut -d'|' -f2-
    } | table
fi
echo "step 7 and its variants: $([ $ok = 1 ] && echo "PASS (right results, wrong variants caught)" || echo FAIL)"
[ $ok = 1 ]
