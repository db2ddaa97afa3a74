"""What a local scalar holds where a loop reads it, from the straight-line code before.

Wavefront and blocked codes compute a loop's bounds just before it, clamped by an
``if``::

    for (w = 3; w <= 3 * (n - 2); w++) {
        ihi = (w - 1) / 2;
        if (ihi > n - 2) ihi = n - 2;
        ...
        #pragma omp parallel for
        for (i = ilo; i <= ihi; i++)

``ihi`` is assigned twice in the function, so it is no program constant, yet where the
loop starts it is ``(w - 1) / 2 > n - 2 ? n - 2 : (w - 1) / 2``: an expression of the
enclosing loop's variable, which the trip count can use. The value is read backwards
from the reading statement through the statements of its block (and out through the
blocks around it), and trusted only when nothing between the assignment and the read
can change the variable or a name its value uses: no other write on the way, no loop
around the read that writes it, no pointer to the variable anywhere in the function
(a called function could write through it). Globals the value reads are taken as the
rest of the analysis takes them (``Scope.constant``).
"""

from __future__ import annotations

import copy

from pycparser import c_ast

from autotune.analysis.astutil import walk, written_names
from autotune.analysis.symbols import Scope


class ReachingValues:
    """Straight-line values of one function's local scalars (see the module's text)."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.parents = scope.info.parents
        self.addressed = {
            n.expr.name
            for n in walk(scope.func.body)
            if isinstance(n, c_ast.UnaryOp) and n.op == "&" and isinstance(n.expr, c_ast.ID)
        }
        # a goto may reach the read from a path that skips the assignment
        self.jumps = any(isinstance(n, c_ast.Goto) for n in walk(scope.func.body))

    def value(
        self, name: str, decl: c_ast.Decl | None, at: c_ast.Node
    ) -> tuple[c_ast.Node, c_ast.Node] | None:
        """(the expression ``name`` holds at ``at``, the node to read its names at)."""
        if (
            decl is None
            or self.jumps
            or not isinstance(decl.type, c_ast.TypeDecl)
            or not _plain_arithmetic(decl.type)
            or name in self.addressed
            or "static" in (decl.storage or [])
            or "volatile" in (decl.quals or []) + (decl.type.quals or [])
        ):
            return None  # a volatile may change between the assignment and the read
        found = self._scan(name, at)
        if found is None:
            return None
        expr, origin, between, crossed = found
        if _integer(decl.type):  # each assignment converts to the variable's type: truncates
            expr = c_ast.Cast(c_ast.Typename(None, [], None, decl.type), expr, expr.coord)
        if name in written_names(crossed):
            return None  # a loop around the read changes it between runs
        used = {n.name for n in walk(expr) if isinstance(n, c_ast.ID)}
        if used & (written_names(between) | written_names(crossed)):
            return None  # a name the value reads changes before the read
        find = self.scope.find_decl
        if any(find(u, at)[0] is not find(u, origin)[0] for u in used):
            return None  # a name means another variable where the value was set
        return expr, origin

    def _scan(self, name: str, at: c_ast.Node) -> tuple | None:
        """(value, where it was set, statements between, constructs around the read),
        walking backwards through each block and outwards through the ones around."""
        updates: list[tuple] = []
        between = c_ast.Compound([])
        crossed = c_ast.Compound([])
        node = at
        while True:
            parent = self.parents.get(id(node))
            if parent is None or isinstance(parent, STOPS):
                return None
            if isinstance(parent, c_ast.Compound):
                items = parent.block_items or []
                index = next((k for k, s in enumerate(items) if s is node), None)
                if index is None:
                    return None
                for stmt in reversed(items[:index]):
                    step = _step(stmt, name)
                    if step is None:
                        return None
                    between.block_items.append(stmt)
                    if isinstance(step, tuple) and not _reads(step, name):
                        step = c_ast.TernaryOp(*step, getattr(stmt, "coord", None))
                    if isinstance(step, tuple):
                        updates.append(step)
                    elif step != "skip":
                        return _fold(name, step, updates), stmt, between, crossed
            elif isinstance(parent, c_ast.If):
                if node is not parent.cond:
                    crossed.block_items.append(parent.cond)
            else:
                crossed.block_items.append(parent)  # a loop around the read, or its statement
            node = parent


STOPS = (c_ast.FuncDef, c_ast.Switch, c_ast.Case, c_ast.Default, c_ast.Label)


SIGNED = frozenset({"int", "long", "signed"})  # what every assignment can be read as, exactly
FLOATING = frozenset({"float", "double"})


def _type_names(t: c_ast.TypeDecl) -> set[str]:
    return set(t.type.names) if isinstance(t.type, c_ast.IdentifierType) else set()


def _plain_arithmetic(t: c_ast.TypeDecl) -> bool:
    """A signed integer of at least ``int``'s width, or a floating type: an unsigned or
    narrow one wraps where the expression would not (a typedef's width is not known)."""
    names = _type_names(t)
    return bool(names) and (names <= SIGNED or names <= FLOATING | {"long"})


def _integer(t: c_ast.TypeDecl) -> bool:
    return bool(_type_names(t)) and _type_names(t) <= SIGNED


def _step(stmt: c_ast.Node, name: str) -> object:
    """What a statement does to ``name``: its new value (a node over other names), an
    update ``(condition or None, value if run, value if not)`` over its old value,
    ``"skip"`` when it leaves it alone, or None when it changes it some other way."""
    if isinstance(stmt, c_ast.Pragma):
        return "skip"
    if isinstance(stmt, c_ast.Decl):
        if stmt.name != name:
            return None if name in written_names(stmt) else "skip"
        return stmt.init if stmt.init is not None and _pure(stmt.init) else None
    new = _assigned(stmt, name)
    if new is not None:
        reads_old = any(isinstance(n, c_ast.ID) and n.name == name for n in walk(new))
        return (None, new, None) if reads_old else new
    if isinstance(stmt, c_ast.If) and stmt.cond is not None and _pure(stmt.cond):
        yes = _assigned(_lone(stmt.iftrue), name)
        no = c_ast.ID(name) if stmt.iffalse is None else _assigned(_lone(stmt.iffalse), name)
        if yes is not None and no is not None:
            return (stmt.cond, yes, no)
    return None if name in written_names(stmt) else "skip"


def _reads(update: tuple, name: str) -> bool:
    """An update reads the old value (``if (x > c) x = c``), unlike ``if (p) x = a; else
    x = b``, which sets it whatever it was."""
    if update[0] is None:
        return True
    return any(isinstance(n, c_ast.ID) and n.name == name for e in update for n in walk(e))


def _lone(stmt: c_ast.Node | None) -> c_ast.Node | None:
    if isinstance(stmt, c_ast.Compound) and len(stmt.block_items or []) == 1:
        return stmt.block_items[0]
    return stmt


def _assigned(stmt: c_ast.Node | None, name: str) -> c_ast.Node | None:
    """The value ``name = e`` or ``name op= e`` gives it (over its old value), else None."""
    if not (
        isinstance(stmt, c_ast.Assignment)
        and isinstance(stmt.lvalue, c_ast.ID)
        and stmt.lvalue.name == name
        and _pure(stmt.rvalue)
    ):
        return None
    if stmt.op == "=":
        return stmt.rvalue
    if stmt.op in ("+=", "-=", "*=", "/=", "%=", "<<=", ">>="):
        return c_ast.BinaryOp(stmt.op[:-1], c_ast.ID(name), stmt.rvalue, stmt.coord)
    return None


def _pure(expr: c_ast.Node) -> bool:
    """No assignment, increment or call inside: reading it changes nothing."""
    return not written_names(expr) and not any(isinstance(n, c_ast.FuncCall) for n in walk(expr))


def _fold(name: str, value: c_ast.Node, updates: list[tuple]) -> c_ast.Node:
    """The value after the updates (found last first) applied in program order."""
    for cond, yes, no in reversed(updates):
        yes = _substitute(yes, name, value)
        if cond is None:
            value = yes
        else:
            cond, no = _substitute(cond, name, value), _substitute(no, name, value)
            value = c_ast.TernaryOp(cond, yes, no, getattr(cond, "coord", None))
    return value


def _substitute(expr: c_ast.Node, name: str, value: c_ast.Node) -> c_ast.Node:
    """``expr`` with every read of ``name`` replaced by ``value`` (a copy)."""
    if isinstance(expr, c_ast.ID) and expr.name == name:
        return value
    out = copy.copy(expr)
    for attr in getattr(out, "__slots__", ()):
        child = getattr(out, attr, None)
        if isinstance(child, c_ast.Node):
            setattr(out, attr, _substitute(child, name, value))
        elif isinstance(child, list):
            setattr(out, attr, [_substitute(c, name, value) for c in child])
    return out
