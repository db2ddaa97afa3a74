"""One walk of a loop iteration, wired: the walker with its memory and call rules."""

from __future__ import annotations

from autotune.analysis.proof.calls import walk_call
from autotune.analysis.proof.facts import IterationFacts
from autotune.analysis.proof.pointers import is_pointer, pointer_value
from autotune.analysis.proof.refs import IterationWalker
from autotune.analysis.proof.walkstate import Hooks, LoopContext
from autotune.analysis.proof.wide import touch

HOOKS = Hooks(touch=touch, call=walk_call, pointer=pointer_value, is_pointer=is_pointer)


def walk_iteration(ctx: LoopContext) -> IterationFacts:
    """The references, data flow and effects of one iteration in one calling context."""
    return IterationWalker(ctx, HOOKS).run()
