"""Members of struct elements: which member of which struct type an access lies in.

Two distinct members of one struct type never share a byte (in a struct; a union's
members all do, as do adjacent bit-fields, which are one memory location, and the
members of an anonymous union or struct inside it), so a store to one member of an
element and a read of another member of any element of that type cannot meet: the
forces a particle code writes to each particle's ``fx`` and the positions it reads from
every particle's ``x``. The walk tags references with ``(struct type, member)``.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.proof.decls import access_type


def outer_member(node: c_ast.StructRef) -> tuple[c_ast.StructRef, c_ast.Node]:
    """The member directly in the element (``a`` of ``p[i].a.b``) and what it is a member
    of (``p[i]``; for ``q->a``, the pointer ``q``), past casts."""
    top = node
    while isinstance(top.name, c_ast.StructRef) and top.type == ".":
        top = top.name
    base = top.name
    while isinstance(base, c_ast.Cast):
        base = base.expr
    return top, base


def scalar_member(w, node: c_ast.StructRef) -> tuple[str, str] | None:
    """(struct type, member) of ``p[i].fx``, ``p[i].pos.x`` (member ``pos``) or ``q->fx``:
    the member of the element the access lies in, so that a force written to each
    particle's ``fx`` and the positions read from every particle's ``x`` stay apart.
    None for a union (its members share bytes) or a type the walk cannot read."""
    top, base = outer_member(node)
    if top.type == ".":
        if not isinstance(base, c_ast.ArrayRef | c_ast.StructRef | c_ast.UnaryOp):
            return None  # ``s.x`` of a struct variable
        shape = base
    else:
        shape = c_ast.UnaryOp("*", base, coord=base.coord)
    kind = struct_type(w, shape, top.field.name)
    return (kind, top.field.name) if kind else None


def struct_type(w, element: c_ast.Node, field: str) -> str:
    """The C text of an element's struct type (``P``, ``struct cell``); '' if unknown,
    or if ``field`` may share bytes with another member: a bit-field (adjacent ones are
    one memory location), or a struct with an anonymous union or struct in it (its
    members are the struct's own names). ``element`` is ``p[i]``, or ``*q`` for a
    pointer to the element."""
    through = isinstance(element, c_ast.UnaryOp)
    t = expression_type(w, element.expr if through else element)
    if t is not None and through:
        t = w.frame.scope.resolve_typedef(t)
        t = t.type if isinstance(t, c_ast.PtrDecl | c_ast.ArrayDecl) else None
    if t is None:
        return ""
    named = t.type if isinstance(t, c_ast.TypeDecl) else None
    alias = " ".join(named.names) if isinstance(named, c_ast.IdentifierType) else ""
    t = w.frame.scope.resolve_typedef(t)
    while isinstance(t, c_ast.TypeDecl):
        t = t.type
    if not isinstance(t, c_ast.Struct):
        return ""
    members = t.decls or getattr(w.frame.scope.info.structs.get(t.name), "decls", None)
    if not members or any(d.name is None or d.bitsize is not None for d in members):
        return ""
    if field not in {d.name for d in members}:
        return ""
    return f"struct {t.name}" if t.name else alias  # ``typedef struct {...} P``: P


def root_variable(node: c_ast.Node) -> c_ast.ID | None:
    """The variable an element or member expression starts from (``p`` of ``p[i].x``,
    ``q`` of ``q->f[k]``); None past a cast or a call."""
    while isinstance(node, c_ast.ArrayRef | c_ast.StructRef):
        node = node.name
    return node if isinstance(node, c_ast.ID) else None


def expression_type(w, node: c_ast.Node) -> c_ast.Node | None:
    """The type of an element or member expression (``p[i].x``, ``q->seed``, ``p[i]``),
    from its root variable's declared type; None where the root is no variable (a cast
    on the way, ``((P *)buf)->x``, would be read in the variable's own type)."""
    var = root_variable(node)
    if var is None:
        return None
    decl, _ = w._decl(var.name, var)
    return access_type(w.frame.scope, node, decl.type) if decl is not None else None
