# tests/bench/bench.mk - `make bench` and `make plots`. Included by the Makefile, so the
# steps' rules, NVFLAGS and the common objects are the Makefile's own.
#   make bench [CHAPTERS="ch12-merge ..."]  builds the chapters' solution steps and the
#       baselines (CUB, copy), then runs tests/bench/sweeps.conf on the GPU:
#       results/<gpu>/<chapter>.csv (tests/bench/bench.sh says how; BENCH_* variables there)
#   make plots   docs/plots/<gpu>/*.png and *.svg from those CSVs (tests/bench/plots.sh)

# The baselines each chapter is measured against (copy: the bandwidth ceiling).
BASELINES_ch10-reduction := cub_reduce
BASELINES_ch12-merge := cub_merge
BASELINES_ch13-sort := cub_sort
BENCH_TOOLS = $(addprefix build/bench/,copy $(foreach c,$(CHAPTERS),$(BASELINES_$(c)))) \
	$(if $(filter ch13-sort,$(CHAPTERS)),build/bench/anchor_mgpu)
BENCH_RUNS = $(foreach c,$(CHAPTERS),$(filter build/solutions/$(c)/%,$(SOL_RUNS)))
BENCH_JOBS ?= $(shell nproc 2>/dev/null || echo 4)

# The baselines are C++ with CUB (not lab code), built like the steps and linked
# with the same core objects: the same options, timing and --csv line. A chapter's
# baseline makes ./run's inputs with that chapter's wing (reduce_ref.h, merge_ref.h,
# sort_ref.h): it sees the wing's headers and links its objects; the copy needs none.
build/bench/%.o: tests/bench/%.cu $(ARCH_STAMP) | build/bench/
	$(call say,NVCC,$<)
	$(Q)$(NVCC) $(NVFLAGS) -Itests/bench -c $< -o $@

build/bench/%: build/bench/%.o $(CORE_OBJ)
	$(call say,LINK,$@)
	$(Q)$(NVCC) $^ $(LDFLAGS_CUDA) -o $@

# $(1): a baseline, $(2): its chapter
define BENCH_BASELINE_RULES
build/bench/$(1).o: tests/bench/$(1).cu $(ARCH_STAMP) | build/bench/
	$$(call say,NVCC,$$<)
	$$(Q)$$(NVCC) $$(NVFLAGS) -Itests/bench -Icommon/$(2) -c $$< -o $$@

build/bench/$(1): build/bench/$(1).o $$(CORE_OBJ) $$(call wing_obj,$(2))
	$$(call say,LINK,$$@)
	$$(Q)$$(NVCC) $$^ $$(LDFLAGS_CUDA) -o $$@
endef
$(foreach c,$(CHAPTERS),$(foreach b,$(BASELINES_$(c)),$(eval $(call BENCH_BASELINE_RULES,$(b),$(c)))))

# The multi-GPU anchor (a straightforward CUB + NCCL sample sort, a reference point the lab does not
# copy): where its source is (ANCHORS, default ../shared/anchors), build/bench/anchor_mgpu runs it as
# a baseline (tests/bench/anchor_mgpu.sh); elsewhere that baseline says it is not built.
ANCHORS ?= ../shared/anchors
build/bench/anchor_mgpu: tests/bench/anchor_mgpu.sh | build/bench/
	$(Q)cp $< $@ && chmod +x $@
	$(Q)if [ -f $(ANCHORS)/mgpu_anchor.cu ]; then echo "  NVCC   $(ANCHORS)/mgpu_anchor.cu"; \
	  $(NVCC) -O3 $(GENCODE) -o build/bench/mgpu_anchor.bin $(ANCHORS)/mgpu_anchor.cu -lnccl; fi

.PHONY: bench-build
bench-build: $(BENCH_TOOLS) $(BENCH_RUNS)

# A benchmark needs a GPU: without one it stops before compiling anything.
bench:
	@nvidia-smi -L >/dev/null 2>&1 || { echo "make bench: no NVIDIA GPU visible (nvidia-smi finds none): benchmarks run on a GPU machine; nothing was built" >&2; exit 3; }
	@$(MAKE) --no-print-directory -j$(BENCH_JOBS) bench-build
	@bash tests/bench/bench.sh $(CHAPTERS)

plots:
	@bash tests/bench/plots.sh
