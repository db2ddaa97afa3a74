"""A lock taken and released in one block, ``omp_set_lock(&l); ...; omp_unset_lock(&l);``,
read as a critical section named by the lock.

Only the plain form is read so: one shared lock variable, or an element of a shared
lock array taken for the elements of the same subscript (``omp_set_lock(&lk[b]);
hist[b]++; omp_unset_lock(&lk[b]);``: every update between writes an element
``x[b]``, and nothing between changes ``b``, so two updates of one element always hold
one lock), both calls in the same block, no directive and no jump (``return``,
``break``, ``continue``, ``goto``) between them that could leave with the lock held or
skip its release. The statements between are then judged as a critical section's
are: they must commute (``analysis.critical``), and their updates are made under that
lock, which excludes only the sections of the same lock.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import lvalues, walk
from autotune.analysis.exprs import to_c_node
from autotune.analysis.names import assigned_names, call_name, names_in

JUMPS = (c_ast.Return, c_ast.Break, c_ast.Continue, c_ast.Goto)


def lock_sections(runs: list) -> dict[int, tuple[int, str]]:
    """Index of an ``omp_set_lock(&l)`` run -> (index of its ``omp_unset_lock(&l)``,
    the lock's name: ``l``, or ``lk[]`` for an element of a lock array), for the
    sections this module reads (``runs``: ``pragma_runs`` of a block)."""
    out: dict[int, tuple[int, str]] = {}
    i = 0
    while i < len(runs):
        lock = _lock_call(runs[i], "omp_set_lock")
        if lock is None:
            i += 1
            continue
        end = _release(runs, i, lock)
        if end is not None and _guards(runs[i + 1 : end], lock):
            out[i] = (end, lock[0] + ("[]" if lock[1] is not None else ""))
            i = end
        i += 1
    return out


def lock_variable(name: str) -> str:
    """The variable of a lock's name (``lk`` of ``lk[]``)."""
    return name.removesuffix("[]")


def _guards(runs: list, lock: tuple[str, str | None]) -> bool:
    """An element of a lock array guards what the section writes: only elements of the
    lock's subscript, which nothing in the section changes."""
    name, sub = lock
    if sub is None:
        return True
    for run in runs:
        targets = lvalues(run.stmt)
        written = assigned_names(run.stmt)
        for t in targets:
            if not (isinstance(t, c_ast.ArrayRef) and isinstance(t.name, c_ast.ID)):
                return False
            if to_c_node(t.subscript) != sub or names_in(t.subscript).names & written:
                return False
        if any(isinstance(n, c_ast.FuncCall) for n in walk(run.stmt)):
            return False  # a call may write what the lock does not guard
    return True


def _release(runs: list, start: int, lock: tuple[str, str | None]) -> int | None:
    for k in range(start + 1, len(runs)):
        run = runs[k]
        if run.directives or run.stmt is None:
            return None
        if _lock_call(run, "omp_unset_lock") == lock:
            return k
        if any(isinstance(n, JUMPS) for n in walk(run.stmt)):
            return None
        if any(
            isinstance(n, c_ast.FuncCall) and (call_name(n) or "").startswith("omp_")
            for n in walk(run.stmt)
        ):
            return None  # another lock call, a thread query: not a plain section
    return None


def _lock_call(run, func: str) -> tuple[str, str | None] | None:
    """(``l``, None) of ``func(&l);``, (``lk``, the subscript's text) of ``func(&lk[b]);``,
    as a statement of its own."""
    stmt = run.stmt
    if run.directives or not isinstance(stmt, c_ast.FuncCall) or call_name(stmt) != func:
        return None
    args = stmt.args.exprs if stmt.args is not None else []
    if len(args) != 1 or not (isinstance(args[0], c_ast.UnaryOp) and args[0].op == "&"):
        return None
    target = args[0].expr
    if isinstance(target, c_ast.ID):
        return target.name, None
    if isinstance(target, c_ast.ArrayRef) and isinstance(target.name, c_ast.ID):
        return target.name.name, to_c_node(target.subscript)
    return None
