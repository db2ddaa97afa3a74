"""Stores an initializer list makes to struct members: ``struct view v = { a + 1, N }``
sets ``v.d`` as surely as ``v.d = a + 1`` does.

Points-to is field-based (every ``.d`` is one abstract location, fed by every store to a
member named ``d``), so a pointer member set only by an initializer would otherwise look
never set. Members are matched by position or designator (``.d = a + 1``), through
nested lists, arrays of structs and typedefs; a list that cannot be matched to a
struct's members is reported, so that pointer members are then taken as unknown.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.symbols import file_info


def init_stores(
    typ: c_ast.Node, init: c_ast.Node, ast: c_ast.FileAST
) -> tuple[list[tuple[str, c_ast.Node]], bool]:
    """(member name, value) for every member the list sets, and whether some part of it
    could not be matched (then every pointer member may hold what it stored)."""
    out: list[tuple[str, c_ast.Node]] = []
    opaque = _walk(typ, init, ast, out, 0)
    return out, opaque


def _walk(typ, init, ast, out: list, depth: int) -> bool:
    if not isinstance(init, c_ast.InitList) or depth > 16:
        return False
    typ = _resolved(typ, ast)
    if isinstance(typ, c_ast.ArrayDecl):
        opaque = False
        for e in init.exprs:
            value = e.expr if isinstance(e, c_ast.NamedInitializer) else e
            opaque |= _walk(typ.type, value, ast, out, depth + 1)
        return opaque
    members = _members(typ, ast)
    if members is None:
        return any(not isinstance(e, c_ast.Constant) for e in init.exprs)
    opaque = False
    k = 0
    for e in init.exprs:
        value = e
        if isinstance(e, c_ast.NamedInitializer):
            first = e.name[0] if e.name else None
            names = [m for m, _ in members]
            if not isinstance(first, c_ast.ID) or first.name not in names or len(e.name) > 1:
                opaque = True
                continue
            k = names.index(first.name)
            value = e.expr
        if k >= len(members):
            break
        name, mtype = members[k]
        if isinstance(value, c_ast.InitList):
            opaque |= _walk(mtype, value, ast, out, depth + 1)
        elif name:
            out.append((name, value))
        k += 1
    return opaque


def _resolved(typ, ast):
    """The type behind typedef names (``TypeDecl`` of an ``IdentifierType``)."""
    typedefs = file_info(ast).typedefs
    for _ in range(16):
        if isinstance(typ, c_ast.TypeDecl) and isinstance(typ.type, c_ast.IdentifierType):
            names = typ.type.names
            if len(names) == 1 and names[0] in typedefs:
                typ = typedefs[names[0]]
                continue
        return typ
    return typ


def _members(typ, ast) -> list[tuple[str | None, c_ast.Node]] | None:
    """A struct's members in order (None: not a struct, or one never defined here)."""
    inner = typ.type if isinstance(typ, c_ast.TypeDecl) else None
    if not isinstance(inner, c_ast.Struct):
        return None
    decls = inner.decls
    if decls is None and inner.name:
        decls = getattr(file_info(ast).structs.get(inner.name), "decls", None)
    if decls is None:
        return None
    return [(d.name, d.type) for d in decls]


def top_level_members(
    typ: c_ast.Node, init: c_ast.Node, ast: c_ast.FileAST
) -> list[tuple[str, c_ast.Node]] | None:
    """(member, value) of the list's own level, by position or a one-name designator
    (None: not a struct's list, or one that cannot be matched)."""
    members = _members(_resolved(typ, ast), ast)
    if members is None or not isinstance(init, c_ast.InitList):
        return None
    names = [m for m, _ in members]
    out: list[tuple[str, c_ast.Node]] = []
    k = 0
    for e in init.exprs:
        value = e
        if isinstance(e, c_ast.NamedInitializer):
            first = e.name[0] if e.name else None
            if len(e.name) != 1 or not isinstance(first, c_ast.ID) or first.name not in names:
                return None
            k, value = names.index(first.name), e.expr
        if k >= len(members):
            return None
        if members[k][0]:
            out.append((members[k][0], value))
        k += 1
    return out
