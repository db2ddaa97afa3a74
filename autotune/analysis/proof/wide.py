"""Accesses through a pointer whose element is not the array's: a vector of lanes.

``_mm256_storeu_pd(&y[i], v)`` is ``*(__m256d_u *)p = v`` with ``p = &y[i]``: one store
of 32 bytes, the four doubles ``y[i] .. y[i + 3]``. Read as one element, a loop storing
four lanes at every second index would look independent, and its variants print
another result. So a dereference through a cast to a wider element is the run of
elements it covers, as a byte copy's is (``libcalls.pointee``: a lane loop the
dependence test sees); one whose width the proof cannot line up with the elements
(a vector pointer handed in through a parameter, a narrower or uneven view, a cast
to a vector of an unknown element) may touch any element of what it points into.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.copies import element_layout
from autotune.analysis.proof import poly
from autotune.analysis.proof.access import NodeText, access_of
from autotune.analysis.proof.access import touch as touch_element
from autotune.analysis.proof.facts import Ref
from autotune.analysis.proof.libcalls import pointee, record_run, root_variable
from autotune.analysis.proof.refs import IterationWalker
from autotune.frontend.preprocess import is_system_file


def touch(w: IterationWalker, node: c_ast.Node, kind: str, at: c_ast.Node, op: str | None) -> None:
    """``access.touch``, with wide accesses made the elements they cover."""
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if isinstance(node, c_ast.ArrayRef) and _vector_value(w, node.name):
        # a lane of a vector value (``((__v2df) a)[1]``): the variable, not memory; a
        # lane written leaves the others as they were, so it reads the value too
        w._read_only(node.subscript)
        for k in ("r", "w") if kind in ("w", "u") else (kind,):
            touch(w, node.name, k, at, None)  # casts stripped above
        return
    wide = _width(w, node)
    if wide is None:
        touch_element(w, node, kind, at, op)
        return
    inner, nbytes = wide
    kinds = ("r", "w") if kind == "u" else (kind,)
    if isinstance(node, c_ast.UnaryOp) and inner is node.expr:  # a vector pointer itself
        if _lanes_of_param(w, node, inner, nbytes, kinds):
            return
        inner = None  # its elements cannot be lined up: any element
    if inner is not None:
        if not isinstance(inner, c_ast.ID):
            w._read_only(inner)
        for k in kinds:
            pointee(w, node, _text(w, node), inner, poly.const(nbytes), k)
        return
    target = access_of(w, node)
    if target is None or target[2] == "local":
        return
    objects, _, owner, name, group = target
    line = node.coord.line if node.coord else 0
    for k in kinds:
        w.record(Ref(objects, None, k, line, _text(w, node), owner=owner, name=name, group=group))


def _text(w: IterationWalker, node: c_ast.Node) -> str:
    """The access as messages name it: in a system header's function (an intrinsic
    such as ``_mm256_storeu_pd``), with that function's name."""
    text = str(NodeText(node))
    where = str(node.coord.file) if node.coord else ""
    if is_system_file(where) and w.frame.func is not None:
        return f"{w.frame.func.decl.name}(): {text}"
    return text


def argument_unit(w: IterationWalker, arg: c_ast.Node) -> int | None:
    """The bytes of the element a pointer argument's index counts, as the caller sees
    it: the array its expression starts from, whatever it is cast to on the way
    (``(__m128i *)&q[i]``: the ``int`` of ``q``); None when unknown or ``void``."""
    while isinstance(arg, c_ast.Cast):
        arg = arg.expr
    if isinstance(arg, c_ast.ID) and arg.name in w.frame.ptrs:
        return w.frame.units.get(arg.name)
    decl = _declared(w, root_variable(arg))
    if decl is None or _void_element(w, decl.type):
        return None
    return element_layout(w.frame.scope, decl.type)[1]


def _lanes_of_param(
    w: IterationWalker, node: c_ast.Node, ptr: c_ast.Node, nbytes: int, kinds: tuple
) -> bool:
    """A vector pointer parameter bound to a flat array of known elements: the lanes
    from where it points (``_mm_storeu_si128(p, v)`` with ``p = (__m128i *)&q[i]``: four
    ints). False when that cannot be told."""
    if not isinstance(ptr, c_ast.ID):
        return False
    unit = w.frame.units.get(ptr.name)
    pv = w.frame.ptrs.get(ptr.name)
    if not unit or nbytes % unit or pv is None or pv.base is None or len(pv.base) != 1:
        return False
    if pv.base[0] is None or pv.owner == "local":
        return pv.owner == "local"
    line = node.coord.line if node.coord else 0
    for k in kinds:
        record_run(w, pv, poly.const(nbytes // unit), k, line, _text(w, node))
    return True


def _width(w: IterationWalker, node: c_ast.Node) -> tuple[c_ast.Node | None, int] | None:
    """(the pointer into the array, the bytes touched) of a wide access; (None, bytes)
    when they cannot be lined up with the array's elements; None for an access of
    one element."""
    if isinstance(node, c_ast.UnaryOp) and node.op == "*":
        ptr = node.expr
    elif isinstance(node, c_ast.ArrayRef):
        ptr = node.name
        while isinstance(ptr, c_ast.ArrayRef):
            ptr = ptr.name
        if not isinstance(ptr, c_ast.Cast):
            return None
        found = _cast(w, ptr)
        return None if found is None else (None, found[1])  # ((T *)p)[k]: k counts Ts
    else:
        return None
    if isinstance(ptr, c_ast.Cast):
        return _cast(w, ptr)
    scope = w.frame.scope
    decl = _declared(w, ptr)
    t = scope.resolve_typedef(decl.type) if decl is not None else None
    if isinstance(t, c_ast.PtrDecl):
        size = scope.vector_size(t.type)
        if size is not None:  # handed in by a caller who may have cast it
            return ptr, size
    return None


def _cast(w: IterationWalker, cast: c_ast.Cast) -> tuple[c_ast.Node | None, int] | None:
    scope = w.frame.scope
    to = cast.to_type.type if isinstance(cast.to_type, c_ast.Typename) else None
    if not isinstance(to, c_ast.PtrDecl):
        return None
    width = scope.type_size(to.type)
    vector = scope.vector_size(to.type) is not None
    decl = _declared(w, root_variable(cast.expr))
    if decl is not None and _void_element(w, decl.type):
        return None  # a void pointer given its type back (a comparator's argument)
    _, element = element_layout(scope, decl.type) if decl is not None else (0, None)
    if width is None or element is None:
        return (None, width or 0) if vector else None
    if width == element:
        return None
    return (cast.expr, width) if width % element == 0 else (None, width)


def _vector_value(w: IterationWalker, node: c_ast.Node) -> bool:
    """``node`` is a value of a vector type (a variable declared with one, or a cast to
    one), which a subscript picks a lane of."""
    scope = w.frame.scope
    if isinstance(node, c_ast.Cast):
        to = node.to_type.type if isinstance(node.to_type, c_ast.Typename) else None
        return to is not None and scope.vector_size(to) is not None
    decl = _declared(w, node)
    return decl is not None and scope.vector_size(decl.type) is not None


def _void_element(w: IterationWalker, t: c_ast.Node | None) -> bool:
    """``void *p`` (or ``const void **``): what it points into has no element of its own."""
    scope = w.frame.scope
    for _ in range(16):
        t = scope.resolve_typedef(t) if t is not None else None
        if not isinstance(t, c_ast.PtrDecl | c_ast.ArrayDecl):
            break
        t = t.type
    return (
        isinstance(t, c_ast.TypeDecl)
        and isinstance(t.type, c_ast.IdentifierType)
        and "void" in t.type.names
    )


def _declared(w: IterationWalker, node: c_ast.Node | None) -> c_ast.Decl | None:
    if not isinstance(node, c_ast.ID):
        return None
    decl, _ = w._decl(node.name, node)
    return decl
