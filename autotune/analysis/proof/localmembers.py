"""Pointer members of a struct the iteration declares: where each one points.

A code that bundles a pointer with its length (``struct cursor cu = {&a[i], 1};
cu.at[0] += b[i]``, ``cu.at = &row[4 * i]``) stores the iteration's own place in a
member of its own struct. The walk follows such a member as it follows a pointer
variable of the iteration: the value last stored (by an assignment or an initializer
list) is where it points. Only a struct (no union: its members share bytes) declared
in the iteration (or a called function's struct parameter, the call's own copy of the
caller's span) whose address is never taken, through one member of it: nothing else
can store there. A store the walk cannot follow (``cu.at++``, a step from a place not
known, a whole struct assigned,
a path it did not take) forgets the member, which is then what the points-to says."""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.proof.castunits import moved, stored_in
from autotune.analysis.proof.decls import derivations
from autotune.analysis.proof.initlists import top_level_members
from autotune.analysis.proof.lifetimes import is_born
from autotune.analysis.proof.walkstate import PtrVal

Slot = tuple[int, str]


def member_slot(w, node: c_ast.Node) -> Slot | None:
    """The walk's key of ``s.f`` for a pointer member ``f`` of a struct ``s`` the
    iteration declares (None: not such a member)."""
    if not isinstance(node, c_ast.StructRef) or node.type != ".":
        return None
    var = node.name
    if not isinstance(var, c_ast.ID):
        return None
    decl, kind = w._decl(var.name, var)
    return _slot(w, decl, var, node.field.name, kind == "param" and not w.frame.top)


def _slot(
    w, decl: c_ast.Decl | None, at: c_ast.Node, field: str, copy: bool = False
) -> Slot | None:
    """``copy``: ``decl`` is a called function's struct parameter, the call's own copy."""
    if decl is None or not (copy or is_born(w, decl)):
        return None
    if w.ctx.prog.address_taken_var(decl.name, at, w.frame.func, w.frame.ast):
        return None
    member = _member_type(w, decl, field)
    if member is None or derivations(w.frame.scope, member)[:1] != ["ptr"]:
        return None
    return (len(w.frames) - 1, f"{decl.name}.{field}")


def assign_member(w, lvalue: c_ast.Node, rvalue: c_ast.Node, op: str) -> None:
    """``s.f = p`` (``s.f += k``: moved from where it stood)."""
    slot = member_slot(w, lvalue)
    if slot is None:
        return
    decl, _kind = w._decl(lvalue.name.name, lvalue.name)
    val = None
    if op == "=":
        val = stored_in(w, w.pointer(rvalue), rvalue, _member_type(w, decl, lvalue.field.name))
    elif op in ("+=", "-=") and slot in w.env_ptr:  # ``s.data += 1``: moved along
        val = moved(w.env_ptr[slot], w.value(rvalue), 1 if op == "+=" else -1)
    _set(w, slot, val)


def init_members(w, decl: c_ast.Decl) -> None:
    """``struct cursor cu = {&a[i], 1}``: the pointer members the list sets."""
    if not isinstance(decl.init, c_ast.InitList) or not decl.name:
        return
    forget_members(w, decl.name)
    for name, value in top_level_members(decl.type, decl.init, w.frame.ast) or []:
        slot = _slot(w, decl, decl, name)
        if slot is not None and not isinstance(value, c_ast.InitList):
            member = _member_type(w, decl, name)
            _set(w, slot, stored_in(w, w.pointer(value), value, member))


def bind_members(w, caller_arg: c_ast.Node, param: str, level: int) -> None:
    """A span passed by value (``scale(s, 2.0)``): the callee's copy ``param`` holds
    what the caller's members held."""
    if not isinstance(caller_arg, c_ast.ID):
        return
    prefix = caller_arg.name + "."
    for (lvl, path), val in list(w.env_ptr.items()):
        if lvl == level - 1 and path.startswith(prefix):
            w.env_ptr[(level, param + "." + path[len(prefix) :])] = val


def forget_members(w, name: str) -> None:
    """The struct ``name`` stored as a whole (or its members moved out of sight)."""
    level = len(w.frames) - 1
    for key in [k for k in w.env_ptr if k[0] == level and k[1].startswith(name + ".")]:
        del w.env_ptr[key]


def _set(w, slot: Slot, val: PtrVal | None) -> None:
    if val is None or val.base is None:
        w.env_ptr.pop(slot, None)
    else:
        w.env_ptr[slot] = val


def _member_type(w, decl: c_ast.Decl, field: str) -> c_ast.Node | None:
    """The declared type of member ``field`` of the struct ``decl`` is (None: not a
    struct, a union, or a member reached through an anonymous union or struct)."""
    scope = w.frame.scope
    t = scope.resolve_typedef(decl.type)
    if not isinstance(t, c_ast.TypeDecl) or not isinstance(t.type, c_ast.Struct):
        return None
    decls = t.type.decls
    if decls is None and t.type.name:
        decls = getattr(scope.info.structs.get(t.type.name), "decls", None)
    for d in decls or []:
        if d.name is None:
            return None  # an anonymous member: its fields share the struct's names
    for d in decls or []:
        if d.name == field:
            return d.type
    return None
