"""Double buffers held in a struct: ``t = g->u; g->u = g->unew; g->unew = t;``.

A solver that keeps its grids in a struct swaps the two pointer members after each
sweep. The points-to is field-based and flow-insensitive, so it sees each member reach
both grids; yet for one struct, at every moment, its two members point at distinct
objects, as two local pointers of a double buffer do (``swaps``). That holds when, in
the whole program:

- every store to either member is a swap of the two members of one struct (the same
  holder expression in all three statements, through a temporary), or a store of an
  object's start (an allocation, an array) that is one member's alone: the members
  start at objects of distinct allocation sites;
- no member's address is taken (a store through it would be unseen);
- each swap runs on one thread at a time: outside every parallel region of its function
  and in a function called outside every region (``main``, a driver), or under
  ``single`` or ``master`` (every thread swapping one shared struct would race).

References through ``h->u`` and ``h->unew`` of one steady holder ``h`` then belong to
one group (``PtrVal.group``) that never reaches one object through two members.
"""

from __future__ import annotations

from pycparser import c_ast, c_generator

from autotune.analysis.astutil import path_to, walk
from autotune.analysis.proof.decls import is_fresh
from autotune.analysis.proof.perthread import directives_on
from autotune.analysis.proof.pointsto import PointsTo
from autotune.analysis.proof.program import Program, Site

ONE_THREAD = ("single", "master", "masked")
_GEN = c_generator.CGenerator()


def field_pair(prog: Program, pts: PointsTo, field: str) -> frozenset[str] | None:
    """The members that exchange targets with ``field`` (itself included), where the
    module's conditions hold; None where they do not."""
    key = ("field_swaps",)
    if key not in prog.memo:
        prog.memo[key] = _pairs(prog, pts)
    return prog.memo[key].get(field)


def swapped_members(w, node: c_ast.StructRef) -> tuple | None:
    """The group of ``h->u`` (``h.u``) when ``u`` is one of a pair of swapped members and
    the holder ``h`` is a plain name the loop never stores to: (group key, member)."""
    pair = field_pair(w.ctx.prog, w.ctx.pointsto, node.field.name)
    holder = node.name
    if pair is None or not isinstance(holder, c_ast.ID) or holder.name in w.ctx.written:
        return None
    inside = {id(n) for n in walk(w.ctx.loop)}
    for f in pair:
        if any(id(s.node) in inside for s in w.ctx.prog.field_stores.get(f, [])):
            return None  # swapped inside the loop
    return ("members", pair, w._key(holder.name), node.type), node.field.name


def _pairs(prog: Program, pts: PointsTo) -> dict[str, frozenset[str]]:
    swaps: list[tuple[str, str, list[c_ast.Node], c_ast.FuncDef, c_ast.FileAST, c_ast.Node]] = []
    for func, ast in prog.funcs.values():
        for n in walk(func.body):
            if isinstance(n, c_ast.Compound):
                items = n.block_items or []
                for k in range(len(items) - 2):
                    found = _swap(items[k], items[k + 1], items[k + 2])
                    if found is not None:
                        swaps.append((*found, func, ast, items[k]))
    out: dict[str, frozenset[str]] = {}
    for f1, f2, _moved, func, _ast, head in swaps:
        pair = frozenset({f1, f2})
        if any(pair & p and pair != p for p in out.values()):
            continue  # a member swapped with two others: not one pair
        if not _one_thread(prog, func, head):
            continue
        if _address_taken(prog, pair) or not _starts_apart(prog, pts, f1, f2, swaps):
            continue
        out[f1] = out[f2] = pair
    return out


def _swap(a: c_ast.Node, b: c_ast.Node, c: c_ast.Node) -> tuple | None:
    """(f1, f2, the swap's right-hand sides) of ``t = X->f1; X->f1 = X->f2; X->f2 = t``
    (or ``T *t = X->f1``), X one holder expression throughout."""
    if isinstance(a, c_ast.Decl) and a.name and isinstance(a.init, c_ast.StructRef):
        tmp, first = a.name, a.init
    elif (
        isinstance(a, c_ast.Assignment)
        and a.op == "="
        and isinstance(a.lvalue, c_ast.ID)
        and isinstance(a.rvalue, c_ast.StructRef)
    ):
        tmp, first = a.lvalue.name, a.rvalue
    else:
        return None
    if not all(isinstance(s, c_ast.Assignment) and s.op == "=" for s in (b, c)):
        return None
    if not (isinstance(b.lvalue, c_ast.StructRef) and isinstance(b.rvalue, c_ast.StructRef)):
        return None
    if not (isinstance(c.lvalue, c_ast.StructRef) and isinstance(c.rvalue, c_ast.ID)):
        return None
    holder = _GEN.visit(first.name)
    same = [_GEN.visit(x.name) == holder for x in (b.lvalue, b.rvalue, c.lvalue)]
    if not all(same) or c.rvalue.name != tmp:
        return None
    f1, f2 = first.field.name, b.rvalue.field.name
    if f1 == f2 or b.lvalue.field.name != f1 or c.lvalue.field.name != f2:
        return None
    return f1, f2, [b.rvalue, c.rvalue]


def _one_thread(prog: Program, func: c_ast.FuncDef, head: c_ast.Node) -> bool:
    """The swap runs on one thread at a time (see the module's note)."""
    on = directives_on(path_to(func.body, head) or [])
    kinds = [d.kind for d in on.values()]
    if any(k in ONE_THREAD for k in kinds):
        return True
    if kinds:
        return False
    name = func.decl.name
    if name == "main":
        return True
    calls = [
        (n, f) for n, f, _ in prog.uses(name) if f is not func
    ]  # every call is outside every region of its caller
    return bool(calls) and all(not directives_on(path_to(f.body, n) or []) for n, f in calls)


def _address_taken(prog: Program, fields: frozenset[str]) -> bool:
    for func, _ in prog.funcs.values():
        for n in walk(func.body):
            if isinstance(n, c_ast.UnaryOp) and n.op == "&":
                inner = n.expr
                if isinstance(inner, c_ast.StructRef) and inner.field.name in fields:
                    return True
    return False


def _starts_apart(prog: Program, pts: PointsTo, f1: str, f2: str, swaps: list) -> bool:
    """Each member's stores are swaps or object starts of its own, the two members'
    starts at distinct objects."""
    moved = {id(r) for s in swaps for r in s[2]}
    starts: dict[str, frozenset[str]] = {}
    for f in (f1, f2):
        objs: frozenset[str] = frozenset()
        stores = prog.field_stores.get(f, [])
        for site in stores:
            if id(site.node) in moved:
                continue
            if not is_fresh(site.node, prog):  # an allocator's, or a helper's
                return False
            got = pts.objects(site.node, Site(site.node, site.func, site.ast))
            if not got:
                return False
            objs |= got
        if not objs:
            return False
        starts[f] = objs
    return not (starts[f1] & starts[f2])
