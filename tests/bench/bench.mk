# tests/bench/bench.mk - `make bench` and `make plots`. Included by the Makefile, so the
# steps' rules, NVFLAGS and the common objects are the Makefile's own.
#   make bench [CHAPTERS="ch12-merge ..."]  builds the chapters' solution steps and the
#       baselines (CUB, copy), then runs tests/bench/sweeps.conf on the GPU:
#       results/<gpu>/<chapter>.csv (tests/bench/bench.sh says how; BENCH_* variables there)
#   make plots   docs/plots/<gpu>/*.png and *.svg from those CSVs (tests/bench/plots.sh)

BENCH_TOOLS := $(addprefix build/bench/,cub_reduce cub_merge cub_sort copy)
BENCH_RUNS = $(foreach c,$(CHAPTERS),$(filter build/solutions/$(c)/%,$(SOL_RUNS)))
BENCH_JOBS ?= $(shell nproc 2>/dev/null || echo 4)

# The baselines are C++ with CUB (not lab code), built like the steps and linked
# with the same common objects: the same options, timing and --csv line.
build/bench/%.o: tests/bench/%.cu | build/bench/
	$(NVCC) $(NVFLAGS) -Itests/bench -c $< -o $@

$(BENCH_TOOLS): build/bench/%: build/bench/%.o $(COMMON_OBJ)
	$(NVCC) $^ $(LDFLAGS_CUDA) -o $@

.PHONY: bench-build
bench-build: $(BENCH_TOOLS) $(BENCH_RUNS)

bench:
	@$(MAKE) --no-print-directory -j$(BENCH_JOBS) bench-build
	@bash tests/bench/bench.sh $(CHAPTERS)

plots:
	@bash tests/bench/plots.sh
