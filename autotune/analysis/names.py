"""Names in pycparser expressions: what is read, what is written, of which type.

Shared by the legality gate's rules (``legality``, ``critical``, ``privates``,
``region_rules``).
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import lvalues
from autotune.analysis.symbols import Scope

FLOAT_TYPES = frozenset({"float", "double", "_Float16", "_Float32", "_Float64", "__float128"})


def floating_type(scope: Scope, t: c_ast.Node | None) -> bool:
    """``t`` itself is a floating-point type (``double``, ``typedef float FLOAT``), not a
    pointer to or an array of one."""
    if isinstance(t, c_ast.Typename | c_ast.Decl):
        t = t.type
    t = scope.resolve_typedef(t) if t is not None else None
    return (
        isinstance(t, c_ast.TypeDecl)
        and isinstance(t.type, c_ast.IdentifierType)
        and bool(set(t.type.names) & FLOAT_TYPES)
    )


def is_floating(scope: Scope, name: str, at: c_ast.Node) -> bool:
    """Whether ``name`` (as seen from ``at``) is a floating-point scalar or array."""
    decl, _ = scope.find_decl(name, at)
    t = decl.type if decl is not None else None
    for _ in range(8):
        if isinstance(t, c_ast.TypeDecl | c_ast.ArrayDecl | c_ast.PtrDecl):
            t = t.type
        elif isinstance(t, c_ast.IdentifierType):
            names = set(t.names)
            if names & FLOAT_TYPES:
                return True
            alias = scope.info.typedefs.get(t.names[-1]) if len(t.names) == 1 else None
            if alias is None:
                return False
            t = getattr(alias, "type", None)
        else:
            return False
    return False


def atomic_object(scope: Scope, node: c_ast.Node) -> bool:
    """The object ``node`` names (``x``, ``hist[b]``, ``*p``) is ``_Atomic`` (also through
    a typedef: ``atomic_long``): C11 makes a compound assignment or an increment of it one
    atomic read-modify-write (``x = x + 1`` stays a load and a store)."""
    depth = 0
    while isinstance(node, c_ast.ArrayRef) or (isinstance(node, c_ast.UnaryOp) and node.op == "*"):
        node, depth = (node.name if isinstance(node, c_ast.ArrayRef) else node.expr), depth + 1
    if not isinstance(node, c_ast.ID):
        return False
    decl, _ = scope.find_decl(node.name, node)
    t = decl.type if isinstance(decl, c_ast.Decl) else None
    for _ in range(depth):
        t = scope.resolve_typedef(t) if t is not None else None
        if not isinstance(t, c_ast.ArrayDecl | c_ast.PtrDecl):
            return False
        t = t.type
    for _ in range(50):
        if isinstance(t, c_ast.PtrDecl):
            return "_Atomic" in (t.quals or [])
        if not isinstance(t, c_ast.TypeDecl):
            return False
        if "_Atomic" in (t.quals or []):
            return True
        alias = scope.resolve_typedef(t)
        if alias is t:
            return False
        t = alias
    return False


def is_integral(scope: Scope, name: str, at: c_ast.Node) -> bool:
    """An integer scalar (its sums are exact in any order); structs and floating types
    are not."""
    decl, _ = scope.find_decl(name, at)
    if decl is None or is_floating(scope, name, at):
        return False
    return integral_type(scope, decl.type)


def integral_type(scope: Scope, t: c_ast.Node | None) -> bool:
    """``t`` is an integer type, typedefs followed (not a float, a struct, a pointer)."""
    t = scope.resolve_typedef(t) if t is not None else None
    while isinstance(t, c_ast.TypeDecl):
        if isinstance(t.type, c_ast.IdentifierType) and set(t.type.names) & FLOAT_TYPES:
            return False
        inner = t.type
        if isinstance(inner, c_ast.IdentifierType):
            alias = scope.info.typedefs.get(inner.names[-1]) if len(inner.names) == 1 else None
            if alias is None:
                return True
            t = alias
            continue
        return False
    return False


def call_name(node: c_ast.FuncCall) -> str | None:
    return node.name.name if isinstance(node.name, c_ast.ID) else None


def written_root(lv: c_ast.Node) -> str | None:
    """``a[i][j]``, ``s.x``, ``*p`` -> the variable written (``a``, ``s``, ``p``)."""
    while True:
        if isinstance(lv, c_ast.ID):
            return lv.name
        if isinstance(lv, c_ast.ArrayRef):
            lv = lv.name
        elif isinstance(lv, c_ast.StructRef):
            lv = lv.name
        elif isinstance(lv, c_ast.UnaryOp) and lv.op == "*":
            lv = lv.expr
        elif isinstance(lv, c_ast.Cast):
            lv = lv.expr
        else:
            return None


POINTER_CALL = "(function pointer)"  # how a call through a pointer is listed in ``calls``


class NameReads(c_ast.NodeVisitor):
    """Every identifier an expression mentions, and whether it calls anything."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.calls: list[str] = []

    def visit_ID(self, node: c_ast.ID) -> None:
        self.names.add(node.name)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        self.calls.append(call_name(node) or POINTER_CALL)
        if node.args is not None:
            self.visit(node.args)

    def visit_StructRef(self, node: c_ast.StructRef) -> None:
        self.visit(node.name)  # the field name is not a variable


def names_in(node: c_ast.Node | None) -> NameReads:
    reads = NameReads()
    if node is not None:
        reads.visit(node)
    return reads


def assigned_names(s: c_ast.Node) -> set[str]:
    """Root names of everything ``s`` assigns."""
    return {n for n in map(written_root, lvalues(s)) if n}
