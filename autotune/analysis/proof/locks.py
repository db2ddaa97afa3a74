"""A lock taken and released in one block, ``omp_set_lock(&l); ...; omp_unset_lock(&l);``,
read as a critical section named by the lock.

Only the plain form is read so: one shared lock variable (not an element of a lock
array, whose element would have to be proven to guard the data it is taken for),
both calls in the same block, no directive and no jump (``return``, ``break``,
``continue``, ``goto``) between them that could leave with the lock held or skip its
release. The statements between are then judged as a critical section's are: they
must commute (``analysis.critical``), and their updates are made under that lock,
which excludes only the sections of the same lock.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.names import call_name

JUMPS = (c_ast.Return, c_ast.Break, c_ast.Continue, c_ast.Goto)


def lock_sections(runs: list) -> dict[int, tuple[int, str]]:
    """Index of an ``omp_set_lock(&l)`` run -> (index of its ``omp_unset_lock(&l)``,
    ``l``), for the sections this module reads (``runs``: ``pragma_runs`` of a block)."""
    out: dict[int, tuple[int, str]] = {}
    i = 0
    while i < len(runs):
        name = _lock_call(runs[i], "omp_set_lock")
        if name is None:
            i += 1
            continue
        end = _release(runs, i, name)
        if end is not None:
            out[i] = (end, name)
            i = end
        i += 1
    return out


def _release(runs: list, start: int, name: str) -> int | None:
    for k in range(start + 1, len(runs)):
        run = runs[k]
        if run.directives or run.stmt is None:
            return None
        if _lock_call(run, "omp_unset_lock") == name:
            return k
        if any(isinstance(n, JUMPS) for n in walk(run.stmt)):
            return None
        if any(
            isinstance(n, c_ast.FuncCall) and (call_name(n) or "").startswith("omp_")
            for n in walk(run.stmt)
        ):
            return None  # another lock call, a thread query: not a plain section
    return None


def _lock_call(run, func: str) -> str | None:
    """``l`` of ``func(&l);`` as a statement of its own."""
    stmt = run.stmt
    if run.directives or not isinstance(stmt, c_ast.FuncCall) or call_name(stmt) != func:
        return None
    args = stmt.args.exprs if stmt.args is not None else []
    if len(args) != 1:
        return None
    arg = args[0]
    if isinstance(arg, c_ast.UnaryOp) and arg.op == "&" and isinstance(arg.expr, c_ast.ID):
        return arg.expr.name
    return None
