"""Run-time guards for loops proven only at sizes above a bound (loop versioning).

The gate proves each loop once for every size; a loop kept only because of
what happens at small sizes is proved again assuming larger ones
(``proof.conditions``). What a guard may test is narrow on purpose: a value
every thread reads alike at the directive, and reads as the proof did, so
that the test and the proof speak of one value:
a variable (or a constant subscript or field of one) that the loop's directive
sees as shared: file scope, or a local or parameter of the loop's function
declared outside the parallel region and never assigned (nor its address taken)
inside it; not threadprivate, never named in a privatising clause. An orphaned
loop reads only file-scope data (its function's locals are each thread's own).
"""

from __future__ import annotations

import copy
import re

from pycparser import c_ast

from autotune.analysis.astutil import decl_ids, walk
from autotune.analysis.proof.facts import clause_names
from autotune.analysis.proof.program import Program
from autotune.analysis.proof.syntax import PARAM_TEXTS, scalar_root
from autotune.analysis.symbols import Scope
from autotune.frontend.finder import FoundLoop, FoundRegion
from autotune.frontend.records import LoopRecord

_PLAIN = re.compile(r"[A-Za-z_]\w*(\[\d+\]|\.[A-Za-z_]\w*)*")
GATED = ("kept", "reassociates", "region_threads", "sets_schedule", "warnings")


def snapshot(record: LoopRecord) -> dict:
    """The fields the gate fills, copied (to run it again from the same start)."""
    return {f: copy.deepcopy(getattr(record, f)) for f in GATED}


def restore(record: LoopRecord, saved: dict) -> None:
    for f, value in saved.items():
        setattr(record, f, copy.deepcopy(value))


def usable_at(
    prog: Program,
    ast: c_ast.FileAST,
    found: FoundLoop,
    regions: list[FoundRegion],
    params: set[str],
) -> set[str]:
    """Those of ``params`` (isl parameters) a run-time test placed at ``found``'s
    directive can read: a value every thread of the team sees alike there, named by the
    same text the proof read it by."""
    region = _region_of(found, regions)
    orphaned = found.parallel is None  # its function's locals are each thread's own
    scope = Scope(found.func, ast)
    out = set()
    for param in params:
        text = PARAM_TEXTS.get(param)
        if text is None or not _PLAIN.fullmatch(text):
            continue
        root = re.match(r"[A-Za-z_]\w*", text).group(0)
        decl, kind = scope.find_decl(root, found.for_node)
        if decl is None or root in prog.threadprivate or root in _clause_names(found, region):
            continue
        if kind == "global":
            out.add(param)
        elif kind in ("local", "param") and not orphaned and _shared_at(decl, root, found, region):
            out.add(param)
    return out


def _region_of(found: FoundLoop, regions: list[FoundRegion]) -> FoundRegion | None:
    return next((r for r in regions if r.directive is found.parallel), None)


def _clause_names(found: FoundLoop, region: FoundRegion | None) -> set[str]:
    names: set[str] = set()
    for c in (found.directive.clauses, region.directive.clauses if region else None):
        if c is not None:
            names |= set(clause_names(c.private + c.firstprivate + c.lastprivate))
            names |= {r.split(":")[-1].strip() for r in clause_names(c.reduction)}
    return names


def _shared_at(decl: c_ast.Decl, root: str, found: FoundLoop, region: FoundRegion | None) -> bool:
    """A local or parameter of the loop's function, declared outside the parallel region
    (so the team shares it) and never assigned or handed out by address inside it."""
    inside = region.node if region is not None else found.for_node
    if inside is None or id(decl) in decl_ids(inside):
        return False
    for n in walk(inside):
        if isinstance(n, c_ast.Assignment) and scalar_root(n.lvalue) == root:
            return False
        if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            if scalar_root(n.expr) == root or _root_id(n.expr) == root:
                return False
    return True


def _root_id(node: c_ast.Node) -> str | None:
    while isinstance(node, c_ast.ArrayRef | c_ast.StructRef):
        node = node.name
    return node.name if isinstance(node, c_ast.ID) else None


def guard_text(bounds: dict[str, int]) -> str:
    """The C test of an assumption: ``grid_points[0] >= 6 && grid_points[1] >= 6``."""
    return " && ".join(f"{PARAM_TEXTS[p]} >= {k}" for p, k in sorted(bounds.items()))
