"""A thread's integer partial added into shared data under ``critical``: the same total
for every thread count.

``long mine = 0;`` in the region, ``mine += a[i]`` in its worksharing loop, then
``#pragma omp critical`` ``total += mine;``: every thread adds its share, and a thread
that ran no iteration adds its partial's starting value. When that value is the
operator's identity (0 for a sum, 1 for a product, all ones for ``&``) and the partial is
an integer that nothing else in the region writes, the total is the sum of all the
iterations' terms whatever the team: the critical section, run once per thread, does not
make the thread count matter. (Which iterations each thread ran, the schedule's part, is
the proof's ``combining`` rule.) A floating-point sum or product is taken as a
``reduction`` clause on it is: another team regroups it, and the last digits may change,
which the ``combining`` rule says as a reassociation.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.names import floating_type, integral_type
from autotune.analysis.proof.updates import (
    guarded_selection,
    if_update,
    select_update,
    update_form,
)
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
    if isinstance(stmt, c_ast.Compound) and stmt.block_items:  # several merges in one
        return all(combines_identity_partial(s, decls, region, scope) for s in stmt.block_items)
    extreme = _extreme_merge(stmt)
    if extreme is not None:
        return _extreme_partial(extreme, decls, region)
    pick = select_update(stmt)
    if pick is not None:
        return _select_partial(pick, decls, region)
    if isinstance(stmt, c_ast.For):
        return _array_partial(stmt, decls, region, scope)
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
    if decl is None:
        return False
    if floating_type(scope, decl.type) and stmt.op in ("+=", "*="):
        return _float_value(decl.init) == identity and _only_updated(region, name, updates)
    if not integral_type(scope, decl.type) or _value(decl.init) != identity:
        return False
    return _only_updated(region, name, updates)


def _array_partial(
    loop: c_ast.For, decls: dict[str, c_ast.Decl], region: c_ast.Node, scope: Scope
) -> bool:
    """``for (b = 0; b < K; b++) hist[b] += mine[b];`` of an integer array (or block) of
    partials declared in the region with zeros in every element (``= {0}``, ``calloc``),
    which the region otherwise only updates element by element with the same operator
    (``mine[bin]++``): every thread adds its counts, an idle one its zeros, so the total
    is the same for any team. The bounds must read nothing the region sets."""
    body = loop.stmt
    while isinstance(body, c_ast.Compound) and len(body.block_items or []) == 1:
        body = body.block_items[0]
    counter = _counter_of(loop)
    if counter is None or not isinstance(body, c_ast.Assignment) or body.op not in _IDENTITY:
        return False
    lv, rv = body.lvalue, body.rvalue
    if not (isinstance(lv, c_ast.ArrayRef) and isinstance(rv, c_ast.ArrayRef)):
        return False
    if not (
        _is(rv.subscript, counter) and _is(lv.subscript, counter) and isinstance(rv.name, c_ast.ID)
    ):
        return False
    name = rv.name.name
    decl = decls.get(name)
    updates, identity = _IDENTITY[body.op]
    if decl is None or identity != 0 or not _zeroed(decl, region, name):
        return False
    element = decl.type.type
    if not isinstance(decl.type, c_ast.ArrayDecl | c_ast.PtrDecl) or not integral_type(
        scope, element
    ):
        return False
    if _is(lv.name, name) or not _bounds_fixed(loop, region, counter):
        return False
    return _elements_only_updated(region, name, updates, body)


def _counter_of(loop: c_ast.For) -> str | None:
    """The counter a ``for`` sets in its header and steps by one."""
    nxt = loop.next
    if (
        isinstance(nxt, c_ast.UnaryOp)
        and nxt.op in ("++", "p++")
        and isinstance(nxt.expr, c_ast.ID)
    ):
        return nxt.expr.name
    return None


def _zeroed(decl: c_ast.Decl, region: c_ast.Node, name: str) -> bool:
    """Every element starts at zero: ``= {0}`` (the rest are zeros too), or the pointer
    is set once, to ``calloc``'s zeroed block, and nowhere else."""
    init = decl.init
    if isinstance(decl.type, c_ast.ArrayDecl):
        return isinstance(init, c_ast.InitList) and all(_value(e) == 0 for e in init.exprs)
    stores = [init] if init is not None else []
    for n in walk(region):
        if isinstance(n, c_ast.Assignment) and _is(n.lvalue, name):
            stores.append(n.rvalue if n.op == "=" else None)
    for rhs in stores:
        while isinstance(rhs, c_ast.Cast):
            rhs = rhs.expr
        if not (isinstance(rhs, c_ast.FuncCall) and _is(rhs.name, "calloc")):
            return False
    return len(stores) == 1


def _bounds_fixed(loop: c_ast.For, region: c_ast.Node, counter: str) -> bool:
    """The merge loop's header reads constants, its counter, and names the region does
    not set (the same bins on every thread)."""
    written = {
        n.lvalue.name
        for n in walk(region)
        if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID)
    }
    declared = {n.name for n in walk(region) if isinstance(n, c_ast.Decl)}
    for part in (loop.init, loop.cond):
        for n in walk(part):
            if isinstance(n, c_ast.FuncCall):
                return False
            if isinstance(n, c_ast.ID) and n.name != counter:
                if n.name in written or n.name in declared:
                    return False
    return True


def _elements_only_updated(
    region: c_ast.Node, name: str, updates: set[str], merge: c_ast.Node
) -> bool:
    """Every store to an element of ``name`` in the region is one of ``updates``; the
    array's address goes nowhere but subscripts, ``free`` and the merge (a copy of it,
    ``long *alias = mine``, could store anything)."""
    parents = {id(c): n for n in walk(region) for _, c in n.children()}
    for n in walk(region):
        if isinstance(n, c_ast.ID) and n.name == name:
            up = parents.get(id(n))
            subscripted = isinstance(up, c_ast.ArrayRef) and up.name is n
            freed = isinstance(up, c_ast.ExprList) and _is(
                getattr(parents.get(id(up)), "name", None), "free"
            )
            if not (subscripted or freed):
                return False
        if isinstance(n, c_ast.Assignment) and n is not merge:
            if _element_of(n.lvalue, name) and n.op not in updates:
                return False
        if isinstance(n, c_ast.UnaryOp) and _element_of(n.expr, name):
            if n.op == "&" or (n.op in ("++", "--", "p++", "p--") and n.op not in updates):
                return False
        if isinstance(n, c_ast.FuncCall) and not _is(n.name, "free"):
            if any(_is(a, name) for a in (n.args.exprs if n.args is not None else [])):
                return False
    return True


def _element_of(node: c_ast.Node, name: str) -> bool:
    return isinstance(node, c_ast.ArrayRef) and _is(node.name, name)


def _extreme_merge(stmt: c_ast.Node) -> tuple[c_ast.Node, str, c_ast.Node] | None:
    """(target, "max"/"min", operand) of ``if (p > t) t = p;`` or ``t = fmax(t, p)``."""
    if isinstance(stmt, c_ast.If):
        return if_update(stmt)
    if isinstance(stmt, c_ast.Assignment):
        form = update_form(stmt)
        if form is not None and form[0] in ("max", "min"):
            return stmt.lvalue, form[0], form[1]
    return None


def _extreme_partial(
    form: tuple[c_ast.Node, str, c_ast.Node], decls: dict[str, c_ast.Decl], region: c_ast.Node
) -> bool:
    """A max (or min) merged into shared data from a partial declared in the region with
    a constant start, which the region only ever updates by the same extreme: the max of
    the maxima is the max of all, and max is idempotent, so each thread's start, counted
    once per thread, changes nothing a team size could show."""
    target, op, operand = form
    if (
        not isinstance(operand, c_ast.ID)
        or isinstance(target, c_ast.ID)
        and (target.name == operand.name)
    ):
        return False
    decl = decls.get(operand.name)
    if decl is None or not _constant_start(decl.init):
        return False
    guarded = set()  # the ``m = v`` of each ``if (v > m) m = v;``, by the same extreme
    for n in walk(region):
        found = if_update(n) if isinstance(n, c_ast.If) else None
        if found is not None and _is(found[0], operand.name) and found[1] == op:
            guarded |= {id(x) for x in walk(n.iftrue) if isinstance(x, c_ast.Assignment)}
    for n in walk(region):
        if isinstance(n, c_ast.UnaryOp) and _is(n.expr, operand.name):
            if n.op in ("&", "++", "--", "p++", "p--"):
                return False
        if isinstance(n, c_ast.Assignment) and _is(n.lvalue, operand.name):
            form = update_form(n)
            if id(n) not in guarded and (form is None or form[0] != op):
                return False
    return True


def _select_partial(pick: tuple, decls: dict[str, c_ast.Decl], region: c_ast.Node) -> bool:
    """A candidate and its index merged by a selection with a tie-break, from copies
    declared in the region with constant starts that the region sets only by the same
    selection, each in the same role: idempotent, so a team of any size selects the
    same pair (``updates.select_update``)."""
    op, _, operand, _, position = pick
    copies = {"value": operand, "index": position}
    if not all(isinstance(c, c_ast.ID) for c in copies.values()):
        return False
    for copy in copies.values():
        decl = decls.get(copy.name)
        if decl is None or not _constant_start(decl.init):
            return False
    selected = set()  # the assignments of the selections that set the copies, by role
    for n in walk(region):
        got = guarded_selection(n)
        if got is None or got[0] != op:
            continue
        if _is(got[1], operand.name) and _is(got[3], position.name):
            selected |= {id(x) for x in walk(n.iftrue) if isinstance(x, c_ast.Assignment)}
    for n in walk(region):
        if isinstance(n, c_ast.UnaryOp) and any(_is(n.expr, c.name) for c in copies.values()):
            if n.op in ("&", "++", "--", "p++", "p--"):
                return False
        if isinstance(n, c_ast.Assignment) and id(n) not in selected:
            if any(_is(n.lvalue, c.name) for c in copies.values()):
                return False
    return bool(selected)


def _constant_start(init: c_ast.Node | None) -> bool:
    """A literal start value (``-1.0``, ``0``, ``-DBL_MAX`` once expanded, ``INT_MIN``)."""
    while isinstance(init, c_ast.UnaryOp) and init.op in ("-", "+"):
        init = init.expr
    if isinstance(init, c_ast.Cast):
        return _constant_start(init.expr)
    if isinstance(init, c_ast.BinaryOp) and init.op in ("-", "+"):  # INT_MIN: -2147483647 - 1
        return _constant_start(init.left) and _constant_start(init.right)
    return isinstance(init, c_ast.Constant)


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


def _float_value(init: c_ast.Node | None) -> float | None:
    """A literal's value as a number (``0.0``, ``0``, ``1.0f``, ``-0.0`` is not 0 here:
    it is no identity of a sum that a team's idle thread may add); None otherwise."""
    if isinstance(init, c_ast.Cast):
        return _float_value(init.expr)
    if not isinstance(init, c_ast.Constant):
        return None
    text = init.value.rstrip("fFlLuU")
    try:
        return float(text) if not text.lower().startswith("0x") else float(int(text, 16))
    except ValueError:
        return None


def _is(node: c_ast.Node, name: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == name
