# tests/profile/profile.mk - make profile and its companions (tests/profile/README.md says more).
# Included by the Makefile, so the steps' rules, need_step and STEP_DIR are the Makefile's own.
#   make profile STEP=ch12-merge/step3 [FULL=1]   the step's hardware counters under Nsight Compute
#       (ncu), in the lab's words, beside the step before it; FULL=1 also keeps ncu's full report
#       for the Nsight Compute GUI (build/profile/<step>.ncu-rep)
#   make profile-collect [CHAPTERS=...] [STEPS="ch12-merge/step3 ..."]   every solution step's
#       counters -> docs/plots/<gpu>/<chapter>-profile.csv (the committed profile: make plots
#       draws it, make profile sets steps beside it)
#   make profile-check   on a GPU: a profile per chapter whose lesson's counter must move the way
#       the step's README says (tests/profile/gpu-check.sh)
#   make profile-test    the CPU tests of the above on recorded ncu output (make test runs them)

# The launch trace that finds a run's kernels (launch_trace.c): a CUDA injection library built
# on CUPTI, which comes with the CUDA Toolkit (extras/CUPTI or beside the toolkit's libraries).
PROFILE_TRACE_LIB := build/profile/liblaunch_trace.so
CUPTI_LIBDIR = $(patsubst %/,%,$(dir $(firstword $(wildcard $(CUDA_HOME)/extras/CUPTI/lib64/libcupti.so \
	$(CUDA_HOME)/lib64/libcupti.so $(CUDA_HOME)/lib/libcupti.so $(CUDA_HOME)/targets/*/lib/libcupti.so))))
CUPTI_INCDIR = $(patsubst %/,%,$(dir $(firstword $(wildcard $(CUDA_HOME)/extras/CUPTI/include/cupti.h \
	$(CUDA_HOME)/include/cupti.h $(CUDA_HOME)/targets/*/include/cupti.h))))

$(PROFILE_TRACE_LIB): tests/profile/launch_trace.c | build/profile/
	$(call say,CC,$<)
	$(Q)if [ -z "$(CUPTI_LIBDIR)" ] || [ -z "$(CUPTI_INCDIR)" ]; then \
	  echo "make profile: CUPTI (cupti.h, libcupti.so) is not in $(CUDA_HOME): it comes with the CUDA Toolkit" >&2; exit 5; fi
	$(Q)$(CC) -shared -fPIC -O2 -std=gnu11 -Wall -Wextra -I$(CUPTI_INCDIR) -I$(CUDA_HOME)/include $< \
	  -L$(CUPTI_LIBDIR) -lcupti -Wl,-rpath,$(CUPTI_LIBDIR) -o $@

.PHONY: profile profile-collect profile-check profile-test
# A GPU and ncu first (one line each when missing), then the build, then the profile.
profile:
	$(need_step)
	@bash tests/profile/profile.sh --check
	@$(MAKE) build/$(STEP_DIR)/run $(PROFILE_TRACE_LIB)
	@bash tests/profile/profile.sh $(if $(filter-out 0,$(FULL)),--full) $(STEP_DIR)

profile-collect:
	$(need_solutions)
	@bash tests/profile/profile.sh --check
	@$(MAKE) $(PROFILE_TRACE_LIB)
	@CHAPTERS="$(CHAPTERS)" bash tests/profile/collect.sh $(STEPS)

profile-check:
	$(need_solutions)
	@bash tests/profile/profile.sh --check
	@bash tests/profile/gpu-check.sh

profile-test:
	@bash tests/profile/test.sh

# make test runs the profile's CPU tests too (the maintainers' run: a handout has no solutions to profile)
ifeq ($(HAVE_SOLUTIONS),yes)
test: profile-test
endif
