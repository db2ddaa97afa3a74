"""Memory references of one iteration: which objects, at which symbolic index.

``touch`` turns an lvalue or rvalue the walker meets (``a[i][j]``, ``*p``,
``p->f``, ``w[k][j]`` through a pointer array, a scalar) into a ``Ref`` or a
step of the private scalars' data flow; ``pointer_value`` says what a pointer
expression points at. Both only over-approximate: an object set of None or an
index of None means "may be anything", which keeps a loop as written.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.names import names_in
from autotune.analysis.proof import poly
from autotune.analysis.proof.decls import access_type, derivations
from autotune.analysis.proof.facts import Ref
from autotune.analysis.proof.levels import whole_tree
from autotune.analysis.proof.library import ERRNO
from autotune.analysis.proof.lifetimes import (
    is_born,
    local_flow,
    own_object,
    pointer_store,
    scan_mark,
)
from autotune.analysis.proof.members import (
    expression_type,
    outer_member,
    scalar_member,
    struct_type,
)
from autotune.analysis.proof.movedmembers import moved_members
from autotune.analysis.proof.ownflow import (
    member_chain,
    member_key,
    private_flow,
    private_member_element,
)
from autotune.analysis.proof.refs import IterationWalker
from autotune.analysis.proof.syntax import assigned, chain, member_path
from autotune.analysis.proof.threadblocks import thread_block
from autotune.analysis.proof.walkstate import PtrVal
from autotune.analysis.symbols import Scope


def touch(
    w: IterationWalker,
    node: c_ast.Node,
    kind: str,
    at: c_ast.Node,
    op: str | None,
    member: tuple[str, str] | None = None,
) -> None:
    """Record what reading (``r``), writing (``w``) or updating (``u``) ``node`` does;
    ``member``: the (struct type, member) of the element it is part of (``p[i].fx``)."""
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if isinstance(node, c_ast.ID):
        _scalar(w, node, kind, op)
        return
    if isinstance(node, c_ast.StructRef) and node.type == ".":
        members = member_chain(node)
        if members is not None:
            _scalar(w, members[0], kind, op, fields=members[1])
            return
        inner = node.name
        while isinstance(inner, c_ast.Cast):
            inner = inner.expr
        touch(w, inner, kind, at, op, member or scalar_member(w, node))
        return
    if _is_errno(node):  # the calling thread's own errno, as a private scalar of its own
        private_flow(w, "errno", kind, op, _line(node))
        return
    if isinstance(node, c_ast.ArrayRef) and _reduction_element(w, node, kind, op):
        return
    if isinstance(node, c_ast.ArrayRef) and kind == "r" and _is_subarray(w, node):
        w._address_operands(node)  # a[i] of a 2-D a: an address, nothing is read
        return
    if isinstance(node, c_ast.ArrayRef) and private_member_element(w, node, kind):
        return
    if isinstance(node, c_ast.ArrayRef | c_ast.StructRef) or (
        isinstance(node, c_ast.UnaryOp) and node.op == "*"
    ):
        target = access_of(w, node)
        if target is None:
            return
        shape, rank = node, None
        if target[1] is None and isinstance(node, c_ast.ArrayRef):
            member = None
            whole = enclosing_element(w, node)  # ``p[i].x[c]``: within the element p[i]
            if whole is not None:
                target, shape, member = whole
                rank = len(target[1])
                target = _within_member(w, node, target)
        elif isinstance(node, c_ast.StructRef) and member is None:
            member = scalar_member(w, node)  # ``q->fx``: one member of the element *q
        if member is not None and shape is node and isinstance(node, c_ast.StructRef):
            if node.type == "->":  # counted in elements of *q, as ``p[i].fx`` is in p's
                shape = c_ast.UnaryOp("*", outer_member(node)[1], coord=node.coord)
        if target[1] is None or target[2] != "shared":
            member = None if shape is node else member  # a place not known: any member
        objects, index, owner, name, group = target
        start = w.last_start
        if owner == "local":
            pointer_store(w, node, objects, kind)
            if not own_object(w, objects):
                return
        if owner == "private" and objects and len(objects) == 1:
            (obj,) = objects
            if obj.startswith("priv:") and not index:
                # ``*p`` of p = &t stores all of t; ``p->f`` one member of it
                whole = not isinstance(node, c_ast.StructRef)
                private_flow(w, obj[5:], kind, op, _line(node), whole=whole)
                return
        inner, size, outer = declared_shape(w, shape, index)
        if w.last_element and shape is node:  # ``*seed`` of ``&q->seed``: q's element
            size = w.last_element
        ref = Ref(
            objects,
            index,
            kind,
            _line(node),
            NodeText(node),
            owner=owner,
            op=op,
            inner=inner,
            size=size,
            outer=outer,
            name=name,
            group=group,
            start=start,
        )
        ref.string = scan_mark(w, node) if kind == "r" and w.scans else None
        ref.member = member
        ref.element_rank = rank
        w.record(ref)
        if kind == "u" and name and w.sync is not None:
            w.note_floating_update(name, node, "an update of " + name, op)
        # a thread's own array: noted where it is judged to accumulate (``carried``)
        return
    # an rvalue that is not memory: walk its parts as reads
    w.generic_visit(node)


def declared_shape(w: IterationWalker, node: c_ast.Node, index: list | None) -> tuple:
    """(sizes of dimensions 1..n-1, bytes of the element touched, length of the first
    dimension) of ``a[i][j]...`` or ``*p`` on a named variable, from one walk of its
    declared type. The sizes only where the index is the subscripts themselves (not
    through a pointer into the array), the first length only of an array the function
    or the file declares (a parameter's is a pointer's); the element's bytes tell an
    ``unsigned char *`` view of a ``double`` array from the array."""
    if isinstance(node, c_ast.UnaryOp) and node.op == "*":
        root, subs = node.expr, [node.expr]
    elif isinstance(node, c_ast.ArrayRef):
        root, subs = chain(node)
    else:
        return [], None, None
    scope = w.frame.scope
    decl, kind, t = _root_type(w, root)
    if decl is None or t is None:
        return [], None, None
    levels = []  # the declared type, one array or pointer level per subscript
    t = scope.resolve_typedef(t)
    while isinstance(t, c_ast.ArrayDecl | c_ast.PtrDecl) and len(levels) < len(subs):
        levels.append(t)
        t = scope.resolve_typedef(t.type)
    if len(levels) < len(subs):
        return [], None, None
    size = scope.type_size(t)
    rows = isinstance(node, c_ast.ArrayRef) and index is not None and len(subs) == len(index)
    outer = None
    if rows and kind not in ("param", "member") and isinstance(levels[0], c_ast.ArrayDecl):
        length = _row_length(w, levels[0].dim, decl)
        outer = length if isinstance(length, int) else None
    if not rows or len(subs) < 2 or not all(isinstance(x, c_ast.ArrayDecl) for x in levels[1:]):
        return [], size, outer
    return [_row_length(w, x.dim, decl) for x in levels[1:]], size, outer


def _root_type(w: IterationWalker, root: c_ast.Node) -> tuple:
    """(declaration, kind, type) of what a subscript chain starts from: a variable, or a
    pointer member of one (``at->x``: the member's type, kind ``member``)."""
    if isinstance(root, c_ast.ID):
        decl, kind = w._decl(root.name, root)
        return decl, kind, decl.type if decl is not None else None
    path = member_path(root, nested=True) if isinstance(root, c_ast.StructRef) else None
    if path is None:
        return None, "", None
    decl, _kind = w._decl(path[1], root)
    t = access_type(w.frame.scope, root, decl.type) if decl is not None else None
    return decl, "member", t


def _row_length(w: IterationWalker, dim: c_ast.Node | None, decl: c_ast.Decl):
    """A declared row length: a constant, or for a variable-length array (``double
    a[n][n]`` as a parameter) the size as the walk knows it, a polynomial in the
    program's sizes, when the names it reads are never assigned in the function (C
    evaluates it where the array is declared); None when unknown. A length written with
    names is taken as the walk sees those names, as the loops' bounds are, not as the
    constant one call passes: ``k + 1`` for ``k < m`` leaves a row of ``m`` at any
    ``m``."""
    if dim is None:
        return None
    names = names_in(dim).names
    func = w.frame.func
    if names and not (func is not None and names & assigned(func.body)):
        value = w.value_quietly(dim)
        if value is not None and poly.is_affine(value):
            constant = poly.constant_of(value)
            return constant if constant is not None else value
    return w.frame.scope.dim(dim, decl)


def _is_subarray(w: IterationWalker, node: c_ast.ArrayRef) -> bool:
    """``a[i]`` whose type is still an array (it decays to a pointer, no load)."""
    root, subs = chain(node)
    derivs = derivs_of(w, root)
    return derivs is not None and len(subs) < len(derivs) and derivs[len(subs)] == "array"


def _scalar(
    w: IterationWalker, node: c_ast.ID, kind: str, op: str | None, fields: tuple[str, ...] = ()
) -> None:
    """A variable touched as a whole, or (``fields``: ``s.f.g``) through its members."""
    struct = bool(fields)
    name = node.name
    decl, dkind = w._decl(name, node)
    if is_born(w, decl):
        local_flow(w, decl, kind, _line(node), ".".join((name, *fields)))
        return
    key = w._key(name)
    if key in w.env and w.frame.top and w._class(name, node) == "local":
        return
    if decl is None:
        return  # an enum constant or a function name
    derivs = derivations(w.frame.scope, decl.type)
    if derivs and derivs[0] == "array" and not struct:
        return  # an array name used as a pointer value: no access by itself
    cls = w._class(name, node)
    line = _line(node)
    if cls == "private" and kind == "r" and derivs == ["ptr"] and not struct and w.frame.top:
        if name not in w.ctx.written and thread_block(w.ctx, name):
            return  # the thread's own block, set before the loop: used only to reach it
    if cls in ("local", "invariant"):
        if cls == "invariant":
            w.facts.invariant_reads.setdefault(name, line)
        return
    if cls in ("private", "reduction") and w.frame.top:
        key, part = member_key(w, node, fields) if fields else (name, None)
        reduction = cls == "reduction"
        private_flow(w, name, kind, op, line, reduction=reduction, key=key, part=part)
        return
    if cls == "private":  # a threadprivate global met inside a called function
        w.record(
            Ref(
                frozenset({f"priv:{name}"}), [], kind, line, name, owner="private", op=op, name=name
            )
        )
        return
    if kind == "r":
        w.facts.invariant_reads.setdefault(name, line)
    hidden = (
        dkind in ("param", "local")
        and "static" not in (decl.storage or [])
        and not w.ctx.prog.address_taken_var(name, node, w.frame.func, w.frame.ast)
    )
    key = frozenset({w.key_of(decl, dkind)})
    w.record(Ref(key, [], kind, line, name, op=op, name=name, hidden=hidden))
    if kind == "u" and w.sync is not None:
        w.note_floating_update(name, node, f"the {w.sync} update of {name}", op)


def _reduction_element(w: IterationWalker, node: c_ast.ArrayRef, kind: str, op: str | None) -> bool:
    """An element of an array the loop reduces (``reduction(+:hist[:B])``, OpenMP 4.5):
    each thread updates a private copy, started at the operator's identity and combined
    at the end, so an update by the reduction's operator is no dependence (any order of
    the iterations gives one result, floating-point sums to the last digits); any other
    read or write sees the thread's partial copy, which follows the schedule. False when
    ``node`` is no element of a reduction array."""
    root, subs = chain(node)
    if not (isinstance(root, c_ast.ID) and w.frame.top):
        return False
    if w._class(root.name, root) != "reduction":
        return False
    for s in subs:
        w._read_only(s)
    name = root.name
    if kind == "u" and op == w.ctx.reductions.get(root.name):
        return True  # a floating-point one reassociates: judge_scalars notes it
    what = "read" if kind == "r" else "set"
    w.facts.effect(
        f"reduction array {name} is {what} at {w.place(node)} other than by its reduction "
        "operator: each thread sees its own partial copy, which follows the schedule"
    )
    return True


def _is_errno(node: c_ast.Node) -> bool:
    """``errno`` as glibc's <errno.h> makes it, ``*__errno_location()``: each thread's
    own, so set and read within one iteration it is that iteration's (library calls that
    may set it on failure are judged by ``libcalls``; a read after the loop by
    ``threadstate.errno_read``)."""
    return (
        isinstance(node, c_ast.UnaryOp)
        and node.op == "*"
        and isinstance(node.expr, c_ast.FuncCall)
        and isinstance(node.expr.name, c_ast.ID)
        and node.expr.name.name == ERRNO
        and not (node.expr.args and node.expr.args.exprs)
    )


def access_of(w: IterationWalker, node: c_ast.Node):  # (objects, index, owner, name, group)
    """Objects and index of a memory access; loads on the way are recorded as reads.
    The place in its object of the pointer subscripted, where known, is left in
    ``w.last_start`` (the index less it is what the subscripts add)."""
    w.last_start = None
    w.last_element = None
    if isinstance(node, c_ast.UnaryOp):  # *p
        ptr = w.pointer(node.expr)
        w.last_element = ptr.element if ptr is not None else None
        w._read_only(node.expr) if not isinstance(node.expr, c_ast.ID) else None
        _through(w, node.expr)
        return _at(ptr, [])
    if isinstance(node, c_ast.StructRef):  # p->f: the struct p points at
        ptr = w.pointer(node.name)
        if not isinstance(node.name, c_ast.ID):
            w._address_operands(node.name)
        _through(w, node.name)
        _loaded_member(w, node.name)
        return _at(ptr, [])
    root, subs = chain(node)
    _through(w, root)
    _loaded_member(w, root)
    for s in subs:
        w._read_only(s)
    values = [w.value(s) for s in subs]
    derivs = derivs_of(w, root)
    ptr = w.pointer(root)
    if isinstance(root, c_ast.StructRef | c_ast.UnaryOp | c_ast.ArrayRef):
        w._address_operands(root) if isinstance(root, c_ast.StructRef) else None
    if ptr is None:
        return None
    index = None if ptr.base is None else list(ptr.base)
    objects, owner, name, group = ptr.objects, ptr.owner, ptr.name, ptr.group
    start = list(ptr.base) if ptr.base is not None else None
    for level, v in enumerate(values):
        if level == 0:
            if index is not None:
                known = v is not None and index[-1] is not None  # ``&x[p]`` with p unknown
                index[-1] = poly.add(index[-1], v) if known else None
            continue
        step = derivs[level] if derivs is not None and level < len(derivs) else None
        if step == "array":
            if index is not None:
                index.append(v)
        elif step == "ptr":  # the element is a pointer: load it, then index what it holds
            if owner != "local":
                w.record(Ref(objects, index, "r", _line(node), name, owner=owner, name=name))
            rows = w.ctx.pointsto.contents(objects, 0) if objects is not None else None
            fresh = objects is not None and w.ctx.pointsto.fresh_rows(objects)
            if fresh and index is not None and index and None not in index:
                # distinct rows (each a new allocation, in rows that are distinct
                # themselves: ``double ***u`` allocated level by level): the row's
                # numbers are dimensions
                index = [*index, v]
            else:
                index = None
            # a level of a grid of disjoint trees stays apart from its sibling levels
            # down to the data; any other group is the pointer's own target alone
            objects, owner, group = rows, "shared", group if whole_tree(group) else None
        else:
            index = None
    w.last_start = (
        start if all(step == "array" for step in (derivs or [])[1 : len(values)]) else None
    )
    return objects, index, owner, name, group


def _through(w: IterationWalker, node: c_ast.Node) -> None:
    """An access through a pointer variable set outside the iteration reads that pointer
    (or the struct holding it: ``s.p[i]``): a copy of a thread's own that points elsewhere
    on another thread (a master's) makes what the iteration touches depend on the thread
    (``carried.py`` checks the taint)."""
    direct = True
    while isinstance(node, c_ast.StructRef | c_ast.Cast):  # s.p[i], ps->rows[i]: s, ps
        direct = direct and isinstance(node, c_ast.Cast)
        node = node.name if isinstance(node, c_ast.StructRef) else node.expr
    if not isinstance(node, c_ast.ID) or w._key(node.name) in w.env:
        return
    decl, _ = w._decl(node.name, node)
    if decl is not None and derivations(w.frame.scope, decl.type)[:1] != ["array"]:
        w.facts.invariant_reads.setdefault(node.name, _line(node))
        # the pointer's value is read: an iteration (or a function it calls) that moves a
        # shared pointer (``if (i == n / 2) cur = spare``) changes what the others reach
        if direct and w._class(node.name, node) == "shared":
            _scalar(w, node, "r", None)


def _loaded_member(w: IterationWalker, node: c_ast.Node) -> None:
    """Reaching memory through a pointer member (``g.cells[i]``, ``h->cells[i]``,
    ``s.next->v``) loads the member: an iteration that stores another pointer there
    (``if (i == n / 2) g.cells = spare``) changes what the others reach."""
    while isinstance(node, c_ast.Cast):
        node = node.expr
    if not isinstance(node, c_ast.StructRef):
        return
    derivs = derivs_of(w, node)
    if not derivs or derivs[0] != "ptr":
        return
    moved = moved_members(w.ctx.prog, w.ctx.loop, Scope(w.ctx.func, w.ctx.ast))
    if moved is None or node.field.name in moved:
        touch(w, node, "r", node, None)


def _at(ptr: PtrVal | None, extra: list) -> tuple | None:
    if ptr is None:
        return None
    index = None if ptr.base is None else list(ptr.base) + extra
    return ptr.objects, index, ptr.owner, ptr.name, ptr.group


def enclosing_element(w: IterationWalker, node: c_ast.ArrayRef) -> tuple | None:
    """(access, node of its shape, (struct type, member)) of the struct element an array
    member's element lies in, where the member's own place is not known: ``p[i].x[c]``
    and ``q->f[k]`` (q at ``&p[i]``) touch element i of p, within its member x (or f),
    so iterations at distinct elements stay apart, and so do two members. Only shared
    elements (a thread's own struct keeps its members apart, for what each iteration
    sets before it reads)."""
    root, _subs = chain(node)
    if not isinstance(root, c_ast.StructRef) or not _array_member(w, root):
        return None
    top, base = outer_member(root)  # ``a`` of ``p[i].a.b[c]``, in ``p[i]``
    if top.type == ".":
        if not isinstance(base, c_ast.ArrayRef | c_ast.StructRef | c_ast.UnaryOp):
            return None  # ``s.x[c]`` of a struct variable: its offset is the member's
        got, shape = access_of(w, base), base
    else:
        got, shape = _at(w.pointer(base), []), c_ast.UnaryOp("*", base, coord=base.coord)
    if got is None or got[1] is None or got[2] != "shared":
        return None
    kind = struct_type(w, shape, top.field.name)
    return got, shape, (kind, top.field.name) if kind else None


def _within_member(w: IterationWalker, node: c_ast.ArrayRef, target: tuple) -> tuple:
    """The element's place, then the member array's own subscripts (``f->v[i]``: element
    0 of ``*f``, then ``i`` in its member ``v``; a flexible array member too): two
    iterations at distinct places of one element's member stay apart, as C keeps each
    subscript within its array. A subscript the walk cannot value is any place there."""
    objects, index, owner, name, group = target
    _root, subs = chain(node)
    places = []
    for sub in subs:
        value = w.value_quietly(sub)
        places.append(value if value is not None and poly.is_affine(value) else None)
    return objects, [*index, *places], owner, name, group


def _array_member(w: IterationWalker, member: c_ast.StructRef) -> bool:
    """``member`` (``p[i].x``, ``q->f``) is an array the struct holds, not a pointer."""
    t = expression_type(w, member)
    return t is not None and derivations(w.frame.scope, t)[:1] == ["array"]


def derivs_of(w: IterationWalker, root: c_ast.Node) -> list[str] | None:
    """How a reference's root is derived: a variable's declared type, or a member's
    (``s->p`` of ``double (*p)[3]``: a pointer to rows of 3, as a variable would be)."""
    if isinstance(root, c_ast.ID):
        decl, _ = w._decl(root.name, root)
        return derivations(w.frame.scope, decl.type) if decl is not None else None
    path = member_path(root, nested=True) if isinstance(root, c_ast.StructRef) else None
    if path is not None:
        decl, _ = w._decl(path[1], root)
        read = access_type(w.frame.scope, root, decl.type) if decl is not None else None
        return derivations(w.frame.scope, read) if read is not None else None
    if isinstance(root, c_ast.StructRef):  # ``level->boxes[b].vectors``: through elements
        read = expression_type(w, root)
        return derivations(w.frame.scope, read) if read is not None else None
    return None


def _line(node: c_ast.Node) -> int:
    return node.coord.line if node.coord else 0


class NodeText:
    """A node's C text, made only when a message prints it: most references never
    are, and generating text was a tenth of the proof's time on NPB BT."""

    __slots__ = ("node", "_text")

    def __init__(self, node: c_ast.Node) -> None:
        self.node = node
        self._text: str | None = None

    def __str__(self) -> str:
        if self._text is None:
            from pycparser import c_generator

            try:
                self._text = c_generator.CGenerator().visit(self.node)
            except Exception:  # a message only
                self._text = "?"
        return self._text

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))
