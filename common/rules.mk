# common/rules.mk - how every step is built: its ./run, its test binary, and the lab's own objects
# (the core, each chapter's wing, the suites' shared code). Included by the Makefile, after what
# there is (the steps, the chapters, the toolchain's flags); the commands stay in the Makefile.

# ---- per-step rules -------------------------------------------------------
# $(1): a step folder, e.g. ch12-merge/step3-tiled or solutions/ch12-merge/step3-tiled.
# Its ./run is the chapter's driver (common/<chapter>/<kernel>_driver.c, or the step's own
# <kernel>_driver.c where one serves that step alone) linked with the step's kernel file, the core
# and the wings of its chapter and of the steps it uses; its test binary is the chapter's suite
# (tests/<chapter>/<kernel>.c, and its parts <kernel>_<part>.c where it has several) plus the
# step's own tests, when it has some (tests/<chapter>/<step folder name>.c, and its parts
# <step folder name>_<part>.c).
define STEP_RULES
$(1)_CH := $(call chapter_of,$(1))
$(1)_K := $(call kernel_of,$(1))
$(1)_USES := $(call uses_of,$(1))
$(1)_WINGS := $$(sort $$($(1)_CH) $$(foreach u,$$($(1)_USES),$$(call chapter_of,$$(u))))
$(1)_SRC := $(wildcard $(1)/*.cu $(1)/*.cuh $(1)/*.h $(1)/*.c)
$(1)_UDIRS := $$(foreach u,$$($(1)_USES),$$(call used_copy,$(1),$$(u)))
$(1)_INC := -I$(1) $$($(1)_UDIRS:%=-I%) $$($(1)_WINGS:%=-Icommon/%)
$(1)_SUITE := tests/$$($(1)_CH)/$$($(1)_K).c $$(wildcard tests/$$($(1)_CH)/$$($(1)_K)_*.c \
	tests/$$($(1)_CH)/$(notdir $(1)).c tests/$$($(1)_CH)/$(notdir $(1))_*.c)
$(1)_HOST := $$(patsubst $(1)/%.c,%,$$(filter-out %_driver.c,$$(wildcard $(1)/*.c)))
# the host C files of the steps it uses are linked too (step 10 links step 9's plan and exchange)
$(1)_UHOST := $$(basename $$(filter-out %_driver.c,$$(foreach u,$$($(1)_USES),$$(wildcard $$(call used_copy,$(1),$$(u))/*.c))))
$(1)_OBJ := build/$(1)/$$($(1)_K).o build/$(1)/step.o $$($(1)_HOST:%=build/$(1)/%.host.o) \
	$$($(1)_UHOST:%=build/$(1)/uses/%.host.o) $$(call wing_obj,$$($(1)_WINGS))
$(1)_TOBJ := build/$(1)/$$($(1)_K).test.o build/$(1)/step.o $$($(1)_HOST:%=build/$(1)/%.host.test.o) \
	$$($(1)_UHOST:%=build/$(1)/uses/%.host.test.o) $$(call wing_tobj,$$($(1)_WINGS)) \
	$$($(1)_SUITE:tests/%.c=build/$(1)/suite/%.o)

build/$(1)/$$($(1)_K).o: $(1)/$$($(1)_K).cu $(ARCH_STAMP) | build/$(1)/
	$$(call say,NVCC,$(1))
	$$(Q)$$(NVCC) $$(NVFLAGS) $$($(1)_INC) -c $$< -o $$@ $$(call if_missing,$(1))

build/$(1)/$$($(1)_K).test.o: $(1)/$$($(1)_K).cu $(ARCH_STAMP) | build/$(1)/
	$$(call say,NVCC,$(1) (test build))
	$$(Q)$$(NVCC) $$(NVFLAGS) $$($(1)_INC) $$(TESTDEFS_$$($(1)_CH)) -DLAB_TEST $$(call TRACE_NVFLAGS,$$($(1)_UDIRS)) -c $$< -o $$@ $$(call if_missing,$(1))

# host C files of the step (a plan, a host-side phase): compiled for ./run, and with the
# sanitizers for the tests
build/$(1)/%.host.o: $(1)/%.c | build/$(1)/
	$$(Q)$$(CC) $$(CFLAGS) $$($(1)_INC) -c $$< -o $$@ $$(call if_missing,$(1))

build/$(1)/%.host.test.o: $(1)/%.c | build/$(1)/
	$$(Q)$$(CC) $$(TEST_CFLAGS) $$($(1)_INC) $$(call TRACE_CFLAGS,$$($(1)_UDIRS)) -c $$< -o $$@ $$(call if_missing,$(1))

build/$(1)/uses/%.host.o: %.c
	$$(Q)mkdir -p $$(@D) && $$(CC) $$(CFLAGS) $$($(1)_INC) -c $$< -o $$@

build/$(1)/uses/%.host.test.o: %.c
	$$(Q)mkdir -p $$(@D) && $$(CC) $$(TEST_CFLAGS) $$($(1)_INC) $$(call TRACE_CFLAGS,$$($(1)_UDIRS)) -c $$< -o $$@

# its name, and the TODOs still in its files now, and in those of the steps it uses (a failure
# names only what is left)
build/$(1)/step.c: $$($(1)_SRC) $$(foreach d,$$($(1)_UDIRS),$$(wildcard $$(d)/*.cu $$(d)/*.cuh $$(d)/*.h $$(d)/*.c)) \
	tests/tools/step-info.sh | build/$(1)/
	$$(Q)bash tests/tools/step-info.sh $(1) $(1) $$@ $$($(1)_UDIRS)

# A file of the step that is gone, which its last build read (a header its build/<step>/*.d
# names), fails the build, naming it and the way back (never an old ./run built from it).
$(1)/%.h $(1)/%.cuh $(1)/%.cu $(1)/%.c:
	@[ -e $$@ ] || { bash tests/tools/exercises.sh present $(1) >&2 && echo "make: $$@ is gone" >&2; exit 2; }

build/$(1)/step.o: build/$(1)/step.c
	$$(Q)$$(CC) $$(CFLAGS) -c $$< -o $$@

# The driver (main) is compiled per step: it may include the step's headers. The step's own
# <kernel>_driver.c when it has one (ch12 step 1's), else the chapter's; a step's that is gone is named.
$(1)_DRIVER := $$(or $$(wildcard $(1)/$$($(1)_K)_driver.c),$$(wildcard common/$$($(1)_CH)/$$($(1)_K)_driver.c),$(1)/$$($(1)_K)_driver.c)
build/$(1)/driver.o: $$($(1)_DRIVER) | build/$(1)/
	$$(Q)$$(CC) $$(CFLAGS) $$($(1)_INC) $$(DRIVER_FLAGS_$$($(1)_K)) -c $$< -o $$@ $$(call if_missing,$(1))

build/$(1)/run: build/$(1)/driver.o $$($(1)_OBJ) $$(CORE_OBJ)
	$$(call say,LINK,$$@)
	$$(Q)$$(NVCC) $$^ $$(LDFLAGS_CUDA) $$(LIBS_$$($(1)_K)) -o $$@

# the suite's files: the chapter's is always one of them (gone, make names it), the rest where they are
build/$(1)/suite/%.o: tests/%.c $$(CRIT_STAMP) | build/$(1)/
	$$(Q)mkdir -p $$(@D) && $$(CC) $$(TEST_CFLAGS) $$(CRIT_CFLAGS) $$($(1)_INC) $$(TESTDEFS_$$($(1)_CH)) $$(call TRACE_CFLAGS,$$($(1)_UDIRS)) -c $$< -o $$@ $$(call if_missing,$(1))

build/$(1)/test: $$($(1)_TOBJ) $$(CORE_TOBJ) build/tests/lab_test.o
	$$(call say,LINK,$$@)
	$$(Q)$$(NVCC) $$^ $$(LDFLAGS_TEST) $$(LIBS_$$($(1)_K)) $$(CRIT_LIBS) -o $$@

# `make ch12-merge/step3`, `make ch12-merge/step3-tiled`: build, point ./run at it (the old link
# goes first, so a build that fails leaves no ./run of an older build behind).
.PHONY: $(1) $(dir $(1))step$(call stepnum_of,$(1))
$(1) $(dir $(1))step$(call stepnum_of,$(1)): lab-unlink-run build/$(1)/run
	@ln -sfn $$(abspath build/$(1)/run) $$(RUN_LINK_PATH)
	@echo "built $(1): ./run --help for its options"
endef
# A step whose kernel file is gone: its targets say what is missing and how to get it back.
define MISSING_RULES
.PHONY: $(1) $(dir $(1))step$(call stepnum_of,$(1)) build/$(1)/run build/$(1)/test
$(1) $(dir $(1))step$(call stepnum_of,$(1)): lab-unlink-run
$(1) $(dir $(1))step$(call stepnum_of,$(1)) build/$(1)/run build/$(1)/test:
	@bash tests/tools/exercises.sh present $(1) >&2 && echo "$(1) has no kernel file (*.cu)" >&2; exit 2
endef
$(foreach s,$(ALL_STEPS),$(eval $(call $(if $(call kernel_of,$(s)),STEP_RULES,MISSING_RULES),$(s))))

# ./run (or RUN_LINK, the step folder's) is the lab's link to a build, never a file of yours.
RUN_LINK_PATH = $(or $(RUN_LINK),run)
.PHONY: lab-unlink-run
lab-unlink-run:
	@if [ -e '$(RUN_LINK_PATH)' ] && [ ! -L '$(RUN_LINK_PATH)' ]; then \
	  echo "make: $(RUN_LINK_PATH) is a file of yours, not the lab's link to a build: rename it, and make links ./run" >&2; exit 2; fi; \
	  if [ -L '$(RUN_LINK_PATH)' ]; then rm -f '$(RUN_LINK_PATH)'; fi

# (precious: a folder made on the way is never deleted as an intermediate at the end)
.PRECIOUS: build/%/
build/%/:
	@mkdir -p $@

# a wing's files see their own headers (-Icommon/<chapter>) and the core's (-Icommon)
build/common/%.o: common/%.c | build/common/
	$(call say,CC,$<)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) -I$(<D) -c $< -o $@

build/common/%.test.o: common/%.c | build/common/
	$(Q)mkdir -p $(@D) && $(CC) $(TEST_CFLAGS) -I$(<D) -c $< -o $@

build/common/%.o: common/%.cu $(ARCH_STAMP) | build/common/
	$(call say,NVCC,$<)
	$(Q)mkdir -p $(@D) && $(NVCC) $(NVFLAGS) -I$(<D) -c $< -o $@

build/tests/%.o: tests/%.c $(CRIT_STAMP) | build/tests/
	$(Q)$(CC) $(TEST_CFLAGS) $(CRIT_CFLAGS) -c $< -o $@

build/tests/nostep.c: tests/tools/step-info.sh | build/tests/
	$(Q)mkdir -p build/tests/nostep && bash tests/tools/step-info.sh build/tests/nostep common $@

build/tests/nostep.o: build/tests/nostep.c
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

build/tests/common: build/tests/common.o build/tests/lab_test.o $(CORE_TOBJ) build/tests/nostep.o
	$(call say,LINK,$@)
	$(Q)$(NVCC) $^ $(LDFLAGS_TEST) $(CRIT_LIBS) -o $@

-include $(shell find build -name '*.d' 2>/dev/null)
