"""Distinct levels of a grid hierarchy passed to one call.

NAS MG keeps its multigrid levels as ``double ****u``: ``u[l]`` is level ``l``, each
level and each of its rows a new allocation. Its V-cycle calls
``rprj3(r[k], ..., r[j], ...)`` and ``interp(u[j], ..., u[k], ...)`` right after
``j = k - 1``: two levels that are never the same, and share no row. Without knowing
that, every access through one parameter may be an access through the other, and
the loops of those functions are kept.

Two arguments ``X[a]`` and ``X[b]`` of one call are told apart when (1) every pointer
stored into ``X``'s elements, and into theirs down to the data, is a new allocation
(``PointsTo.fresh_rows`` at each level: no row is shared between levels), and (2)
``a - b`` is a constant other than zero, each name in them read as the statements
before the call, in its block, leave it (``j = k - 1``; a name nothing there may change
is one value wherever it is read; a global or a local whose address is taken may be
changed by any call or store through a pointer). Such arguments get a group of their own
(``PtrVal.group``): accesses through two of them never touch the same element; any
other pointer that may reach the levels (a global, another parameter) has no group and
still meets both.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import walk, written_names
from autotune.analysis.proof import poly
from autotune.analysis.proof.decls import derivations
from autotune.analysis.proof.pointsto import PointsTo
from autotune.analysis.proof.program import Program, Site
from autotune.analysis.proof.walkstate import PtrVal
from autotune.analysis.symbols import file_info
from autotune.frontend.constants import int_constant

MAX_DEPTH = 4  # reaching values followed through (j = k - 1, k = lt, ...)


def distinct_levels(
    args: list[c_ast.Node],
    binding: dict[str, PtrVal],
    params: dict[str, int],
    site: Site,
    pointsto: PointsTo,
) -> dict[str, PtrVal]:
    """``binding`` with a group for each parameter bound to a level ``X[e]`` of a grid that
    the call passes two or more distinct levels of (see the module); ``params``: each
    pointer parameter's position."""
    by_root: dict[str, list[tuple[str, c_ast.ArrayRef]]] = {}
    for name, k in params.items():
        arg = args[k] if k < len(args) else None
        while isinstance(arg, c_ast.Cast):
            arg = arg.expr
        if isinstance(arg, c_ast.ArrayRef) and isinstance(arg.name, c_ast.ID):
            by_root.setdefault(arg.name.name, []).append((name, arg))
    out = dict(binding)
    for root, levels in by_root.items():
        if len(levels) < 2 or not _disjoint_trees(levels[0][1], site, pointsto):
            continue
        values = [_value(a.subscript, site, pointsto.prog) for _, a in levels]
        if any(v is None for v in values) or not _pairwise_distinct(values):
            continue
        for name, arg in levels:
            pv = out[name]
            group = (("levels", id(site.node), root), f"{root}[{id(arg)}]")
            out[name] = PtrVal(pv.objects, pv.base, pv.owner, pv.name, group)
    return out


def whole_tree(group: tuple | None) -> bool:
    """A group set here: it holds for every row below the pointer too."""
    return group is not None and isinstance(group[0], tuple) and group[0][0] == "levels"


def _pairwise_distinct(values: list[poly.Poly]) -> bool:
    for i, a in enumerate(values):
        for b in values[i + 1 :]:
            diff = poly.constant_of(poly.add(a, b, -1))
            if diff is None or diff == 0:
                return False
    return True


def _disjoint_trees(arg: c_ast.ArrayRef, site: Site, pointsto: PointsTo) -> bool:
    """Every pointer stored into the grid's elements, and into theirs down to the data,
    is a new allocation: two levels share no row."""
    decl = pointsto.scope(site).find_decl(arg.name.name, arg)[0]
    derivs = derivations(pointsto.scope(site), decl.type) if decl is not None else None
    if not derivs or any(d != "ptr" for d in derivs):
        return False  # arrays of rows, typedefs: not followed
    objs = pointsto.objects(arg.name, site)
    for _ in range(len(derivs) - 1):  # the pointer levels below the grid's own
        if objs is None or not pointsto.fresh_rows(objs):
            return False
        objs = pointsto.contents(objs, 0)
    return True


def _value(node: c_ast.Node, site: Site, prog: Program) -> poly.Poly | None:
    """``node``, read by the call, as a polynomial of the names whose values the call
    cannot tell (see ``_at``)."""
    place = _place(site)
    if place is None:
        return None
    return _at(node, *place, site, prog, 0)


def _place(site: Site) -> tuple[list[c_ast.Node], int] | None:
    """The statements of the call's block and the position of the call's statement; None
    in a function with a ``goto`` (a jump back may reach the call with the names set by
    a later statement)."""
    if site.func is None or any(isinstance(n, c_ast.Goto) for n in walk(site.func)):
        return None
    parents = file_info(site.ast).parents
    stmt, block = site.node, parents.get(id(site.node))
    while block is not None and not isinstance(block, c_ast.Compound):
        stmt, block = block, parents.get(id(block))
    if block is None or not block.block_items or stmt not in block.block_items:
        return None
    return block.block_items, block.block_items.index(stmt)


def _at(
    node: c_ast.Node,
    items: list[c_ast.Node],
    end: int,
    site: Site,
    prog: Program,
    depth: int,
) -> poly.Poly | None:
    """``node`` as read just before statement ``end`` of ``items``. A name assigned by a
    statement before (``j = k - 1``, ``int j = k - 1``) with nothing between that may
    change it is that statement's value, itself read there; any other name is a symbol
    of the stretch of statements in which nothing may change it: two reads in one
    stretch are one value, reads in two are not."""
    if isinstance(node, c_ast.Constant):
        value = int_constant(node.value) if node.type != "char" else None
        return poly.const(value) if value is not None else None
    if isinstance(node, c_ast.ID):
        for k in range(end - 1, -1, -1):
            value = _assigns(items[k], node.name)
            if value is not None and depth < MAX_DEPTH:
                return _at(value, items, k, site, prog, depth + 1)
            if value is not None or _may_change(items[k], node.name, site, prog):
                return poly.symbol(f"Pcall_{node.name}@{k + 1}")
        return poly.symbol(f"Pcall_{node.name}@0")
    if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
        left = _at(node.left, items, end, site, prog, depth)
        right = _at(node.right, items, end, site, prog, depth)
        if left is None or right is None:
            return None
        return poly.add(left, right, 1 if node.op == "+" else -1)
    return None


def _assigns(stmt: c_ast.Node, name: str) -> c_ast.Node | None:
    """The value of ``name = value;`` or ``T name = value;`` as a statement of the block."""
    if (
        isinstance(stmt, c_ast.Assignment)
        and stmt.op == "="
        and isinstance(stmt.lvalue, c_ast.ID)
        and stmt.lvalue.name == name
    ):
        return stmt.rvalue
    if isinstance(stmt, c_ast.Decl) and stmt.name == name and stmt.init is not None:
        return stmt.init if not isinstance(stmt.init, c_ast.InitList) else None
    return None


def _may_change(stmt: c_ast.Node, name: str, site: Site, prog: Program) -> bool:
    """``stmt`` assigns ``name``, or, for a global or a local whose address the function
    takes, calls anything or stores through a pointer."""
    if name in written_names(stmt):
        return True
    taken = prog.address_taken_var(name, site.node, site.func, site.ast)
    if name not in file_info(site.ast).globals and not taken:
        return False
    for n in walk(stmt):
        if isinstance(n, c_ast.FuncCall):
            return True
        if isinstance(n, c_ast.Assignment) and not isinstance(n.lvalue, c_ast.ID):
            return True
        if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            if not isinstance(n.expr, c_ast.ID):
                return True
    return False
