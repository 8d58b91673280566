# tests/tools/classroom.mk - the classroom kit. Included by the Makefile, so it sees SOL_STEPS,
# EX_STEPS, LAB_CHAPTERS, HAVE_SOLUTIONS, step_dir and the build rules. docs/instructors.md explains it
# (the grader: docs/grading.md).
#   make handout [OUT=dir]            a student tree without solutions/ (default ../pmpp-lab-handout),
#                                     refused when OUT exists; leak-checked (tests/tools/handout.sh)
#   make handout-check [OUT=dir]      the leak check alone, on a handout made earlier
#   make grade [STEP=...] [POINTS=file] [STUDENT=dir]
#                                     builds and tests the steps on the GPU, scores them from the
#                                     points file: a table, grade/results.json (Gradescope),
#                                     grade/junit.xml, grade/results.tap (tests/tools/grade.sh)
#   make handout-test                 a handout's `make test`: every step the student has started
#                                     (tests/tools/classroom.sh)
# and $(need_solutions), the first line of each target a handout cannot have.

HANDOUT_DIR = $(or $(OUT),../pmpp-lab-handout)
POINTS ?= tests/grade/points.txt

# STEP= names one or more exercise steps (stepN or stepN-name; a solutions/ prefix is dropped);
# a name that matches none is passed on as ?name, for grade.sh to refuse.
grade_step = $(or $(filter-out solutions/%,$(call step_dir,$(patsubst solutions/%,%,$(patsubst %/,%,$(1))))),?$(1))
GRADE_STEPS = $(if $(strip $(STEP)),$(foreach s,$(STEP),$(call grade_step,$(s))),$(EX_STEPS))

.PHONY: handout handout-check grade grade-prereqs handout-test
handout:
	$(need_solutions)
	@bash tests/tools/handout.sh make '$(HANDOUT_DIR)' $(SOL_STEPS)

handout-check:
	$(need_solutions)
	@bash tests/tools/handout.sh check '$(HANDOUT_DIR)' $(SOL_STEPS)

grade:
	@GRADE_STEPS='$(GRADE_STEPS)' GRADE_POINTS='$(POINTS)' GRADE_STUDENT='$(STUDENT)' GRADE_ARCH='$(CUDA_ARCH)' \
	  bash tests/tools/grade.sh

# What every step's test binary links besides its own files: built once, before the steps, so
# that a failure here is the lab's (or the grader's tree's), never charged to a student's step.
grade-prereqs: $(CRIT_STAMP) $(CORE_TOBJ) build/tests/lab_test.o $(foreach c,$(LAB_CHAPTERS),$(call wing_tobj,$(c)))

handout-test:
	@LAB_ARCH='$(CUDA_ARCH)' bash tests/tools/classroom.sh test $(EX_STEPS)

# The first line of a target that needs solutions/ (diff, solution, exercises, ...): in a student
# handout it says why the target is not there, and stops.
handout_says_diff = there is no solution to compare with: make hint STEP=... gives graded hints
handout_says_solution = $(handout_says_diff)
handout_says_exercises = nothing regenerates your exercise files here: they are yours
handout_says_exercises-check = $(handout_says_exercises)
handout_says_handout = a handout is made from the instructors' tree, which has them
handout_says_handout-check = $(handout_says_handout)
need_solutions = @if [ -z "$(HAVE_SOLUTIONS)" ]; then \
	echo "make $@: this is a student handout, without solutions/: $(or $(handout_says_$@),make $@ is your instructor's)"; exit 2; fi
