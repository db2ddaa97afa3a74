"""Run-time guards for loops proven only at sizes above a bound (loop versioning).

The gate proves each loop once for every size; a loop kept only because of
what happens at small sizes is proved again assuming larger ones
(``proof.conditions``). What a guard may test is narrow on purpose: a value
every thread reads alike at the directive, and reads as the proof did, so
that the test and the proof speak of one value:
a file-scope variable (or a constant subscript or field of one), not
threadprivate, never privatised by a clause, never shadowed by a local or a
parameter of any function of the program.
"""

from __future__ import annotations

import copy
import re

from pycparser import c_ast

from autotune.analysis.proof.facts import clause_names
from autotune.analysis.proof.program import Program, param_names
from autotune.analysis.proof.syntax import PARAM_TEXTS
from autotune.frontend.finder import FoundLoop
from autotune.frontend.records import LoopRecord

_PLAIN = re.compile(r"[A-Za-z_]\w*(\[\d+\]|\.[A-Za-z_]\w*)*")
GATED = ("kept", "reassociates", "region_threads", "sets_schedule", "warnings")


def snapshot(record: LoopRecord) -> dict:
    """The fields the gate fills, copied (to run it again from the same start)."""
    return {f: copy.deepcopy(getattr(record, f)) for f in GATED}


def restore(record: LoopRecord, saved: dict) -> None:
    for f, value in saved.items():
        setattr(record, f, copy.deepcopy(value))


def usable_params(prog: Program, ast: c_ast.FileAST, found: list[FoundLoop]) -> set[str]:
    """The isl parameters a run-time test placed at a loop's directive can read."""
    globals_ = {
        d.name
        for d in ast.ext
        if isinstance(d, c_ast.Decl)
        and d.name
        and not isinstance(d.type, c_ast.FuncDecl)
        and "typedef" not in (d.storage or [])
    }
    shadowed: set[str] = set()
    for func, _unit in prog.funcs.values():
        shadowed |= set(filter(None, param_names(func)))
        shadowed |= {n.name for n in _decls(func.body)}
    for f in found:
        for c in (f.directive.clauses, f.parallel.clauses if f.parallel else None):
            if c is not None:
                items = c.private + c.firstprivate + c.lastprivate
                shadowed |= set(clause_names(items))
                shadowed |= {r.split(":")[-1].strip() for r in clause_names(c.reduction)}
    out = set()
    for param, text in PARAM_TEXTS.items():
        if not _PLAIN.fullmatch(text):
            continue
        root = re.match(r"[A-Za-z_]\w*", text).group(0)
        if root in globals_ and root not in shadowed and root not in prog.threadprivate:
            out.add(param)
    return out


def guard_text(bounds: dict[str, int]) -> str:
    """The C test of an assumption: ``grid_points[0] >= 6 && grid_points[1] >= 6``."""
    return " && ".join(f"{PARAM_TEXTS[p]} >= {k}" for p, k in sorted(bounds.items()))


def _decls(node: c_ast.Node | None) -> list[c_ast.Decl]:
    out = []
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Decl) and n.name:
            out.append(n)
        stack.extend(c for _, c in n.children())
    return out
