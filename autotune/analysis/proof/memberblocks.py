"""Pointer members that hold a block of their own in every element of an array.

``level->my_boxes[b].vectors[v]`` (a multigrid's boxes, each with its own vectors),
``cells[c].atoms`` (a cell list): an array of structs whose pointer member is set, at
every store anywhere in the program, to a new allocation, and whose elements are never
copied whole (no struct assignment, no library copy into them), in a struct (a union's
members, or an anonymous union's, share the pointer). Then two elements hold
two distinct blocks, so the block a member points at is identified by its holder's
place: ``[b, 0]``, one row per holder, as the rows of ``float **w`` allocated one by one
are (``pointsto.fresh_rows``). Accesses through the members of two iterations' own
elements then never meet, whatever offsets they add inside their blocks (C keeps
pointer arithmetic inside its object).
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.proof import poly
from autotune.analysis.proof.access import access_of
from autotune.analysis.proof.decls import is_fresh
from autotune.analysis.proof.members import struct_type
from autotune.analysis.proof.pointsto import Objects, PointsTo, same_origin
from autotune.analysis.proof.refs import IterationWalker
from autotune.analysis.proof.walkstate import PtrVal


def member_block(w: IterationWalker, node: c_ast.StructRef, objs: Objects) -> PtrVal | None:
    """Where the pointer member ``node`` (``boxes[b].data``, ``bp->data``) points: the
    start of its holder's own block, one row per holder; None where that is not so."""
    if not objs:
        return None
    if node.type == ".":
        if not isinstance(node.name, c_ast.ArrayRef):
            return None
        got = access_of(w, node.name)
        if got is None:
            return None
        holders, index, name = got[0], got[1], got[3]
    else:
        pv = w.pointer(node.name)
        if pv is None:
            return None
        holders, index, name = pv.objects, pv.base, pv.name
    if not holders or not index or None in index:
        return None
    element = node.name if node.type == "." else c_ast.UnaryOp("*", node.name, node.coord)
    if not struct_type(w, element, node.field.name):
        return None  # a union's members (or an anonymous union's) share the pointer
    if not fresh_members(w.ctx.pointsto, node.field.name, holders):
        return None
    return PtrVal(objs, [*index, poly.const(0)], "shared", name)


def fresh_members(pt: PointsTo, field: str, holders: frozenset[str]) -> bool:
    """Every store to a member named ``field`` is a new allocation, and nothing stores
    into ``holders``' elements whole (a struct assignment, a library copy): distinct
    elements hold distinct blocks."""
    key = ("fresh members", field, holders)
    if key not in pt.prog.memo:
        pt.prog.memo[key] = _fresh_members(pt, field, holders)
    return pt.prog.memo[key]


def _fresh_members(pt: PointsTo, field: str, holders: frozenset[str]) -> bool:
    stores = pt.prog.field_stores.get(field, [])
    if not stores or not all(is_fresh(s.node, pt.prog) for s in stores):
        return False  # ``b->data = other``, ``b->data++``, ``realloc``: not a block of its own
    if pt.prog.opaque_inits or pt.copied_into(holders):
        return False
    for rhs_site, store_base in pt.prog.element_stores:
        objs = pt.objects(store_base, rhs_site, 1)
        if objs is None or objs & holders or any(same_origin(o, holders) for o in objs):
            return False  # ``boxes[1] = boxes[0]``: one block in two holders
    return True
