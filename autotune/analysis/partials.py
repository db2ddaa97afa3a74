"""A thread's integer partial added into shared data under ``critical``: the same total
for every thread count.

``long mine = 0;`` in the region, ``mine += a[i]`` in its worksharing loop, then
``#pragma omp critical`` ``total += mine;``: every thread adds its share, and a thread
that ran no iteration adds its partial's starting value. When that value is the
operator's identity (0 for a sum, 1 for a product, all ones for ``&``) and the partial is
an integer that nothing else in the region writes, the total is the sum of all the
iterations' terms whatever the team: the critical section, run once per thread, does not
make the thread count matter. (Which iterations each thread ran, the schedule's part, is
the proof's ``combining`` rule.) Floating-point partials are left out: another team
regroups their sum, and the last digits change.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.names import integral_type
from autotune.analysis.symbols import Scope

# the combining assignment -> the updates the partial may take, and the identity
_IDENTITY = {"+=": ({"+=", "-=", "++", "--", "p++", "p--"}, 0), "*=": ({"*="}, 1)}
_IDENTITY |= {"|=": ({"|="}, 0), "^=": ({"^="}, 0), "&=": ({"&="}, -1)}


def combines_identity_partial(
    stmt: c_ast.Node, decls: dict[str, c_ast.Decl], region: c_ast.Node | None, scope: Scope | None
) -> bool:
    """``stmt`` (the body of a critical or atomic construct) is one ``target op= p`` of
    an integer partial ``p`` declared in ``region`` (``decls``) with the identity of
    ``op`` as its value, which the region otherwise only updates with ``op``."""
    if region is None or scope is None:
        return False
    while isinstance(stmt, c_ast.Compound) and len(stmt.block_items or []) == 1:
        stmt = stmt.block_items[0]
    if not isinstance(stmt, c_ast.Assignment) or stmt.op not in _IDENTITY:
        return False
    if (
        not isinstance(stmt.rvalue, c_ast.ID)
        or isinstance(stmt.lvalue, c_ast.ID)
        and (stmt.lvalue.name == stmt.rvalue.name)
    ):
        return False
    name = stmt.rvalue.name
    decl = decls.get(name)
    updates, identity = _IDENTITY[stmt.op]
    if decl is None or not integral_type(scope, decl.type) or _value(decl.init) != identity:
        return False
    return _only_updated(region, name, updates)


def _only_updated(region: c_ast.Node, name: str, updates: set[str]) -> bool:
    """Every store to ``name`` in ``region`` is one of ``updates``, and its address is
    never taken (a call could store through it)."""
    for n in walk(region):
        if isinstance(n, c_ast.Assignment) and _is(n.lvalue, name) and n.op not in updates:
            return False
        if isinstance(n, c_ast.UnaryOp) and _is(n.expr, name):
            if n.op == "&" or (n.op in ("++", "--", "p++", "p--") and n.op not in updates):
                return False
    return True


def _value(init: c_ast.Node | None) -> int | None:
    """An integer literal's value (``0``, ``1L``, ``-1``, ``~0``); None otherwise."""
    if isinstance(init, c_ast.UnaryOp) and init.op in ("-", "~"):
        inner = _value(init.expr)
        return None if inner is None else (-inner if init.op == "-" else ~inner)
    if isinstance(init, c_ast.Constant):
        try:
            return int(init.value.rstrip("uUlL"), 0)
        except ValueError:
            return None
    return None


def _is(node: c_ast.Node, name: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == name
