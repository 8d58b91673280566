#!/usr/bin/env bash
# loop-tests.sh: the student's loop on a machine without a GPU (CI: .ci/run), in a scratch copy of
# this tree made a git repository, so that `git status` can say whether a command deleted or changed
# a file. 2 to 5 minutes on 2 cores, most of it building. Each check prints ok/FAIL; a summary
# prints last; exit status 1 when a check failed.
#   No command deletes a file: issue 23's reproductions (a missing header, then make: the solution's
#     header was deleted; make -B of a step: the solution's kernel file was deleted), make V=1 -B,
#     make clean beside a file of the student's named run; git status stays clean.
#   A missing file is named with the way back (git checkout, make exercises STEP=); make status
#     still lists every step; make exercises STEP= writes it again and nothing else.
#   Step paths as a shell completes them (a trailing /), ./ in STEP=; a failed build leaves no ./run.
#   CHAPTERS= narrowed to one chapter still builds a step that uses another chapter's wing.
#   Started is what differs from the exercise as generated: a file whose first line is gone is
#     edited; make status and make exercises agree when only HINTS was edited.
#   TODO comments and HINTS fit 100 columns; make hint shows a TODO whose comment is gone.
#   make help lists every command README.md lists; make sanitize says what is missing before it
#     builds; make check without a GPU says how many host tests ran the student's code.
#   Issue 37: an exercise builds on the student's own steps (no path of solutions/ in its build),
#     and make check says first which TODOs of them are left; make status, make -q and make -n
#     leave build/.arch alone; the every-architecture notice only where a build starts; make status
#     marks a check result older than the files; make plots merges a quick bench losing no row;
#     make docs-check catches a stale TODO line, a README's TODO(k) and a target make help lacks.
# CUDA_ARCH (default 90) is the one architecture built. KEEP=1 keeps the scratch folder.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/kit-lib.sh" # the top as the working folder, the verdicts' helpers
export CUDA_ARCH=${CUDA_ARCH:-90}
kit_scratch loop-tests
t0=$(date +%s)
[ -d solutions ] || { echo "loop-tests.sh runs in the instructors' tree (it has no solutions/ here)"; exit 2; }

# ---- a scratch copy of the tree, committed --------------------------------------------------------
t=$tmp/lab
kit_copy_tree "$t"
cd "$t" || exit 2
git init -q && git add -A && git -c user.name=lab -c user.email=lab@localhost commit -qm tree || { echo "git commit failed"; exit 2; }
clean_tree() { [ -z "$(git status --porcelain --untracked-files=no)" ]; }
mk() { make --no-print-directory "$@"; }

s3=$(ex ch12-merge/step3) s7=$(ex ch13-sort/step7)
hdr=$(cd "solutions/$s3" && ls *.h | head -n1) k3=$(cd "$s3" && ls *.cu | head -n1)

# ---- issue 23, items 1 and 12: no rule deletes a file ----------------------------------------------
mk -j2 ch12-merge/step3 >"$tmp/b1.log" 2>&1; rc=$?
check "make ch12-merge/step3 builds and links ./run (exit $rc)" [ "$rc" = 0 -a -L run ]
rm "$s3/$hdr"   # issue 37 item 3: nothing else touched, the objects built from it up to date
mk ch12-merge/step3 >"$tmp/b2.log" 2>&1; rc=$?
check "with $s3/$hdr gone, make ch12-merge/step3 fails (exit $rc)" [ "$rc" != 0 ]
mk ch12-merge/step3 >"$tmp/b2b.log" 2>&1; rc=$?
check "  ... and fails again, naming it (exit $rc): the old objects are not taken for current" \
    eval '[ "$rc" != 0 ] && grep -q "missing $hdr" "$tmp/b2b.log"' 
check "  ... and deletes nothing else: git status shows only $s3/$hdr gone" \
    [ "$(git status --porcelain --untracked-files=no)" = " D $s3/$hdr" ]
has "missing $hdr" "$tmp/b2.log" && has "git checkout -- $s3/$hdr" "$tmp/b2.log" && has "make exercises STEP=ch12-merge/step3" "$tmp/b2.log"
check "  ... names the missing file with both ways back (git checkout, make exercises STEP=)" [ $? = 0 ]
check "  ... and leaves no ./run of the old build" [ ! -e run -a ! -L run ]
mk status >"$tmp/st.log" 2>&1
check "make status lists every step and says $s3 is missing a file" \
    [ "$(grep -cE '^ch1[0-9]-[a-z]+/step[^ ]* +(untouched|edited|missing) ' "$tmp/st.log")" = "$(ls -d ch1*/step*/ | wc -l)" ]
has "^$s3 *missing" "$tmp/st.log" || bad "  ... status of $s3: $(grep "^$s3" "$tmp/st.log")"
mk exercises STEP=ch12-merge/step3 >"$tmp/ex.log" 2>&1; rc=$?
check "make exercises STEP=ch12-merge/step3 writes it again, and the tree is as committed (exit $rc)" eval '[ "$rc" = 0 ] && clean_tree'
mk -j2 ch12-merge/step3 >/dev/null 2>&1
rm "$s3/$k3"
mk ch12-merge/step3 >"$tmp/b3.log" 2>&1; rc=$?
check "with the kernel file gone, the step is still a step: make names $k3 (exit $rc)" eval '[ "$rc" = 2 ] && grep -q "missing $k3" "$tmp/b3.log"'
check "  ... and leaves no ./run of the old build" [ ! -e run -a ! -L run ]
git checkout -q -- "$s3"
for cmd in "-B ch13-sort/step7" "V=1 -B ch13-sort/step7"; do
    mk -j2 $cmd >"$tmp/b4.log" 2>&1; rc=$?
    check "make $cmd (exit $rc) deletes and changes nothing: git status is clean" eval 'clean_tree'
    clean_tree || git status --porcelain --untracked-files=no | head -n 5
done
rm -f run; echo 'my notes' >run
mk ch12-merge/step3 >"$tmp/b5.log" 2>&1; rc=$?
check "a file of yours named run: make STEP refuses to replace it (exit $rc)" eval '[ "$rc" != 0 ] && [ "$(cat run)" = "my notes" ]'
mk clean >/dev/null 2>&1
check "  ... and make clean keeps it" [ "$(cat run 2>/dev/null)" = "my notes" ]
rm -f run

# ---- step paths -------------------------------------------------------------------------------
mk -j2 "$s3/" >"$tmp/p1.log" 2>&1; rc=$?
check "make $s3/ (a trailing slash) builds that step (exit $rc)" eval '[ "$rc" = 0 ] && [ "$(readlink run)" = "$t/build/$s3/run" ]'
mk hint STEP=./ch12-merge/step3/ >"$tmp/p2.log" 2>&1; rc=$?
check "make hint STEP=./ch12-merge/step3/ (exit $rc)" eval '[ "$rc" = 0 ] && grep -q "^TODO(1)" "$tmp/p2.log"'
mk ch12-merge/step99 >"$tmp/p3.log" 2>&1; rc=$?
check "make ch12-merge/step99: not a step, said so (exit $rc)" eval '[ "$rc" != 0 ] && grep -q "is not a step" "$tmp/p3.log"'

# ---- issue 37: an exercise builds on the student's own steps, and asking changes nothing -------------
s4=$(ex ch12-merge/step4)
n=$(mk -n -B "build/$s4/test" "build/$s4/run" 2>/dev/null | grep -c 'solutions/')
check "the build of $s4 (it builds on steps 3 and 1) names no file of solutions/ ($n commands do)" [ "$n" = 0 ]
n=$(cat "build/$s3"/*.d 2>/dev/null | grep -c 'solutions/')
check "  ... and the dependencies of $s3's last build name none ($n do)" [ "$n" = 0 ]
if ! nvidia-smi -L >/dev/null 2>&1; then
    arch0=$(cat build/.arch)
    env -u CUDA_ARCH make --no-print-directory status >"$tmp/st0.log" 2>&1
    check "no GPU, no CUDA_ARCH: make status keeps build/.arch ($arch0)" [ "$(cat build/.arch)" = "$arch0" ]
    check "  ... and says $s3, built with CUDA_ARCH=$CUDA_ARCH, builds (not stale)" \
        eval 'grep -qE "^$s3 +[a-z]+ +[0-9]+ +yes " "$tmp/st0.log"'
    env -u CUDA_ARCH make --no-print-directory -q "build/$s3/run" >/dev/null 2>&1
    env -u CUDA_ARCH make --no-print-directory -n "build/$s3/run" >/dev/null 2>&1
    check "  ... and so do make -q and make -n" [ "$(cat build/.arch)" = "$arch0" ]
    # issue 37 item 5: the notice where a build for every architecture starts, and nowhere else
    mkdir -p "$tmp/none"
    { env -u CUDA_ARCH make --no-print-directory bench
      env -u CUDA_ARCH make --no-print-directory plots PLOTS_DIR="$tmp/none" BENCH_RESULTS="$tmp/none"
      env -u CUDA_ARCH make --no-print-directory profile STEP=ch12-merge/step3; } >"$tmp/nb.log" 2>&1
    check "make bench, make plots and make profile, which build nothing here, say nothing of every architecture" \
        eval '! grep -q "every architecture" "$tmp/nb.log"'
    (cd "$s3" && env -u CUDA_ARCH make -n) >"$tmp/sf.log" 2>&1
    check "cd $s3 && make (no CUDA_ARCH): says it builds for every architecture" has 'building for every architecture' "$tmp/sf.log"
    check "  ... and a dry run (-n) leaves build/.arch as it was" [ "$(cat build/.arch)" = "$arch0" ]
fi

# ---- started and edited: the generator's view, never a header line -------------------------------
s1=$(ex ch12-merge/step1); h1=$(cd "$s1" && ls *.h | head -n1)
sed -i 1d "$s1/$h1"
bash tests/tools/exercises.sh state "$s1" >"$tmp/e1.log"
check "a file of $s1 without its first line is edited" eval '[ "$(cut -f2 "$tmp/e1.log")" = edited ] && [ "$(cut -f4 "$tmp/e1.log")" = "$h1" ]'
git checkout -q -- "$s1"; echo "my note" >>"$s1/HINTS"
st=$(mk status 2>/dev/null | awk -v s="$s1" '$1 == s { print $2 }')
mk exercises STEP=ch12-merge/step1 >"$tmp/e2.log" 2>&1
check "only HINTS edited: make status says edited ($st), make exercises keeps it" eval '[ "$st" = edited ] && grep -q "^kept $s1" "$tmp/e2.log"'
git checkout -q -- "$s1"

# ---- the generated text fits 100 columns; hints outlive their TODO comment -------------------------
long=$(for d in ch1*/step*/; do awk -v f="$d" 'FILENAME ~ /HINTS$/ && length > 100 && NF > 1 { print FILENAME ":" FNR }
        /\/\* TODO\(/ { on = 1 } on && length > 100 { print FILENAME ":" FNR } on && /\*\// { on = 0 }' "$d"*; done | head -n 3)
check "every TODO comment and HINTS line fits 100 columns${long:+ (not: $long)}" [ -z "$long" ]
perl -0pi -e 's{/\* TODO\(1\).*?\*/}{/* mine */}s' "$s3/$k3"
mk hint STEP=ch12-merge/step3 >"$tmp/h1.log" 2>&1
check "make hint shows TODO(1) after its comment is gone, with its text" eval 'grep -q "^TODO(1)" "$tmp/h1.log" && grep -q "no longer in your files" "$tmp/h1.log"'
git checkout -q -- "$s3"

# ---- one chapter named: a step that uses another chapter's wing still builds ----------------------
# make bench CHAPTERS=ch13-sort (README.md) once dropped ch12's wing from ch13's merge sorts' compile.
mk -n -B CHAPTERS=ch13-sort build/solutions/ch13-sort/step5-merge-sort/run >"$tmp/n1.log" 2>&1; rc=$?
check "with CHAPTERS=ch13-sort, ch13 step 5 still compiles with ch12's wing (exit $rc)" \
    eval '[ "$rc" = 0 ] && grep -q "Icommon/ch12-merge" "$tmp/n1.log"'

# ---- help, sanitize, check -------------------------------------------------------------------------
mk help >"$tmp/help.log" 2>&1
missing=$(grep -oE '^\| `make [a-z-]+' README.md | sed 's/.*make //' | sort -u | while read -r c; do grep -q "make $c" "$tmp/help.log" || echo "$c"; done | tr '\n' ' ')
check "make help lists every command README.md's tables list${missing:+ (missing: $missing)}" [ -z "$missing" ]
if ! command -v compute-sanitizer >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    rm -rf build; mk sanitize >"$tmp/san.log" 2>&1; rc=$?
    check "make sanitize without its tool or a GPU: one line, nothing built (exit $rc)" \
        eval '[ "$rc" != 0 ] && [ "$(grep -c "NVCC\|LINK" "$tmp/san.log")" = 0 ] && grep -q "make sanitize: " "$tmp/san.log"'
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
    mk -j2 check STEP=ch12-merge/step3 >"$tmp/c1.log" 2>&1; rc=$?
    check "make check without a GPU: not a pass (exit $rc), and says how many host tests ran your code" \
        eval '[ "$rc" != 0 ] && grep -q "host tests that passed ran your code" "$tmp/c1.log" && grep -q "^make check took" "$tmp/c1.log"'
    grep -E 'host tests|make check took' "$tmp/c1.log" | sed 's/^/      /'
    check "  ... and says first that $s3 builds on ch12-merge/step1-co-rank, whose TODOs are left" \
        eval 'grep -q "^note: $s3 builds on your $(ex ch12-merge/step1), whose TODOs" "$tmp/c1.log"'
    echo '/* an edit */' >>"$s3/$k3"
    mk status >"$tmp/st2.log" 2>&1
    check "make status marks the last make check of $s3 as older than the file since edited" \
        eval 'grep -q "^$s3 .*NOT RUN.*(before you changed $s3/$k3)" "$tmp/st2.log"'
    git checkout -q -- "$s3"
fi

# ---- issue 37 item 4: make plots merges a quick bench into the committed CSV, losing no row ---------
committed=$(ls docs/plots/*/ch12-merge.csv | head -n1)
if [ -n "$committed" ]; then
    pd=$tmp/plots/G rd=$tmp/results/G; mkdir -p "$pd" "$rd"; cp "$committed" "$pd/ch12-merge.csv"
    rows0=$(grep -vc '^#' "$pd/ch12-merge.csv")
    { grep '^#' "$committed" | grep -v '^# \(report\|merged\)' | sed 's/^# date: .*/# date: 2099-01-01T00:00:00Z/'
      grep '^chapter,' "$committed"
      grep -v '^#' "$committed" | grep ',size,' | sed -n '2,3p' | awk -F, -v OFS=, '{ $5 = "7.777"; print }'
      grep -v '^#' "$committed" | grep ',size,' | sed -n '2p' | awk -F, -v OFS=, '{ $4 = 12345; print }'; } >"$rd/ch12-merge.csv"
    PLOTS_DIR="$tmp/plots" BENCH_RESULTS="$tmp/results" bash tests/bench/plots.sh --merge-only >"$tmp/merge.log" 2>&1; rc=$?
    rows1=$(grep -vc '^#' "$pd/ch12-merge.csv")
    check "a quick bench of 3 rows merged into the committed CSV ($rows0 lines): $rows1 lines, none lost (exit $rc)" \
        [ "$rc" = 0 -a "$rows1" = $((rows0 + 1)) ]
    check "  ... the newer run's rows win ($(grep -c ',7.777,' "$pd/ch12-merge.csv") of 2), and it says what it replaced" \
        eval '[ "$(grep -c ",7.777," "$pd/ch12-merge.csv")" = 2 ] && [ "$(grep -c "^    replaced " "$tmp/merge.log")" = 2 ] && grep -q "2 replace" "$tmp/merge.log"'
    sed 's/^/      /' "$tmp/merge.log" | head -n 4 | cut -c1-160
    touch "$rd/ch12-merge.csv"
    PLOTS_DIR="$tmp/plots" BENCH_RESULTS="$tmp/results" bash tests/bench/plots.sh --merge-only >"$tmp/merge2.log" 2>&1
    check "  ... and a second make plots merges nothing again" eval '[ "$(grep -vc "^#" "$pd/ch12-merge.csv")" = "$rows1" ] && grep -q "already" "$tmp/merge2.log"'
fi

# ---- issue 37 item 6: make docs-check catches a stale TODO line, a README's TODO(k) and a target -----
sed -i "s|$s3/$k3:33: TODO(3)|$s3/$k3:47: TODO(3)|" README.md
sed -i 's/TODO(1) `load_tile`/TODO(1) `merge_tile`/' "solutions/$s3/README.md"
printf '\n`make no-such-target` does nothing.\n' >>docs/instructors.md
bash tests/tools/docs-check-steps.sh >"$tmp/dc.log" 2>&1; rc=$?
check "docs-check names a quoted TODO line that the exercise no longer has (exit $rc)" has "README.md:.*$s3/$k3:47: TODO(3)" "$tmp/dc.log"
check "  ... a README's TODO(1) that names another function than the code's" has "TODO(1) names merge_tile; .* load_tile()" "$tmp/dc.log"
check "  ... and a make target that make help does not list" has "names make no-such-target" "$tmp/dc.log"
git checkout -q -- README.md "solutions/$s3/README.md" docs/instructors.md
check "at the end, git status is clean" clean_tree

kit_summary "loop tests"
