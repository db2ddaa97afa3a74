"""What pointer arithmetic and casts do to the place a pointer stands at.

The walk keeps a pointer's place as an index counted in the elements of the object it
points into, as the pointer it was read through declares them (``p`` of ``double *p``
counts doubles; a parameter bound to ``(__m128i *)&q[i]`` counts the ints of ``q``).
C counts pointer arithmetic in elements of the expression's own type: ``(char *)p + 8 *
i`` moves ``8 * i`` bytes, which is ``i`` doubles, and a place stored in a pointer of
another element (``char *c = (char *)p``) is counted in that pointer's elements from
then on. Where a count cannot be changed exactly, the place becomes unknown (somewhere
in the same objects).
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.copies import element_layout
from autotune.analysis.proof import poly
from autotune.analysis.proof.members import expression_type
from autotune.analysis.proof.walkstate import PtrVal


def target_bytes(w, t: c_ast.Node | None) -> int | None:
    """The bytes of what a pointer (or array) of type ``t`` points at; None for
    ``void *``, a number, or a size the walk cannot tell."""
    scope = w.frame.scope
    t = scope.resolve_typedef(t) if t is not None else None
    if isinstance(t, c_ast.Typename):
        t = scope.resolve_typedef(t.type)
    if not isinstance(t, c_ast.PtrDecl | c_ast.ArrayDecl):
        return None
    size = scope.type_size(t.type)
    return size if size else None


def pointee_bytes(w, node: c_ast.Node) -> int | None:
    """The bytes of one element of what the pointer expression ``node`` points at, from
    its static type (a cast's, a variable's, an element's, ``&x``'s); None where the walk
    cannot tell."""
    if isinstance(node, c_ast.Cast):
        return target_bytes(w, node.to_type)
    if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
        left = pointee_bytes(w, node.left)
        if left is not None or node.op == "-":
            return left
        return pointee_bytes(w, node.right)
    if isinstance(node, c_ast.UnaryOp) and node.op == "&":
        t = expression_type(w, node.expr)
        size = w.frame.scope.type_size(t) if t is not None else None
        return size if size else None
    if isinstance(node, c_ast.ID | c_ast.ArrayRef | c_ast.StructRef):
        return target_bytes(w, expression_type(w, node))
    return None


def index_unit(w, node: c_ast.Node) -> int | None:
    """The bytes of the elements the last index of the pointer expression ``node``'s
    place counts: those of the one-level pointer or array it starts from, past casts and
    arithmetic, or of the element whose address it takes. None where that cannot be
    told for sure: a parameter bound to a caller's argument (counted in the caller's
    array, of a shape not known here), a pointer to pointers or a 2-D array (its first
    index counts rows), the address of a row."""
    for _ in range(16):
        if isinstance(node, c_ast.Cast):
            node = node.expr
        elif isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
            right_side = node.op == "+" and pointee_bytes(w, node.left) is None
            node = node.right if right_side else node.left
        else:
            break
    if isinstance(node, c_ast.ID):
        if node.name in w.frame.units:
            return None
        decl = w._decl(node.name, node)[0]
        if decl is None or element_layout(w.frame.scope, decl.type)[0] != 1:
            return None
        return target_bytes(w, decl.type)
    if isinstance(node, c_ast.UnaryOp) and node.op == "&":
        t = expression_type(w, node.expr)
        if t is None or isinstance(w.frame.scope.resolve_typedef(t), c_ast.ArrayDecl):
            return None  # ``&m[i]`` of a 2-D m: its place counts m's doubles, not rows
        return pointee_bytes(w, node)
    if isinstance(node, c_ast.ArrayRef | c_ast.StructRef):
        return pointee_bytes(w, node)  # ``rows[r]``, ``g->data``: a row's elements
    return None


def in_units(w, ptr: c_ast.Node, off: poly.Poly | None) -> poly.Poly | None:
    """``off`` elements of the pointer expression ``ptr``'s own type, counted in the
    elements its place is counted in; None where that is not a whole number. Without a
    cast on the way the two are one."""
    if off is None or poly.constant_of(off) == 0 or not _cast_on_path(ptr):
        return off
    return _scaled(off, pointee_bytes(w, ptr), index_unit(w, ptr))


def stored_in(w, pv: PtrVal | None, rhs: c_ast.Node, t: c_ast.Node | None) -> PtrVal | None:
    """``pv``, the value of ``rhs``, as a pointer declared ``t`` counts it."""
    if pv is None or pv.base is None or not pv.base or pv.base[-1] is None:
        return pv
    last = pv.base[-1]
    outer = target_bytes(w, t)
    if poly.constant_of(last) == 0:
        return pv  # the start of an element is one in every unit
    if not _cast_on_path(rhs) and outer is not None and outer == pointee_bytes(w, rhs):
        return pv  # ``double *q = p + k``: counted as p counts it
    inner = index_unit(w, rhs)
    if inner is not None and inner == outer:
        return pv
    scaled = _scaled(last, inner, outer)
    if scaled is None:
        return PtrVal(pv.objects, None, pv.owner, pv.name)
    return PtrVal(pv.objects, [*pv.base[:-1], scaled], pv.owner, pv.name, pv.group)


def _cast_on_path(node: c_ast.Node) -> bool:
    """A cast between ``node`` and the pointer it starts from (past arithmetic)."""
    for _ in range(16):
        if isinstance(node, c_ast.Cast):
            return True
        if not (isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-")):
            return False
        node = node.left if not isinstance(node.right, c_ast.Cast) else node.right
    return True


def _scaled(p: poly.Poly, have: int | None, want: int | None) -> poly.Poly | None:
    """``p`` elements of ``have`` bytes as a count of elements of ``want`` bytes."""
    if have is None or want is None:
        return None
    if have == want:
        return p
    if all((c * have) % want == 0 for c in p.values()):
        return {m: c * have // want for m, c in p.items()}
    return None


def moved(pv: PtrVal | None, off: poly.Poly | None, sign: int) -> PtrVal:
    """``pv`` moved by ``off`` elements of its own unit (``p + k``, ``q -= k``)."""
    if pv is None:
        return PtrVal(None, None)
    if pv.base is None or off is None or pv.base[-1] is None:
        return PtrVal(pv.objects, None, pv.owner, pv.name)
    base = pv.base[:-1] + [poly.add(pv.base[-1], off, sign)]
    return PtrVal(pv.objects, base, pv.owner, pv.name, pv.group)
