# autotune.mk: compile a Makefile project's C sources through autotune-cc.
#
#   include $(shell autotune-cc --cmake-dir)/autotune.mk
#
# after CC is set (or use the one-liner  make CC="autotune-cc gcc"  instead). Adds:
#   make autotune-tune     a tuning build: every goal in AUTOTUNE_TUNE_GOALS (default: all)
#                          rebuilt with AUTOTUNE_MODE=tune, which runs 'autotune tune' on each
#                          source not tuned yet, with exactly the flags it is compiled with
#   make autotune-report   which loops the last build compiled tuned ('autotune report-build')
# Set AUTOTUNE_WRAP=0 to build without the wrapper.

# 'autotune-cc --launcher' names the same wrapper started without the interpreter's site
# step (python -S .../launch.py): cheaper per compile than the autotune-cc script.
ifndef AUTOTUNE_CC
AUTOTUNE_CC := $(shell autotune-cc --launcher 2>/dev/null || echo autotune-cc)
endif
AUTOTUNE ?= autotune
AUTOTUNE_TUNE_GOALS ?= all

ifneq ($(AUTOTUNE_WRAP),0)
ifeq ($(findstring $(AUTOTUNE_CC),$(CC)),)
override CC := $(AUTOTUNE_CC) $(CC)
endif
endif

_autotune_default_goal := $(.DEFAULT_GOAL)

autotune-tune:
	AUTOTUNE_MODE=tune $(MAKE) -B CC='$(CC)' $(AUTOTUNE_TUNE_GOALS)

autotune-report:
	$(AUTOTUNE) report-build

.PHONY: autotune-tune autotune-report
.DEFAULT_GOAL := $(_autotune_default_goal)
