# The lab's one entry point. `make help` lists the commands; README.md explains them.
SHELL := /bin/bash
.DEFAULT_GOAL := help
.SUFFIXES:
.DELETE_ON_ERROR:
# keep intermediate objects and the build/ folders make creates on the way
.SECONDARY:

# ---- toolchain ------------------------------------------------------------
NVCC ?= nvcc
CC := gcc
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(shell command -v $(NVCC)))
# The GPU's compute capability when one is visible, else Hopper (the H100 the
# reference numbers come from); `make CUDA_ARCH=80` builds for another.
ifeq ($(origin CUDA_ARCH),undefined)
CUDA_ARCH := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d .)
ifeq ($(CUDA_ARCH),)
CUDA_ARCH := 90
endif
endif
GENCODE := -gencode arch=compute_$(CUDA_ARCH),code=[sm_$(CUDA_ARCH),compute_$(CUDA_ARCH)]
NVFLAGS := -O3 -std=c++17 $(GENCODE) -lineinfo -Icommon -Xcompiler -Wall,-Wno-unused-function -diag-suppress 177,550 -MMD -MP
CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra -Wno-unused-function -Icommon -I$(CUDA_HOME)/include -MMD -MP
LDFLAGS_CUDA := $(GENCODE) -lm

# ---- Criterion: the system's, or fetched into .deps/ without root ---------
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
SYSTEM_CRITERION := $(wildcard /usr/include/criterion/criterion.h)
ifeq ($(SYSTEM_CRITERION),)
CRIT_ROOT := .deps/root
CRIT_LIBDIR := $(CRIT_ROOT)/usr/lib/$(MULTIARCH)
CRIT_STAMP := .deps/.criterion
CRIT_CFLAGS := -Itests -I$(CRIT_ROOT)/usr/include
# RUNPATH does not reach Criterion's own dependencies: use DT_RPATH, relative
# to the binary ($ORIGIN), so build/ and .deps/ can travel to a GPU machine.
crit_rpath = -Xlinker --disable-new-dtags -Xlinker -rpath='$$ORIGIN/$(call up,$(dir $@))$(CRIT_LIBDIR)' -Xlinker -rpath-link=$(CRIT_LIBDIR)
CRIT_LIBS = -L$(CRIT_LIBDIR) -lcriterion $(crit_rpath)
else
CRIT_STAMP :=
CRIT_CFLAGS := -Itests
CRIT_LIBS = -lcriterion
endif
empty :=
space := $(empty) $(empty)
# "build/a/b/" -> "../../../": from a binary's folder back to the top.
up = $(subst $(space),,$(foreach w,$(subst /, ,$(1)),../))

ifneq ($(CRIT_STAMP),)
$(CRIT_STAMP):
	@bash tests/fetch-criterion.sh .deps
endif

# ---- what there is ----------------------------------------------------------
CHAPTERS := ch10-reduction ch12-merge ch13-sort
SOL_STEPS := $(patsubst %/,%,$(sort $(dir $(wildcard $(CHAPTERS:%=solutions/%/step*/*.cu)))))
EX_STEPS := $(patsubst %/,%,$(sort $(dir $(wildcard $(CHAPTERS:%=%/step*/*.cu)))))
ALL_STEPS := $(SOL_STEPS) $(EX_STEPS)

COMMON_SRC := $(filter-out %_driver.c %/step_name.c,$(wildcard common/*.c))
COMMON_OBJ := $(COMMON_SRC:%.c=build/%.o)

# Headers a chapter's steps share with earlier steps (Fig 12.5's co_rank is
# written in step 1 and used, as the reference solution, by steps 2-5).
INC_ch12-merge := -Isolutions/ch12-merge/step1-co-rank
# The tests build each step a second time with these (merge.h: MERGE_KEY).
TESTDEFS_ch12-merge := -DLAB_TAGGED_KEYS
# Chapter 13: step 5's merge passes include chapter 12's co_rank.h (shared, not
# copied); every step links the lab's device scan (common/scan.cu).
INC_ch13-sort := -Isolutions/ch12-merge/step1-co-rank
TESTDEFS_ch13-sort :=
OBJ_ch13-sort := build/common/scan.o
# Per chapter: INC_<ch> (include paths), TESTDEFS_<ch> (defines for the test
# build), OBJ_<ch> (objects from common/*.cu linked into the chapter's steps).

# Wrong variants (tests/mutants.sh) are built from copies under build/mutsrc/.
MUTANT_STEPS ?=
ALL_STEPS += $(MUTANT_STEPS)

chapter_of = $(firstword $(filter $(CHAPTERS),$(subst /, ,$(1))))
kernel_of = $(basename $(notdir $(firstword $(wildcard $(1)/*.cu))))
stepnum_of = $(patsubst step%,%,$(firstword $(subst -, ,$(notdir $(1)))))

# ---- per-step rules -------------------------------------------------------
# $(1): a step folder, e.g. ch12-merge/step3-tiled or solutions/ch12-merge/step3-tiled
define STEP_RULES
$(1)_CH := $(call chapter_of,$(1))
$(1)_K := $(call kernel_of,$(1))
$(1)_INC := -I$(1) $$(INC_$$($(1)_CH))
$(1)_OBJ := build/$(1)/$$($(1)_K).o build/$(1)/step_name.o $$(OBJ_$$($(1)_CH))
$(1)_TOBJ := build/$(1)/$$($(1)_K).test.o build/$(1)/step_name.o $$(OBJ_$$($(1)_CH))

build/$(1)/$$($(1)_K).o: $(1)/$$($(1)_K).cu | build/$(1)/
	$$(NVCC) $$(NVFLAGS) $$($(1)_INC) -c $$< -o $$@

build/$(1)/$$($(1)_K).test.o: $(1)/$$($(1)_K).cu | build/$(1)/
	$$(NVCC) $$(NVFLAGS) $$($(1)_INC) $$(TESTDEFS_$$($(1)_CH)) -c $$< -o $$@

build/$(1)/step_name.o: common/step_name.c | build/$(1)/
	$$(CC) $$(CFLAGS) -DLAB_STEP_NAME='"$(1)"' -c $$< -o $$@

# The chapter's driver (main) is compiled per step: it may include the step's headers.
build/$(1)/driver.o: common/$$($(1)_K)_driver.c | build/$(1)/
	$$(CC) $$(CFLAGS) $$($(1)_INC) -c $$< -o $$@

build/$(1)/run: build/$(1)/driver.o $$($(1)_OBJ) $$(COMMON_OBJ)
	$$(NVCC) $$^ $$(LDFLAGS_CUDA) -o $$@

build/$(1)/test.o: tests/$$($(1)_CH)/$$($(1)_K).c $$(CRIT_STAMP) | build/$(1)/
	$$(CC) $$(CFLAGS) $$(CRIT_CFLAGS) $$($(1)_INC) $$(TESTDEFS_$$($(1)_CH)) -DLAB_STEP_NUM=$(call stepnum_of,$(1)) -c $$< -o $$@

build/$(1)/test: build/$(1)/test.o $$($(1)_TOBJ) $$(COMMON_OBJ) build/tests/lab_test.o
	$$(NVCC) $$^ $$(LDFLAGS_CUDA) $$(CRIT_LIBS) -o $$@

# `make ch12-merge/step3`, `make ch12-merge/step3-tiled`: build, point ./run at it.
.PHONY: $(1) $(dir $(1))step$(call stepnum_of,$(1))
$(1) $(dir $(1))step$(call stepnum_of,$(1)): build/$(1)/run
	@ln -sfn $$(abspath build/$(1)/run) $$(or $$(RUN_LINK),run)
	@echo "built $(1): ./run --help for options"
endef
$(foreach s,$(ALL_STEPS),$(eval $(call STEP_RULES,$(s))))

build/%/:
	@mkdir -p $@

build/common/%.o: common/%.c | build/common/
	$(CC) $(CFLAGS) -c $< -o $@

build/common/%.o: common/%.cu | build/common/
	$(NVCC) $(NVFLAGS) -c $< -o $@

build/tests/%.o: tests/%.c $(CRIT_STAMP) | build/tests/
	$(CC) $(CFLAGS) $(CRIT_CFLAGS) -c $< -o $@

build/tests/common: build/tests/common.o build/tests/lab_test.o $(COMMON_OBJ) build/common/no_step.o
	$(NVCC) $^ $(LDFLAGS_CUDA) $(CRIT_LIBS) -o $@

build/common/no_step.o: common/step_name.c | build/common/
	$(CC) $(CFLAGS) -DLAB_STEP_NAME='"common"' -c $< -o $@

-include $(shell find build -name '*.d' 2>/dev/null)

# ---- commands ---------------------------------------------------------------
# STEP=ch12-merge/step3 (or step3-tiled, or solutions/...) -> its folder
step_dir = $(firstword $(filter $(1)-% $(1),$(ALL_STEPS)))
STEP_DIR = $(call step_dir,$(patsubst %/,%,$(STEP)))
need_step = $(if $(STEP_DIR),,$(error STEP=$(STEP) names no step; try `make list`))

SOL_RUNS := $(SOL_STEPS:%=build/%/run)
EX_RUNS := $(EX_STEPS:%=build/%/run)
SOL_TESTS := $(SOL_STEPS:%=build/%/test)
EX_TESTS := $(EX_STEPS:%=build/%/test)

.PHONY: all help list test check diff exercises exercises-check mutants sanitize bench plots clean
all: $(SOL_RUNS) $(EX_RUNS) $(SOL_TESTS) build/tests/common

help:
	@echo "Commands (see README.md):"
	@echo "  make ch12-merge/step3 && ./run       build your version of a step, run it (stepN or stepN-name)"
	@echo "  make solutions/ch12-merge/step3 && ./run   the same for the solution"
	@echo "  ./run --help                         the options of ./run"
	@echo "  make test                            build everything, run every suite against the solutions"
	@echo "  make check STEP=ch12-merge/step3     run that step's tests against your version"
	@echo "  make diff STEP=ch12-merge/step3      your file against the solution"
	@echo "  make list                            the catalogue: chapter, step, book figures"
	@echo "  make sanitize                        compute-sanitizer over every solution step"
	@echo "  make bench / make plots              benchmarks against CUB, and their plots"
	@echo "  make exercises                       regenerate the exercises from solutions/"
	@echo "  make clean                           remove build/ and ./run"
	@echo "Variables: CUDA_ARCH=$(CUDA_ARCH) (compute capability to build for)"

list:
	@bash tests/catalogue.sh $(SOL_STEPS)

test: all
	@bash tests/exercises.sh check $(SOL_STEPS)
	@bash tests/run-suites.sh suites build/tests/common $(SOL_TESTS)
	@$(MAKE) --no-print-directory mutants
	@$(MAKE) --no-print-directory exercise-fails

check:
	$(need_step)
	@$(MAKE) --no-print-directory build/$(STEP_DIR)/test
	@bash tests/run-suites.sh suites build/$(STEP_DIR)/test

diff:
	$(need_step)
	@for f in $$(cd solutions/$(patsubst solutions/%,%,$(STEP_DIR)) && ls *.cu *.h 2>/dev/null); do \
	  diff -u --label "yours: $(patsubst solutions/%,%,$(STEP_DIR))/$$f" --label "solution: solutions/$(patsubst solutions/%,%,$(STEP_DIR))/$$f" \
	    $(patsubst solutions/%,%,$(STEP_DIR))/$$f solutions/$(patsubst solutions/%,%,$(STEP_DIR))/$$f; done; true

exercises:
	@bash tests/exercises.sh write $(SOL_STEPS)

exercises-check:
	@bash tests/exercises.sh check $(SOL_STEPS)

# Wrong variants the suites must catch: each is a sed script over a solution step.
MUTANTS := $(sort $(wildcard tests/mutants/*/*.sed))
mutants: $(CRIT_STAMP) $(COMMON_OBJ) build/tests/lab_test.o
	@bash tests/mutants.sh $(MUTANTS)

# Every unmodified exercise must fail its own tests, naming its TODO.
.PHONY: exercise-fails
exercise-fails: $(EX_TESTS)
	@bash tests/run-suites.sh exercises $(EX_TESTS)

sanitize: $(SOL_RUNS)
	@bash tests/sanitize.sh $(SOL_STEPS)

# bench, plots (and bench-build): their rules and the baselines' build are in tests/bench/bench.mk
include tests/bench/bench.mk

clean:
	rm -rf build run $(wildcard ch*/step*/run solutions/ch*/step*/run)
