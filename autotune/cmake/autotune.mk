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

# 'autotune-cc --shim-dir' names a directory whose autotune-cc starts the same wrapper
# without the interpreter's site step (python -S .../launch.py): cheaper per compile than
# the installed script. It goes first on PATH, so each compile echoes as
# 'autotune-cc gcc ...'; where it cannot be written, 'autotune-cc --launcher' is used.
ifndef AUTOTUNE_CC
_autotune_shim := $(shell autotune-cc --shim-dir 2>/dev/null)
ifneq ($(_autotune_shim),)
export PATH := $(_autotune_shim):$(PATH)
AUTOTUNE_CC := autotune-cc
else
AUTOTUNE_CC := $(shell autotune-cc --launcher 2>/dev/null || echo autotune-cc)
endif
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
