"""OpenMP constructs met inside the loop body, for the iteration walk (``refs.py``).

Standalone directives (a barrier, a flush, ``cancel``: which iterations run after it
depends on the schedule) are effects; ``atomic`` and
``critical`` statements are walked as synchronised updates (an atomic capture or a
critical section whose effect depends on the entry order is an effect); the loop's
plain ``ordered`` region is walked as ordered (its statements run one iteration at a
time, in the iterations' order, whatever the schedule or team); ``simd`` and its kin
are walked as plain statements; any other nested construct is one the proof does not
follow.
"""

from __future__ import annotations

import re

from pycparser import c_ast

from autotune.analysis.critical import critical_order
from autotune.analysis.proof.locks import lock_variable
from autotune.analysis.proof.updates import captures

TRANSPARENT = ("simd", "loop", "unroll", "tile")


def walk_construct(w, run) -> None:  # an IterationWalker, a frontend.runs run
    """A statement under OpenMP directives, or a standalone directive (no statement)."""
    d = run.directives[0]
    if run.stmt is None:
        if d.kind.startswith("cancel"):
            w.facts.effect(
                f"'#pragma {d.text}' at line {d.line}: which iterations still run once it "
                "acts depends on the schedule and the team"
            )
        else:  # barrier, flush, taskwait, target update ...: none is a plain statement
            w.facts.effect(f"'#pragma {d.text}' at line {d.line} inside the loop")
        return
    kinds = [x.kind for x in run.directives]
    if any(k in ("atomic", "critical") for k in kinds):
        _synchronised(w, run)
    elif any(k == "ordered" for k in kinds):
        _ordered(w, run)
    elif all(k in TRANSPARENT for k in kinds):
        w.visit(run.stmt)
    else:
        w.facts.effect(
            f"kept as written: a nested '#pragma {d.text}' at {d.file}:{d.line}, which the "
            "proof does not follow"
        )


def _ordered(w, run) -> None:
    """Only the plain form, once per iteration (at the loop body's own level): ``ordered
    simd`` and an ordered region in an inner loop (non-conforming) stay effects."""
    d = run.directives[0]
    words = d.text.split()[2:]  # after "omp ordered"
    if any(x != "threads" for x in words) or len(w.domain) > w.ctx.collapse:
        w.facts.effect(f"an 'ordered' construct at line {d.line}")
        w.visit(run.stmt)
        return
    w.ordered += 1
    w.visit(run.stmt)
    w.ordered -= 1


def _synchronised(w, run) -> None:
    d = run.directives[0]
    words = d.text.split()
    if d.kind == "atomic" and ("capture" in words or captures(run.stmt)):
        w.facts.effect(
            f"'#pragma {d.text}' at line {d.line} captures a shared value: which "
            "iteration sees which value depends on the order"
        )
    elif d.kind == "critical":
        why = critical_order(run.stmt, w.frame.scope)
        if why:
            w.facts.effect(
                f"the critical section at line {d.line} {why}: its effect depends on the "
                "order threads enter it"
            )
    saved = w.sync, w.lock
    w.sync = d.kind
    name = re.search(r"\bcritical\s*\(\s*(\w+)\s*\)", d.text)
    w.lock = f"critical({name.group(1)})" if name else d.kind
    w.visit(run.stmt)
    w.sync, w.lock = saved


def walk_lock_section(w, runs: list, start: int, end: int, lock: str) -> bool:
    """The statements between ``omp_set_lock(&lock)`` (``runs[start]``) and its
    ``omp_unset_lock`` (``runs[end]``), walked as a critical section named by the lock
    (``proof/locks.py``) when the whole team takes it: one shared variable of the
    loop's function (a lock of the iteration's own, or a thread's, excludes nothing).
    False, nothing walked, otherwise."""
    if not (w.frame.top and w._class(lock_variable(lock), runs[start].stmt) == "shared"):
        return False
    stmts = [r.stmt for r in runs[start + 1 : end]]
    line = runs[start].stmt.coord.line if runs[start].stmt.coord else 0
    why = critical_order(c_ast.Compound(block_items=stmts), w.frame.scope)
    if why:
        w.facts.effect(
            f"the section under lock {lock} at line {line} {why}: its effect depends on the "
            "order threads take the lock"
        )
    saved = w.sync, w.lock
    w.sync, w.lock = "critical", f"lock({lock})"
    for k, stmt in enumerate(stmts, start + 1):
        w.path[-1] = k
        w.visit(stmt)
    w.sync, w.lock = saved
    return True
