"""The data flow of a thread's own variables in one iteration, member by member.

Definite assignment decides whether a read of a private scalar (or reduction copy)
sees a value the iteration set, or what the thread's earlier iterations left. A struct
or union is followed by its members (``s.f.g``): a store sets that member, a read needs
it or what holds it set, and the bytes a union's members share are one part. The
walker (``refs.IterationWalker``) calls this through ``access.touch``.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.layout import struct_member_type
from autotune.analysis.proof.lifetimes import is_born, local_flow
from autotune.analysis.proof.refs import IterationWalker
from autotune.analysis.proof.syntax import chain


def member_chain(node: c_ast.Node) -> tuple[c_ast.ID, tuple[str, ...]] | None:
    """``s.f.g``, members reached through ``.`` alone: (the variable ``s``, its fields
    ``f, g``), a part of the variable itself; None through a subscript or a ``->``."""
    fields: list[str] = []
    while isinstance(node, c_ast.StructRef) and node.type == ".":
        fields.append(node.field.name)
        node = node.name
        while isinstance(node, c_ast.Cast):
            node = node.expr
    if not fields or not isinstance(node, c_ast.ID):
        return None
    return node, tuple(reversed(fields))


def member_key(w: IterationWalker, var: c_ast.ID, fields: tuple[str, ...]) -> tuple[str, str]:
    """The member ``var.f.g`` for its data flow: (its path ``s.f.g``, which a store to it
    sets and a read of it finds set; the part of ``var`` whose bytes it shares with other
    members, where a read and a store may meet). That part is the path itself within
    structs, and what holds the first union (whose members share bytes) or member of a
    type not known on the way."""
    scope = w.frame.scope
    decl, _ = w._decl(var.name, var)
    t = decl.type if decl is not None else None
    path, shared = var.name, None
    for f in fields:
        whole = scope.resolve_typedef(t) if t is not None else None
        if shared is None and not (
            isinstance(whole, c_ast.TypeDecl) and isinstance(whole.type, c_ast.Struct)
        ):
            shared = path
        t = struct_member_type(scope, t, f) if t is not None else None
        path += "." + f
    return path, shared if shared is not None else path


def member_array_dims(w: IterationWalker, var: c_ast.ID, fields: tuple[str, ...]) -> int:
    """How many subscripts ``var.f.g`` takes inside the struct: the array dimensions of
    the member's declared type (``double rows[4][4]``: 2; a pointer member, whose
    subscripts reach the memory it points at: 0)."""
    scope = w.frame.scope
    decl, _ = w._decl(var.name, var)
    t = decl.type if decl is not None else None
    for f in fields:
        t = struct_member_type(scope, t, f) if t is not None else None
    dims = 0
    t = scope.resolve_typedef(t) if t is not None else None
    while isinstance(t, c_ast.ArrayDecl):
        dims += 1
        t = scope.resolve_typedef(t.type)
    return dims


def private_member_element(w: IterationWalker, node: c_ast.ArrayRef, kind: str) -> bool:
    """An element of an array member of a thread's own struct or union (``u.v[k]``,
    ``s.rows[i].x`` of a private ``s``): a part of that one variable, so it joins the
    variable's data flow. A read sees what this iteration stored to the member or to
    what holds it, or else what the thread's earlier iterations left; a store to one
    element sets no whole member. False where ``node`` is no such element."""
    root, subs = chain(node)
    members = member_chain(root) if isinstance(root, c_ast.StructRef) else None
    if members is None or not w.frame.top:
        return False
    var = members[0]
    if len(subs) > member_array_dims(w, var, members[1]):
        return False  # ``v.data[i]`` of a pointer member: the memory it points at
    decl, _ = w._decl(var.name, var)
    if is_born(w, decl):  # of the iteration's own struct: a store sets the member (lifetimes)
        for s in subs:
            w._read_only(s)
        local_flow(w, decl, kind, _line(node), ".".join((var.name, *members[1])), element=True)
        return True
    if w._class(var.name, var) not in ("private", "reduction"):
        return False
    for s in subs:
        w._read_only(s)
    key, part = member_key(w, var, members[1])
    if kind != "w":
        private_flow(w, var.name, "r", None, _line(node), key=key, part=part)
    if kind != "r":
        private_flow(w, var.name, "w", None, _line(node), key=key, part=part, whole=False)
    return True


def private_flow(
    w: IterationWalker,
    name: str,
    kind: str,
    op: str | None,
    line: int,
    reduction: bool = False,
    key: str | None = None,
    part: str | None = None,
    whole: bool = True,
) -> None:
    """Definite assignment of a thread's own scalar (or reduction copy) in one iteration:
    a write sets it; a read or update of a value not set yet in this iteration sees what
    the thread's earlier iterations left (an update is an accumulation, a read is not).
    A member (``key``: ``u.c.re``, ``part``: the bytes it shares, ``member_key``): a store
    sets that member and what it holds, and a read not covered by one is judged against
    the parts the loop stores (``carried``). ``whole=False``: a store to a part of
    ``key`` (one element of a member array), which sets nothing."""
    f = w.facts
    key = key or name
    if kind != "r":
        f.stored_parts.setdefault(name, set()).add(part or key)
    if kind == "w":
        f.plain.setdefault(name, line)
        if w.defined is not None and whole:
            w.defined.add(key)
        return
    if w.defined is None or any(key == d or key.startswith(d + ".") for d in w.defined):
        return
    if kind == "r" and part is not None:
        f.exposed_parts.setdefault(name, []).append((key, part, line))
        return
    if kind == "u" and (not reduction or op == w.ctx.reductions.get(name)):
        f.updates.setdefault(name, set()).add(op or "")
        return
    f.exposed.setdefault(name, line)


def _line(node: c_ast.Node) -> int:
    return node.coord.line if node.coord is not None else 0
