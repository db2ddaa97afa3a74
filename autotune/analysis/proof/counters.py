"""Counters a loop only moves up: their value anywhere in it is at least the one it
entered with.

A neighbour list is filled as ``if (cnt < maxneighs) neighs[cnt++] = j;`` from
``cnt = 0``: the write lands in ``[0, maxneighs)`` of its row only because ``cnt`` never
falls below where it started, and the test is of the very value the subscript reads.
The walk reads an unknown local once per stretch without a write to it (``resolve``
keeps the symbol, so the test's bound applies to the subscript); this module says which
of the names a loop writes are counters (every write to them an increment by a constant
of at least 0: ``cnt++``, ``++cnt``, ``cnt += 3``, never their address taken) in an
integer type that does not wrap (signed: overflow is undefined; or 64 bits wide), so
the symbol can carry the floor it entered with."""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.proof import poly

_WIDE_UNSIGNED = {"size_t", "uint64_t", "uintptr_t", "ptrdiff_t", "ssize_t", "int64_t"}


def increments_only(name: str, parts: list[c_ast.Node | None]) -> bool:
    """Every write to ``name`` in ``parts`` adds a constant of at least 0 to it, and no
    part takes its address or declares another variable of that name."""
    for part in parts:
        for n in walk(part) if part is not None else []:
            if isinstance(n, c_ast.Decl) and n.name == name:
                return False
            if isinstance(n, c_ast.UnaryOp) and _names(n.expr, name):
                if n.op in ("--", "p--", "&"):
                    return False
            if isinstance(n, c_ast.Assignment) and _names(n.lvalue, name):
                if n.op != "+=":
                    return False
                step = poly.constant_of(poly.literal(n.rvalue) or {(): -1})
                if step is None or step < 0:
                    return False
    return True


def _names(node: c_ast.Node, name: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == name


def does_not_wrap(decl: c_ast.Decl | None) -> bool:
    """An integer type whose increments from a floor never come back below it in any run
    that is defined: signed (overflow is undefined), or unsigned 64 bits wide."""
    t = decl.type if decl is not None else None
    if not isinstance(t, c_ast.TypeDecl) or not isinstance(t.type, c_ast.IdentifierType):
        return False
    names = t.type.names
    if any(x in ("float", "double", "_Bool", "char") for x in names):
        return False
    if len(names) == 1 and names[0] in _WIDE_UNSIGNED:
        return True
    if "unsigned" in names:
        return names.count("long") >= 1
    return any(x in ("int", "long", "short", "signed") for x in names)


def lockstep_steps(node: c_ast.For, counter: str) -> dict[str, int]:
    """Variables the loop's step moves with its counter by a constant, and nothing else
    in the loop writes (CoMD's ``for (ii = 0; ii < n; ii++, iOff++)``): by name, the
    constant. Such a variable equals its entry value plus that constant times the
    counter's trips so far, wherever the body runs."""
    if not isinstance(node.next, c_ast.ExprList):
        return {}
    out: dict[str, int] = {}
    for e in node.next.exprs:
        name, step = _constant_step(e)
        if name is None or name == counter or name in out:
            continue
        out[name] = step
    parts = [node.stmt, node.cond, *node.next.exprs]
    for name in list(out):
        if _writes(name, parts) != 1:  # the step's own write, and no other (nor &name)
            del out[name]
    return out


def body_steps(node: c_ast.For) -> dict[str, int]:
    """Variables the body moves by a constant at one of its own statements, which every
    trip runs to (``*buf++ = 2 * *src++;``, ``double v = *src++;``, ``p += 3;``),
    nothing else in the loop writing them or taking their address, and no ``continue`` or
    ``goto`` that could skip the step: by name, the constant. At the start of trip ``t``
    such a variable is its entry value plus ``t`` steps."""
    body = node.stmt
    items = (body.block_items or []) if isinstance(body, c_ast.Compound) else [body]
    if _skips(body):
        return {}
    out: dict[str, int] = {}
    for st in items:
        for name, step in _statement_steps(st):
            out.setdefault(name, step)
    parts = [node.stmt, node.cond, node.next]
    return {n: k for n, k in out.items() if _writes(n, parts) == 1}


def _statement_steps(st: c_ast.Node) -> list[tuple[str, int]]:
    """The steps a statement always makes: itself (``p += 3``), or ``++``/``--`` of a
    variable anywhere in it but under a test (``?:``, ``&&``, ``||``) or in ``sizeof``."""
    name, step = _constant_step(st)
    if name is not None:
        return [(name, step)]
    if not isinstance(st, c_ast.Assignment | c_ast.Decl | c_ast.FuncCall | c_ast.UnaryOp):
        return []
    out = []
    stack = [st]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.TernaryOp) or (
            isinstance(n, c_ast.BinaryOp) and n.op in ("&&", "||")
        ):
            continue
        if isinstance(n, c_ast.UnaryOp) and n.op in ("sizeof", "_Alignof"):
            continue  # not evaluated
        name, step = _constant_step(n) if isinstance(n, c_ast.UnaryOp) else (None, 0)
        if name is not None:
            out.append((name, step))
        stack.extend(c for _, c in n.children())
    return out


def _skips(body: c_ast.Node) -> bool:
    """A ``continue`` of this loop, or a ``goto`` or label, in ``body``."""
    stack = [body]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Continue | c_ast.Goto | c_ast.Label):
            return True
        if isinstance(n, c_ast.For | c_ast.While | c_ast.DoWhile) and n is not body:
            stack.extend(c for c in (n.stmt,) if c is not None and _gotos(c))
            continue
        stack.extend(c for _, c in n.children())
    return False


def _gotos(node: c_ast.Node) -> bool:
    return any(isinstance(n, c_ast.Goto | c_ast.Label) for n in walk(node))


def _writes(name: str, parts: list[c_ast.Node | None]) -> int:
    """How many places in ``parts`` write ``name``, take its address or declare it."""
    count = 0
    for part in parts:
        for n in walk(part) if part is not None else []:
            if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
                count += _names(n.expr, name)
            elif isinstance(n, c_ast.Assignment):
                count += _names(n.lvalue, name)
            elif isinstance(n, c_ast.Decl):
                count += n.name == name
    return count


def _constant_step(e: c_ast.Node) -> tuple[str | None, int]:
    if isinstance(e, c_ast.UnaryOp) and isinstance(e.expr, c_ast.ID):
        if e.op in ("++", "p++"):
            return e.expr.name, 1
        if e.op in ("--", "p--"):
            return e.expr.name, -1
    if isinstance(e, c_ast.Assignment) and isinstance(e.lvalue, c_ast.ID):
        v = poly.literal(e.rvalue) if e.op in ("+=", "-=") else None
        k = poly.constant_of(v) if v is not None else None
        if k is not None:
            return e.lvalue.name, k if e.op == "+=" else -k
    return None, 0
