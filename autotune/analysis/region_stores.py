"""Whether a parallel region leaves some memory alone outside one of its loops.

A run-time test that scans an array (``scans``, ``segments``) stands at its loop's
directive. Before a combined ``parallel for`` one thread evaluates it; inside a region
every thread does, each when it reaches the loop, and all of them must see the same
values or they would take different branches. They do where nothing the region runs
besides the loop itself stores to the array: no assignment, step or library call whose
target the points-to may place in it, and no call of a function that could (the
program's own, or a library function not known to write nothing of its arguments'). The
loop's own stores are the proof's to judge (``sizes_read``).
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.call_effects import PRINTS
from autotune.analysis.ops import math_name
from autotune.analysis.proof.decls import var_key
from autotune.analysis.proof.pointsto import PointsTo
from autotune.analysis.proof.program import Program, Site, is_omp_call
from autotune.analysis.proof.walkstate import PURE_FUNCS
from autotune.analysis.symbols import Scope

STEPS = ("++", "--", "p++", "p--")


def leaves_alone(
    prog: Program,
    ast: c_ast.FileAST,
    func: c_ast.FuncDef,
    region: c_ast.Node,
    loop: c_ast.Node,
    holder: frozenset[str],
) -> bool:
    """Nothing ``region`` runs outside ``loop`` may store to the objects ``holder``."""
    if not holder:
        return False
    inside = {id(n) for n in walk(loop)}
    pointsto = PointsTo(prog)
    for n in walk(region):
        if id(n) in inside:
            continue
        if isinstance(n, c_ast.FuncCall):
            name = n.name.name if isinstance(n.name, c_ast.ID) else ""
            if not _writes_nothing(name):
                return False
        target = None
        if isinstance(n, c_ast.Assignment):
            target = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in STEPS:
            target = n.expr
        if target is not None and _may_reach(target, holder, pointsto, Site(n, func, ast)):
            return False
    return True


def _writes_nothing(name: str) -> bool:
    """A library function that stores nothing its arguments point to."""
    return bool(math_name(name)) or name in PURE_FUNCS or name in PRINTS or is_omp_call(name)


def _may_reach(target: c_ast.Node, holder: frozenset[str], pointsto: PointsTo, site) -> bool:
    """The store to ``target`` may land in ``holder`` (True where it cannot tell)."""
    node = target
    while isinstance(node, c_ast.Cast):
        node = node.expr
    while isinstance(node, c_ast.ArrayRef) or (
        isinstance(node, c_ast.StructRef) and node.type == "."
    ):
        base = node.name
        if isinstance(node, c_ast.ArrayRef):
            objects = pointsto.objects(base, site)  # an array decays; a pointer points
            return objects is None or bool(objects & holder)
        node = base
    if isinstance(node, c_ast.ID):  # the variable itself: an array, a struct, a pointer
        decl, kind = Scope(site.func, site.ast).find_decl(node.name, site.node)
        return decl is None or var_key(decl, kind, site.func) in holder
    if isinstance(node, c_ast.StructRef):  # p->f: what p points at
        objects = pointsto.objects(node.name, site)
    elif isinstance(node, c_ast.UnaryOp) and node.op == "*":
        objects = pointsto.objects(node.expr, site)
    else:
        return True
    return objects is None or bool(objects & holder)
