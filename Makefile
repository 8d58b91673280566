# The lab's one entry point. `make help` lists the commands; README.md explains them.
SHELL := /bin/bash
.DEFAULT_GOAL := help
.SUFFIXES:
.DELETE_ON_ERROR:

# ---- quiet by default: one line per target; V=1 shows every command --------------
V ?= 0
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-6s %s\n' '$(1)' '$(2)'
MAKEFLAGS += --no-print-directory
endif

empty :=
space := $(empty) $(empty)

# ---- toolchain ------------------------------------------------------------
NVCC ?= nvcc
CC := gcc
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(shell command -v $(NVCC)))
# CUDA_ARCH: the compute capabilities to build for. Unset: the visible GPU's; with no GPU
# visible (a cluster's login node), `all`: one fat binary for every architecture this toolkit
# supports, plus PTX, so it runs on whatever GPU the job lands on. `make CUDA_ARCH=80` or
# CUDA_ARCH="80 90" builds for those; changing it rebuilds.
ifeq ($(origin CUDA_ARCH),undefined)
CUDA_ARCH := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d .)
ifeq ($(CUDA_ARCH),)
CUDA_ARCH := all
ARCH_GUESSED := yes
endif
endif
ifeq ($(strip $(CUDA_ARCH)),all)
GENCODE := -arch=all
else
GENCODE := $(foreach a,$(CUDA_ARCH),-gencode arch=compute_$(a),code=[sm_$(a),compute_$(a)])
endif
# one architecture: its number for host code too (launch.h's LAB_SHARED_OPTIN_KIB sizes compile-time tiles)
ONE_ARCH := $(if $(word 2,$(CUDA_ARCH)),,$(if $(shell echo '$(strip $(CUDA_ARCH))' | grep -x '[0-9][0-9]*'),-DLAB_ONE_ARCH=$(strip $(CUDA_ARCH))))
NVFLAGS := -O3 -std=c++17 $(GENCODE) $(ONE_ARCH) -lineinfo -Icommon -Xcompiler -Wall,-Wno-unused-function -diag-suppress 177,550 -MMD -MP
CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra -Wno-unused-function -Icommon -I$(CUDA_HOME)/include -MMD -MP
# The tests' host code (suites, CPU references, host-callable step code such as co_rank) runs
# under AddressSanitizer and UBSan: an out-of-bounds read fails every time, not by luck.
SANFLAGS := -fsanitize=address -fsanitize=undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
TEST_CFLAGS := $(CFLAGS) $(SANFLAGS)
LDFLAGS_CUDA := $(GENCODE) -lm
LDFLAGS_TEST := $(LDFLAGS_CUDA) $(addprefix -Xcompiler ,$(SANFLAGS))

# The architectures are part of every object: a change of CUDA_ARCH rebuilds (build/.arch, written
# at the end of this file, by a make that builds: never by make status, make -q or make -n).
ARCH_STAMP := build/.arch

# ---- Criterion: the system's (pkg-config), or fetched into .deps/ without root ----
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
SYSTEM_CRITERION := $(shell pkg-config --exists criterion 2>/dev/null && echo yes)
ifeq ($(SYSTEM_CRITERION),)
CRIT_ROOT := .deps/root
CRIT_LIBDIR := $(CRIT_ROOT)/usr/lib/$(MULTIARCH)
CRIT_STAMP := .deps/.criterion
CRIT_CFLAGS := -Itests -I$(CRIT_ROOT)/usr/include
# RUNPATH does not reach Criterion's own dependencies: use DT_RPATH, relative
# to the binary ($ORIGIN), so build/ and .deps/ can travel to a GPU machine.
crit_rpath = -Xlinker --disable-new-dtags -Xlinker -rpath='$$ORIGIN/$(call up,$(dir $@))$(CRIT_LIBDIR)' -Xlinker -rpath-link=$(CRIT_LIBDIR)
CRIT_LIBS = -L$(CRIT_LIBDIR) -lcriterion $(crit_rpath)
$(CRIT_STAMP):
	@bash tests/tools/fetch-criterion.sh .deps
else
CRIT_STAMP :=
CRIT_CFLAGS := -Itests $(shell pkg-config --cflags criterion)
CRIT_LIBS = $(shell pkg-config --libs criterion)
endif
# "build/a/b/" -> "../../../": from a binary's folder back to the top.
up = $(subst $(space),,$(foreach w,$(subst /, ,$(1)),../))

# ---- what there is ----------------------------------------------------------
# LAB_CHAPTERS is every chapter, which the build always knows (a step may use another chapter's
# wing: ch13's merge sorts include ch12's merge); CHAPTERS, the chapters `make bench`, `make
# profile-collect` and the grader's wings take, may be narrowed on the command line.
LAB_CHAPTERS := ch10-reduction ch12-merge ch13-sort
CHAPTERS := $(LAB_CHAPTERS)
# A step is a folder (stepN-name/), whatever files it has lost: one without its kernel file is
# still listed, and asking to build it says what is missing and how to get it back.
SOL_STEPS := $(patsubst %/,%,$(sort $(wildcard $(LAB_CHAPTERS:%=solutions/%/step*/))))
EX_STEPS := $(patsubst %/,%,$(sort $(wildcard $(LAB_CHAPTERS:%=%/step*/))))
ALL_STEPS := $(SOL_STEPS) $(EX_STEPS)
HAVE_SOLUTIONS := $(if $(SOL_STEPS),yes,)

# The lab's core (common/*.c, *.cu: it knows no chapter) goes into every ./run and test; each
# chapter's wing (common/<chapter>/*.c, its driver aside) into that chapter's steps.
CORE_SRC := $(filter-out %_driver.c,$(wildcard common/*.c common/*.cu))
CORE_OBJ := $(patsubst %,build/%.o,$(basename $(CORE_SRC)))
CORE_TOBJ := $(patsubst %.c,build/%.test.o,$(filter %.c,$(CORE_SRC))) $(patsubst %.cu,build/%.o,$(filter %.cu,$(CORE_SRC)))
# (a wing's CUDA files, such as chapter 13's device scan, are compiled once, with nvcc)
wing_src = $(filter-out %_driver.c,$(wildcard $(1:%=common/%/*.c) $(1:%=common/%/*.cu)))
wing_obj = $(patsubst %,build/%.o,$(basename $(call wing_src,$(1))))
wing_tobj = $(patsubst %.c,build/%.test.o,$(filter %.c,$(call wing_src,$(1)))) \
	$(patsubst %.cu,build/%.o,$(filter %.cu,$(call wing_src,$(1))))

# A step that builds on another step names it in its own Makefile (`LAB_USES := ch12-merge/step1-co-rank`)
# and includes that step's header by name. $(call used_copy,STEP,USED): the copy of USED that STEP
# builds against, the one of its own tree: a solution (or a wrong variant made from one, under
# build/) the solution's, an exercise the student's own, in this tree as in a handout and in the
# grader's copy (tests/tools/grade.sh copies the student's used steps too). So make check and make
# grade give one verdict on the same files, and an exercise's build never reads solutions/. The
# used step's chapter wing comes with it.
used_copy = $(if $(filter solutions/% build/%,$(1)),solutions/$(2),$(2))
uses_of = $(shell sed -n 's/^LAB_USES *:= *//p' $(1)/Makefile 2>/dev/null)
# The tests of chapter 12 build with tagged keys (merge.h: MERGE_KEY).
TESTDEFS_ch12-merge := -DLAB_TAGGED_KEYS
# Per kernel file name: LIBS_<kernel> (libraries its ./run and tests link) and DRIVER_FLAGS_<kernel>
# (how its driver is compiled).
# MPI, where mpicc is there (Open MPI's -showme, MPICH's -compile_info/-link_info): the multi-GPU
# step's driver then also runs one GPU per rank under mpirun.
MPI_CFLAGS := $(shell mpicc -showme:compile 2>/dev/null || mpicc -compile_info 2>/dev/null | cut -d' ' -f2-)
MPI_LIBS := $(shell mpicc -showme:link 2>/dev/null || mpicc -link_info 2>/dev/null | cut -d' ' -f2-)
HAVE_MPI := $(if $(strip $(MPI_LIBS)),yes,)
# Chapter 13's multi-GPU step (sample_sort.cu): NCCL, and MPI where it is there.
LIBS_sample_sort := -lnccl $(MPI_LIBS)
DRIVER_FLAGS_sample_sort := $(if $(HAVE_MPI),-DLAB_MPI $(MPI_CFLAGS))

# Wrong variants (tests/tools/mutants.sh) are built from copies under build/mutsrc/.
MUTANT_STEPS ?=
ALL_STEPS += $(MUTANT_STEPS)

chapter_of = $(firstword $(filter $(LAB_CHAPTERS),$(subst /, ,$(1))))
# A compile that fails because a file of the step is gone says which, and how to get it back.
if_missing = || { bash tests/tools/exercises.sh present $(1) >&2; exit 1; }
# make check counts the tests that ran the step's own code (tests/tools/step-info.sh): the test build
# instruments the functions of the step's files, not those of the lab, the tests, the system, or
# the steps it uses (nvcc's generated stubs are tmpxft_* files, its start-up code __nv_*).
trace_skip = common/ tests/ /usr/ /include/ .deps/ tmpxft $(CUDA_HOME)/ $(addsuffix /,$(1))
TRACE_CFLAGS = -finstrument-functions $(foreach x,$(call trace_skip,$(1)),-finstrument-functions-exclude-file-list=$(x)) \
	$(foreach x,__nv_ __cuda __sti,-finstrument-functions-exclude-function-list=$(x))
TRACE_NVFLAGS = $(addprefix -Xcompiler ,$(call TRACE_CFLAGS,$(1)))
kernel_of = $(basename $(notdir $(firstword $(wildcard $(1)/*.cu))))
stepnum_of = $(patsubst step%,%,$(firstword $(subst -, ,$(notdir $(1)))))

# ---- per-step rules: common/rules.mk ------------------------------------------
include common/rules.mk

# ---- commands ---------------------------------------------------------------
# STEP=ch12-merge/step3 (or step3-tiled, or solutions/..., with a trailing / or a leading ./) -> its folder
norm_step = $(patsubst %/,%,$(patsubst ./%,%,$(1)))
step_dir = $(firstword $(filter $(1)-% $(1),$(ALL_STEPS)))
STEP_DIR = $(call step_dir,$(call norm_step,$(STEP)))
STEP_EX = $(patsubst solutions/%,%,$(STEP_DIR))
USAGE = bash tests/tools/usage.sh
need_step = @if [ -z "$(STEP)" ]; then $(USAGE) "make $@ needs STEP=, e.g. make $@ STEP=ch12-merge/step3"; exit 2; \
	elif [ -z "$(STEP_DIR)" ]; then $(USAGE) "STEP=$(STEP) names no step"; exit 2; fi

SOL_RUNS := $(SOL_STEPS:%=build/%/run)
EX_RUNS := $(EX_STEPS:%=build/%/run)
SOL_TESTS := $(SOL_STEPS:%=build/%/test)
EX_TESTS := $(EX_STEPS:%=build/%/test)

.PHONY: all help list test check diff solution hint status exercises exercises-check mutants exercise-fails \
	sanitize docs-check catalogue-readmes clean
all: $(SOL_RUNS) $(EX_RUNS) $(SOL_TESTS) $(EX_TESTS) build/tests/common

help:
	@$(USAGE)

list:
	@bash tests/tools/catalogue.sh list

# The maintainers' run (and CI's): every suite against the solutions, the wrong variants, and every
# untouched exercise failing its own tests. Exercises a student edited are left out of that last
# check, and their edits never fail it (the sync check is `make exercises-check`, CI's).
ifeq ($(HAVE_SOLUTIONS),yes)
test: all
	@bash tests/tools/run-suites.sh suites build/tests/common $(SOL_TESTS)
	@$(MAKE) mutants
	@$(MAKE) exercise-fails
else
# A student handout (no solutions/): every step the student has started, checked; untouched
# steps are listed, never failed (tests/tools/classroom.sh).
test: handout-test
endif

# A student's run: one step's tests; tests that did not run on a GPU are not a pass (exit 3).
# Where compute-sanitizer is present, the step's ./run also runs under memcheck, and under racecheck
# where tests/sanitize.conf asks (tests/tools/check.sh); the time it took is printed last.
check:
	$(need_step)
	@t0=$$(date +%s); $(MAKE) build/$(STEP_DIR)/test build/$(STEP_DIR)/run || exit $$?; \
	  LAB_CHECK_START=$$t0 LAB_CHECK_USES='$($(STEP_DIR)_UDIRS)' bash tests/tools/check.sh $(STEP_DIR)

# Your file against the clean view of the solution (markers and hints removed).
diff:
	$(need_solutions)
	$(need_step)
	@bash tests/tools/exercises.sh clean solutions/$(STEP_EX) >/dev/null
	@echo "make diff shows the solution: - lines are yours, + lines the solution's."
	@for f in $$(cd build/clean/$(STEP_EX) && ls); do \
	  diff -u --label "yours: $(STEP_EX)/$$f" --label "solution: solutions/$(STEP_EX)/$$f" \
	    <(sed '1{/^\/\* Exercise made from/d}' $(STEP_EX)/$$f) build/clean/$(STEP_EX)/$$f; done; true

# The solution as a student reads it.
solution:
	$(need_solutions)
	$(need_step)
	@bash tests/tools/exercises.sh clean solutions/$(STEP_EX) >/dev/null
	@for f in $$(cd build/clean/$(STEP_EX) && ls); do echo "==== solutions/$(STEP_EX)/$$f (markers removed)"; \
	  cat build/clean/$(STEP_EX)/$$f; done

# Graded hints: N=1 (default) the first hint of each TODO, N=2 the next, ...; TODO=k that TODO alone.
hint:
	$(need_step)
	@bash tests/tools/hint.sh $(STEP_EX) $(or $(N),1) $(TODO)

status:
	@bash tests/tools/status.sh $(EX_STEPS)

# Regenerates the exercises from solutions/ (STEP=... one step); a file you edited is kept unless
# FORCE=1 (then a backup copy is made beside it first); a missing file is always written again.
SOL_STEP = $(call step_dir,solutions/$(patsubst solutions/%,%,$(call norm_step,$(STEP))))
exercises:
	$(need_solutions)
	@if [ -n "$(STEP)" ] && [ -z "$(SOL_STEP)" ]; then $(USAGE) "STEP=$(STEP) names no step"; exit 2; fi
	@bash tests/tools/exercises.sh write $(or $(if $(STEP),$(SOL_STEP)),$(SOL_STEPS))

exercises-check:
	$(need_solutions)
	@bash tests/tools/exercises.sh check $(SOL_STEPS)

# Wrong variants the suites must catch: each is a sed script over a solution step.
MUTANTS := $(sort $(wildcard tests/mutants/*/*.sed))
mutants: $(CRIT_STAMP) $(CORE_TOBJ) build/tests/lab_test.o
	$(need_solutions)
	@bash tests/tools/mutants.sh $(MUTANTS)

# Every unmodified exercise must fail its own tests, naming its TODO.
exercise-fails: $(EX_TESTS)
	@bash tests/tools/run-suites.sh exercises $$(bash tests/tools/exercises.sh edited $(SOL_STEPS) | \
	  awk '$$2 == "untouched" { print "build/" $$1 "/test" }')

# compute-sanitizer and a GPU are looked for before anything is built.
sanitize:
	$(need_solutions)
	@bash tests/tools/sanitize.sh --can-run
	@$(MAKE) $(SOL_RUNS)
	@bash tests/tools/sanitize.sh $(SOL_STEPS)

docs-check:
	@bash tests/tools/docs-check.sh

catalogue-readmes:
	@bash tests/tools/catalogue.sh readmes

# bench, plots (and bench-build): their rules and the baselines' build are in tests/bench/bench.mk
include tests/bench/bench.mk
# profile (Nsight Compute's counters of a step), profile-collect, profile-check, profile-test:
# tests/profile/profile.mk
include tests/profile/profile.mk
# handout, handout-check, grade, handout-test and need_solutions: tests/tools/classroom.mk
include tests/tools/classroom.mk

# build/, and the ./run links make made (a file of yours named run stays)
clean:
	rm -rf build
	@for r in run $(wildcard ch*/step*/run solutions/ch*/step*/run); do [ ! -L "$$r" ] || rm -f "$$r"; done

# A goal as the shell completes it (ch12-merge/step3-tiled/) names that step; anything else under a
# chapter that is no step gets the usage. These are rules for those goals alone: a pattern rule
# here once matched the steps' own files (a missing header, make -B), and make deleted them on error.
.PHONY: $(LAB_CHAPTERS) solutions
$(LAB_CHAPTERS) solutions:
	@$(USAGE) "'$@' is a chapter, not a step: name a step, e.g. make $@/step1"; exit 2
STEP_TARGETS := $(foreach s,$(ALL_STEPS),$(s) $(dir $(s))step$(call stepnum_of,$(s)))
define GOAL_ALIAS
.PHONY: $(1)
$(1): $(2)
endef
define GOAL_UNKNOWN
.PHONY: $(1)
$(1):
	@$$(USAGE) "'$(1)' is not a step"; exit 2
endef
$(foreach g,$(MAKECMDGOALS),$(if $(filter-out $(g),$(call norm_step,$(g))),\
  $(if $(filter $(call norm_step,$(g)),$(STEP_TARGETS) $(LAB_CHAPTERS) solutions),$(eval $(call GOAL_ALIAS,$(g),$(call norm_step,$(g)))))))
$(foreach g,$(MAKECMDGOALS),$(if $(and $(filter $(LAB_CHAPTERS) solutions,$(firstword $(subst /, ,$(g)))),\
  $(if $(filter $(call norm_step,$(g)),$(STEP_TARGETS) $(LAB_CHAPTERS) solutions),,yes),$(if $(wildcard $(g)),,yes)),\
  $(eval $(call GOAL_UNKNOWN,$(g)))))

# Nothing make runs may delete a file of the tree: make never deletes a precious file, on an error
# (.DELETE_ON_ERROR) or an interrupt, whatever rule comes to name it. Only build/ is make's.
.PRECIOUS: $(wildcard Makefile *.md common/* common/*/* tests/* tests/*/* tests/*/*/* docs/*.* \
  $(LAB_CHAPTERS:%=%/*/*) $(LAB_CHAPTERS:%=%/*/.exercise) $(LAB_CHAPTERS:%=solutions/%/*/*))

# A build for every architecture (no GPU visible, CUDA_ARCH unset) says so, once, before it starts:
# at the top make, or at the one a step folder's Makefile calls (common/step.mk), never for a goal
# that builds nothing here (make bench and make profile stop first without a GPU; make plots draws).
NO_BUILD_GOALS := help list status hint diff solution exercises exercises-check docs-check catalogue-readmes \
	clean handout handout-check lab-unlink-run plots bench profile profile-collect profile-check
BUILDS := $(filter-out $(NO_BUILD_GOALS),$(or $(MAKECMDGOALS),help))
ifeq ($(ARCH_GUESSED),yes)
ifneq ($(BUILDS),)
ifneq ($(filter 0,$(MAKELEVEL))$(if $(filter 1,$(MAKELEVEL)),$(LAB_STEP_MAKE)),)
$(info make: no GPU visible: building for every architecture (CUDA_ARCH=all, slow); CUDA_ARCH=90 builds one)
endif
endif
endif
# build/.arch: the architectures the objects were built for, written by a make that may build (not
# by make status, nor by make -q or -n, which ask and change nothing), so that a make without
# CUDA_ARCH on a machine without a GPU never makes a CUDA_ARCH=90 build stale by asking.
MAKE_ASKS := $(findstring n,$(filter-out --%,$(firstword $(MAKEFLAGS))))$(findstring q,$(filter-out --%,$(firstword $(MAKEFLAGS))))
ifeq ($(MAKE_ASKS),)
ifneq ($(BUILDS),)
$(shell mkdir -p build && { echo '$(GENCODE)' | cmp -s - $(ARCH_STAMP) || echo '$(GENCODE)' >$(ARCH_STAMP); })
endif
endif
$(ARCH_STAMP):
	@mkdir -p $(@D) && echo '$(GENCODE)' >$@

# The objects pattern rules make on the way to a tool (build/bench/copy.o) are kept. No other file is
# intermediate (a bare .SECONDARY: made every file so): a header gone since the last build then makes
# the objects that read it out of date, and the build says which file is missing.
LAB_KEEP := $(patsubst %,%.o,$(filter build/bench/%,$(BENCH_TOOLS)))
ifneq ($(strip $(LAB_KEEP)),)
.SECONDARY: $(LAB_KEEP)
endif
