"""The iteration's own variables: a value read before the iteration sets it.

A variable declared in the loop body without an initializer starts each iteration with
no value C defines. In practice it holds what the thread's previous iteration left in
that register or stack slot (``int id, weight; sscanf(rec, "%d %d", &id, &weight)``
with a record lacking its second field; ``double last; if (c) last = x; use(last)``),
so another schedule or team prints another result. The same definite-assignment walk
as for private variables (``ownflow.private_flow``) decides it, keyed by the
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
from autotune.analysis.names import call_name, names_in
from autotune.analysis.proof import poly
from autotune.analysis.proof.coverage import covered, string_covered
from autotune.analysis.proof.decls import derivations
from autotune.analysis.proof.library import STRING_READS

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
    members is set, member by member (on no path at all, everything is)."""
    if w.defined is None or any(key == d or key.startswith(d + ".") for d in w.defined):
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
        bad = next((r for r in refs if r.kind != "w" and not _seen(r, refs, writes, texts)), None)
        if bad is None:
            continue
        what = name or bad.name or "a block"
        made = "declared" if how == "declared" else f"made by {how}"
        out.add(
            f"{what}, {made} at line {line} without a value, may be read at line {bad.line} "
            "before the iteration has written it: it holds what the thread's previous "
            "iteration left there, which follows the schedule"
        )


def _seen(r: Ref, refs: list[Ref], writes: list[Ref], texts: dict) -> bool:
    """What ``r`` reads was written earlier in the iteration: element by element, or
    (a C string) up to the terminator a string write put there."""
    return covered(r, writes, texts) or string_covered(r, refs, writes)


def string_mark(w, pv) -> tuple[str, tuple[str, ...]] | None:
    """Where a C string starts (the pointer's place in its object) and the loops the
    call is in: what ``coverage.string_covered`` matches a read to a write by."""
    if pv is None or pv.base is None or None in pv.base:
        return None
    return ",".join(poly.text(b) for b in pv.base), tuple(b.sym for b in w.domain)


def string_scan(w, node: c_ast.For) -> tuple[str, str, tuple[str, tuple[str, ...]]] | None:
    """``for (c = 0; s[c]; c++)`` (or ``s[c] != '\\0'``, ``c < strlen(s)``, each maybe
    with more tests): a loop that reads ``s`` up to its terminator and no further, its
    body storing nothing into ``s``. (counter, string, where the string starts)."""
    counter = _counter_from_zero(node)
    if counter is None or node.cond is None:
        return None
    found = [n for n in (_scanned(t, counter) for t in _conjuncts(node.cond)) if n is not None]
    if not found or len({n.name for n in found}) != 1:
        return None
    name = found[0].name
    if _stores_into(node.stmt, name):
        return None
    mark = string_mark(w, w.pointer(found[0]))
    return (counter, name, mark) if mark is not None else None


def scan_mark(w, node: c_ast.Node) -> tuple[str, tuple[str, ...]] | None:
    """``s[c]`` inside a scan of ``s`` by ``c`` (``string_scan``): a string read."""
    if not (
        isinstance(node, c_ast.ArrayRef)
        and isinstance(node.name, c_ast.ID)
        and isinstance(node.subscript, c_ast.ID)
    ):
        return None
    for counter, name, mark in reversed(w.scans):
        if node.name.name == name and node.subscript.name == counter:
            return mark
    return None


def _counter_from_zero(node: c_ast.For) -> str | None:
    init, nxt = node.init, node.next
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1:
        d = init.decls[0]
        name, start = d.name, d.init
    elif isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
        if init.op != "=":
            return None
        name, start = init.lvalue.name, init.rvalue
    else:
        return None
    if not (isinstance(start, c_ast.Constant) and start.value in ("0", "0u", "0U")):
        return None
    steps = isinstance(nxt, c_ast.UnaryOp) and nxt.op in ("p++", "++")
    steps = steps or (
        isinstance(nxt, c_ast.Assignment)
        and nxt.op == "+="
        and isinstance(nxt.rvalue, c_ast.Constant)
        and nxt.rvalue.value == "1"
    )
    target = nxt.expr if isinstance(nxt, c_ast.UnaryOp) else getattr(nxt, "lvalue", None)
    if not steps or not (isinstance(target, c_ast.ID) and target.name == name):
        return None
    return name


def _conjuncts(cond: c_ast.Node) -> list[c_ast.Node]:
    if isinstance(cond, c_ast.BinaryOp) and cond.op == "&&":
        return _conjuncts(cond.left) + _conjuncts(cond.right)
    return [cond]


def _scanned(test: c_ast.Node, counter: str) -> c_ast.ID | None:
    """The string ``test`` stops at the end of: ``s[c]``, ``s[c] != 0``, ``c < strlen(s)``."""
    if isinstance(test, c_ast.BinaryOp) and test.op == "!=":
        for a, b in ((test.left, test.right), (test.right, test.left)):
            if isinstance(b, c_ast.Constant) and b.value in ("0", "'\\0'"):
                return _scanned(a, counter)
        return None
    if isinstance(test, c_ast.BinaryOp) and test.op == "<":
        left, right = test.left, test.right
        while isinstance(left, c_ast.Cast):
            left = left.expr
        if not (isinstance(left, c_ast.ID) and left.name == counter):
            return None
        if isinstance(right, c_ast.FuncCall) and call_name(right) == "strlen" and right.args:
            arg = right.args.exprs[0]
            return arg if isinstance(arg, c_ast.ID) else None
        return None
    if (
        isinstance(test, c_ast.ArrayRef)
        and isinstance(test.name, c_ast.ID)
        and isinstance(test.subscript, c_ast.ID)
        and test.subscript.name == counter
    ):
        return test.name
    return None


def _stores_into(body: c_ast.Node | None, name: str) -> bool:
    """The body may store into ``name``'s string: an assignment or step through it, or a
    call it is passed to (other than one that only reads strings)."""
    stack = [body] if body is not None else []
    while stack:
        n = stack.pop()
        target = None
        if isinstance(n, c_ast.Assignment):
            target = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            target = n.expr
        elif isinstance(n, c_ast.FuncCall) and call_name(n) not in STRING_READS:
            args = n.args.exprs if n.args is not None else []
            if any(name in names_in(a).names for a in args):
                return True
        while isinstance(target, c_ast.ArrayRef | c_ast.StructRef | c_ast.Cast):
            target = target.name if not isinstance(target, c_ast.Cast) else target.expr
        if isinstance(target, c_ast.UnaryOp) and target.op == "*":
            return True  # through a pointer that may reach it
        if isinstance(target, c_ast.ID) and target.name == name:
            return True
        stack.extend(c for _, c in n.children())
    return False


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
