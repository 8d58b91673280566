# step.mk - included by the Makefile in every step folder, so that
# `cd ch12-merge/step3-tiled && make && ./run` works: it asks the top Makefile
# to build this step and leaves ./run here. `make check`, `make diff`,
# `make hint`, `make solution` and `make profile` work here too, for this step.
LAB_TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
LAB_STEP := $(patsubst $(LAB_TOP)/%,%,$(CURDIR))
.PHONY: all check diff hint solution profile status help clean
# (LAB_STEP_MAKE: the top Makefile says here, as at the top, when it builds for every architecture)
all:
	@$(MAKE) --no-print-directory -C $(LAB_TOP) $(LAB_STEP) RUN_LINK=$(CURDIR)/run LAB_STEP_MAKE=1
check diff hint solution profile:
	@$(MAKE) --no-print-directory -C $(LAB_TOP) $@ STEP=$(LAB_STEP) LAB_STEP_MAKE=1
status help:
	@$(MAKE) --no-print-directory -C $(LAB_TOP) $@
# the step's build, and ./run if it is the lab's link (a file of yours named run stays)
clean:
	rm -rf $(LAB_TOP)/build/$(LAB_STEP)
	@if [ -L run ]; then rm -f run; fi
