"""Library copies as the loops they are: ``memcpy``, ``memmove`` and ``memset``.

``memset(&c[i * m], 0, m * sizeof(double))`` writes ``m`` elements of ``c``: counted
as one opaque call it would add nothing to the loop's data footprint, which the model
reads. Where the byte count is a whole number of the destination's elements (a count
times ``sizeof`` of that element, or ``sizeof`` of a row) and both pointers start at a
named array, the call is walked as the element loop it performs
(``for (k = 0; k < m; k++) c[i * m + k] = 0;``); anything else stays one call.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.names import call_name
from autotune.analysis.symbols import Scope

BYTE_COPIES = frozenset({"memcpy", "memmove", "memset"})
COPY_VAR = "__autotune_copy_k"


def sizeof_bytes(scope: Scope, node: c_ast.Node) -> int | None:
    """Bytes of ``sizeof node``: a type, a declared name, or what it points at or
    holds (``sizeof *grid``, ``sizeof a[0]``, ``sizeof a[i]`` of a row)."""
    if isinstance(node, c_ast.Typename):
        return scope.type_size(node.type)
    depth = 0
    while isinstance(node, c_ast.ArrayRef) or (isinstance(node, c_ast.UnaryOp) and node.op == "*"):
        node = node.name if isinstance(node, c_ast.ArrayRef) else node.expr
        depth += 1
    if not isinstance(node, c_ast.ID):
        return None
    decl, _ = scope.find_decl(node.name, node)
    t = decl.type if decl is not None else None
    for _ in range(depth):
        t = scope.resolve_typedef(t)
        if not isinstance(t, c_ast.PtrDecl | c_ast.ArrayDecl):
            return None
        t = t.type
    return scope.type_size(t) if t is not None else None


def element_layout(scope: Scope, t: c_ast.Node | None) -> tuple[int, int | None]:
    """(pointer and array levels of the declared type ``t``, bytes of the element at the
    bottom): ``double a[N][M]`` is (2, 8), ``struct cell *c`` (1, its size)."""
    depth = 0
    for _ in range(16):
        t = scope.resolve_typedef(t) if t is not None else None
        if not isinstance(t, c_ast.PtrDecl | c_ast.ArrayDecl):
            break
        depth, t = depth + 1, t.type
    return depth, (scope.type_size(t) if t is not None else None)


def copy_loop(call: c_ast.FuncCall, scope: Scope) -> c_ast.For | None:
    """The element loop a byte copy performs, or None when it cannot be told. Built
    once per call and entered in the unit's parent map under the call, so that names
    in it resolve where the call stands."""
    cache = scope.info.copy_loops
    if id(call) not in cache:
        loop = _loop(call, scope)
        if loop is not None:
            _adopt(loop, call, scope.info.parents)
        cache[id(call)] = loop
    return cache[id(call)]


def _adopt(node: c_ast.Node, parent: c_ast.Node, parents: dict[int, c_ast.Node]) -> None:
    """Parents for the new nodes only: the call's own arguments keep theirs."""
    if id(node) in parents:
        return
    parents[id(node)] = parent
    for _, child in node.children():
        _adopt(child, node, parents)


def _loop(call: c_ast.FuncCall, scope: Scope) -> c_ast.For | None:
    name = call_name(call)
    args = call.args.exprs if call.args is not None else []
    if name not in BYTE_COPIES or len(args) != 3:
        return None
    dst = _element(args[0], scope)
    if dst is None:
        return None
    target, size = dst
    count = _count(args[2], size, scope)
    if count is None:
        return None
    if name == "memset":
        value: c_ast.Node = c_ast.Constant("int", "0", call.coord)
    else:
        src = _element(args[1], scope)
        if src is None or src[1] != size:
            return None
        value = src[0]
    k = c_ast.ID(COPY_VAR, call.coord)
    init = c_ast.Decl(
        COPY_VAR,
        [],
        [],
        [],
        [],
        c_ast.TypeDecl(COPY_VAR, [], None, c_ast.IdentifierType(["long"])),
        c_ast.Constant("int", "0", call.coord),
        None,
        call.coord,
    )
    return c_ast.For(
        c_ast.DeclList([init], call.coord),
        c_ast.BinaryOp("<", k, count, call.coord),
        c_ast.UnaryOp("p++", k, call.coord),
        c_ast.Assignment("=", target, value, call.coord),
        call.coord,
    )


def _element(arg: c_ast.Node, scope: Scope) -> tuple[c_ast.Node, int] | None:
    """``p[offset + k]`` for a pointer argument (``c``, ``c + e``, ``&c[e]``, a row
    ``a[i]`` of a 2-D array), with the element's size; None through a cast."""
    offset: c_ast.Node | None = None
    node = arg
    while isinstance(node, c_ast.BinaryOp) and node.op == "+":
        offset = node.right if offset is None else c_ast.BinaryOp("+", node.right, offset)
        node = node.left
    if isinstance(node, c_ast.UnaryOp) and node.op == "&" and isinstance(node.expr, c_ast.ArrayRef):
        inner = node.expr.subscript
        offset = inner if offset is None else c_ast.BinaryOp("+", inner, offset)
        node = node.expr.name
    root = node
    while isinstance(root, c_ast.ArrayRef):
        root = root.name
    if not isinstance(root, c_ast.ID):
        return None
    decl, _ = scope.find_decl(root.name, root)
    if decl is None:
        return None
    depth, size = element_layout(scope, decl.type)
    subs = 0
    probe = node
    while isinstance(probe, c_ast.ArrayRef):
        subs, probe = subs + 1, probe.name
    if depth != subs + 1:  # the argument must point at elements, not rows
        return None
    if not size:
        return None
    k = c_ast.ID(COPY_VAR, arg.coord)
    index = k if offset is None else c_ast.BinaryOp("+", offset, k)
    return c_ast.ArrayRef(node, index, arg.coord), size


def _count(nbytes: c_ast.Node, size: int, scope: Scope) -> c_ast.Node | None:
    """``n * sizeof(T)`` or ``sizeof x`` as a number of ``size``-byte elements."""
    if isinstance(nbytes, c_ast.UnaryOp) and nbytes.op == "sizeof":
        total = sizeof_bytes(scope, nbytes.expr)
        if total and total % size == 0:
            return c_ast.Constant("int", str(total // size), nbytes.coord)
        return None
    if isinstance(nbytes, c_ast.BinaryOp) and nbytes.op == "*":
        for count, unit in ((nbytes.left, nbytes.right), (nbytes.right, nbytes.left)):
            if isinstance(unit, c_ast.UnaryOp) and unit.op == "sizeof":
                if sizeof_bytes(scope, unit.expr) == size:
                    return count
    return None
