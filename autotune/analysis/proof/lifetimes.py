"""The iteration's own variables: a value read before the iteration sets it.

A variable declared in the loop body without an initializer starts each iteration with
no value C defines. In practice it holds what the thread's previous iteration left in
that register or stack slot (``int id, weight; sscanf(rec, "%d %d", &id, &weight)``
with a record lacking its second field; ``double last; if (c) last = x; use(last)``),
so another schedule or team prints another result. The same definite-assignment walk
as for private variables (``access._private_flow``) decides it, keyed by the
declaration, so a shadowing name or another function's variable is another variable.

Each ``w`` is the walker (``refs.IterationWalker``, which imports this module).
A variable counts only from a declaration the walk itself met (``born``), in the loop
body or in a function it calls (each call a new lifetime): the loop's own counters,
declared in headers the walk binds, are set by the loop. A declaration
with an initializer (``= {0}`` included: C zeroes the rest) sets all of it. A store
through a pointer to the variable sets what the pointer reaches: ``*p`` all of it,
``p->f`` member ``f``; a store the walk cannot place (``p[k]``, a pointer moved into
it) is taken to set all of it (the cautious side would keep every loop that fills a
local struct through a helper that indexes it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pycparser import c_ast

from autotune.analysis.layout import struct_member_type
from autotune.analysis.proof.coverage import covered
from autotune.analysis.proof.decls import derivations

if TYPE_CHECKING:
    from autotune.analysis.proof.facts import IterationFacts, Proof, Ref


def born(w, decl: c_ast.Decl) -> None:
    """A declaration in the iteration: a new lifetime of its variable (a scalar, struct
    or union; an array is judged by its elements, ``unset_objects``). With an initializer
    all of it is set; without, none of what an earlier pass of an enclosing loop set
    counts any more."""
    if not decl.name or "static" in (decl.storage or []):
        return
    if (derivations(w.frame.scope, decl.type) or [""])[0] == "array":
        if decl.init is None and "extern" not in (decl.storage or []):
            made = (decl.name, _line(decl), "declared", w.cond_depth)
            w.facts.unset_objects[f"local:{id(decl)}"] = made
        return
    w.born[id(decl)] = decl
    prefix = f"{id(decl)}:"
    if w.defined is not None:
        w.defined = {d for d in w.defined if not d.startswith(prefix)}
        if decl.init is not None:
            w.defined.add(prefix + decl.name)


def is_born(w, decl: c_ast.Decl | None) -> bool:
    return decl is not None and id(decl) in w.born


def local_flow(w, decl: c_ast.Decl, kind: str, line: int, path: str, element: bool = False) -> None:
    """One touch of an iteration's own variable (``path``: ``x``, or ``s.f.g`` for a
    member; ``element``: of an element of that member, an array). A store sets ``path``
    (an element's store sets the member: the cautious side would keep every loop that
    fills a member array element by element); a read or update of what no store before
    it on every path has set is a stale read."""
    key = f"{id(decl)}:{path}"
    if kind == "w":
        if w.defined is not None:
            w.defined.add(key)
        return
    if w.defined is None or _set(w, decl, key, path):
        return
    if kind == "r" and not element and path != decl.name and _is_array(w, decl, path):
        return  # ``r.name`` of a char array member: its address, nothing is read
    w.facts.stale_locals.setdefault(decl.name, (line, _line(decl), path))


def _set(w, decl: c_ast.Decl, key: str, path: str) -> bool:
    """``key`` is set: it, or what holds it, was stored; or (a struct) each of its
    members is set, member by member."""
    assert w.defined is not None
    if any(key == d or key.startswith(d + ".") for d in w.defined):
        return True
    members = _members(w, decl, path)
    return bool(members) and all(_set(w, decl, key + "." + m, path + "." + m) for m in members)


def _type_at(w, decl: c_ast.Decl, path: str) -> c_ast.Node | None:
    scope = w.frame.scope
    t: c_ast.Node | None = decl.type
    for field in path.split(".")[1:]:
        t = struct_member_type(scope, t, field) if t is not None else None
    return scope.resolve_typedef(t) if t is not None else None


def _is_array(w, decl: c_ast.Decl, path: str) -> bool:
    return isinstance(_type_at(w, decl, path), c_ast.ArrayDecl)


def _members(w, decl: c_ast.Decl, path: str) -> list[str]:
    """The members of the struct at ``path`` (none for a union, whose members share
    bytes, or a type the walk cannot see)."""
    scope = w.frame.scope
    t = _type_at(w, decl, path)
    if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.Struct)):
        return []
    decls = t.type.decls or getattr(scope.info.structs.get(t.type.name), "decls", None)
    return [d.name for d in decls or [] if d.name]


def pointer_store(w, node: c_ast.Node, objects, kind: str) -> None:
    """A store through a pointer into the iteration's own variable (``p = &x`` here or
    in a helper it calls): ``*p`` sets it, ``p->f.g`` that member; one the walk cannot
    place sets it all (see the module's note). A read through one is not judged."""
    if kind == "r" or not objects or len(objects) != 1:
        return
    (obj,) = objects
    if not obj.startswith("local:"):
        return
    decl = w.born.get(int(obj[6:])) if obj[6:].isdigit() else None
    if decl is None:
        return
    fields: list[str] = []
    while isinstance(node, c_ast.StructRef) and node.type == ".":
        fields.append(node.field.name)
        node = node.name
    if isinstance(node, c_ast.StructRef) and node.type == "->":
        fields.append(node.field.name)
    path = ".".join([decl.name, *reversed(fields)])
    key = f"{id(decl)}:{path}"
    if w.defined is not None and kind == "w":
        w.defined.add(key)


def argument_store(w, arg: c_ast.Node) -> None:
    """A library call stores through ``arg`` (``memset(&s, 0, sizeof s)``,
    ``strcpy(rec.name, src)``, ``memcpy(&s.f, ...)``): what it points at in the
    iteration's own variable is set, all of it (a count short of it is not told)."""
    while isinstance(arg, c_ast.Cast):
        arg = arg.expr
    if isinstance(arg, c_ast.UnaryOp) and arg.op == "&":
        arg = arg.expr
    fields: list[str] = []
    while isinstance(arg, c_ast.StructRef) and arg.type == ".":
        fields.append(arg.field.name)
        arg = arg.name
    if not isinstance(arg, c_ast.ID):
        return
    decl, _ = w._decl(arg.name, arg)
    if is_born(w, decl) and w.defined is not None:
        w.defined.add(f"{id(decl)}:" + ".".join([arg.name, *reversed(fields)]))


def unset_block(w, call: c_ast.FuncCall, name: str, made_by: str) -> None:
    """A block an allocator made in the iteration, its bytes as it found them (not
    ``calloc``'s zeros): after ``free`` it is often the block the thread's previous
    iteration freed, values and all."""
    obj = f"local:{id(call)}"
    if obj not in w.facts.unset_objects:
        w.facts.unset_objects[obj] = (name, _line(call), f"{made_by}()", w.cond_depth)


def name_block(facts: IterationFacts, pv, name: str) -> None:
    """A new block stored in ``name`` is known by it in messages."""
    if pv.objects and len(pv.objects) == 1:
        obj = next(iter(pv.objects))
        made = facts.unset_objects.get(obj)
        if made is not None and not made[0]:
            facts.unset_objects[obj] = (name, *made[1:])


def own_object(w, objects) -> bool:
    """The one object touched is one of the iteration's own made with no value."""
    return bool(objects) and len(objects) == 1 and next(iter(objects)) in w.facts.unset_objects


def judge_own_objects(facts: IterationFacts, out: Proof) -> None:
    """Each element read of an iteration's own array or block made with no value was
    written earlier in the same iteration (``coverage``, as for a private array) by a
    write sure once the object exists: under no branch that its making is not under
    (inside the object's scope, such a write runs on every path from there on)."""
    by_obj: dict[str, list[Ref]] = {}
    for r in facts.own_refs:
        if r.objects is not None and len(r.objects) == 1:
            by_obj.setdefault(next(iter(r.objects)), []).append(r)
    texts: dict = {}
    for obj, refs in by_obj.items():
        if obj not in facts.unset_objects:
            continue
        name, line, how, depth = facts.unset_objects[obj]
        writes = [r for r in refs if r.kind == "w" and (r.must or r.depth <= depth)]
        bad = next((r for r in refs if r.kind != "w" and not covered(r, writes, texts)), None)
        if bad is None:
            continue
        what = name or bad.name or "a block"
        made = "declared" if how == "declared" else f"made by {how}"
        out.add(
            f"{what}, {made} at line {line} without a value, may be read at line {bad.line} "
            "before the iteration has written it: it holds what the thread's previous "
            "iteration left there, which follows the schedule"
        )


def judge_stale_locals(facts: IterationFacts, out: Proof) -> None:
    for name, (line, declared, path) in facts.stale_locals.items():
        what = name if path == name else f"{name} ({path})"
        out.add(
            f"{what}, declared at line {declared} without a value, is read at line {line} "
            "before every path of the iteration has set it: it holds what the thread's "
            "previous iteration left there, which follows the schedule"
        )


def _line(node: c_ast.Node) -> int:
    return node.coord.line if node.coord is not None else 0
