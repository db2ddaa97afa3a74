"""Trip estimates for loops whose bounds are not static: while loops and CSR rows.

Both are estimates and the caller warns about them: a ``while`` bounded by a
counter runs at most that many times; a CSR row loop ``P[i] .. P[i+1]`` is
given the size of the arrays it indexes as its total over all rows.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from pycparser import c_ast

from autotune.analysis import exprs
from autotune.analysis.exprs import Expr, Symbolic
from autotune.analysis.tripcount import Header


def csr_total(ln, var: str) -> float | None:  # ln: body.LoopNode
    """Total trips of a CSR row loop: the smallest array it indexes directly."""
    sizes = [
        a.info.derivs[0][1] for a in _all_accesses(ln) if a.csr_var == var and a.info.derivs[0][1]
    ]
    return float(min(sizes)) if sizes else None


def while_bound(
    node: c_ast.Node,
    build: Callable[[c_ast.Node, c_ast.Node], Expr],
    parents: dict[int, c_ast.Node],
) -> int | None:
    """Trips of ``while (k < LIMIT && ...)`` with ``k`` stepped by a constant."""
    for conj in _conjuncts(node.cond):
        if not (isinstance(conj, c_ast.BinaryOp) and conj.op in ("<", "<=", ">", ">=")):
            continue
        for var_node, lim_node, op in (
            (conj.left, conj.right, conj.op),
            (conj.right, conj.left, _flip(conj.op)),
        ):
            if not isinstance(var_node, c_ast.ID):
                continue
            step = _body_step(node.stmt, var_node.name)
            try:
                limit = build(lim_node, node)
            except Symbolic:
                continue
            start = _value_before(node, var_node.name, build, parents)
            if step is None or not isinstance(limit, (int, float)) or start is None:
                continue
            trips = _trips(start, limit, op, step)
            if trips is not None:
                return trips
    return None


def _value_before(
    node: c_ast.Node,
    name: str,
    build: Callable[[c_ast.Node, c_ast.Node], Expr],
    parents: dict[int, c_ast.Node],
) -> int | float | None:
    """The constant last assigned to ``name`` before ``node`` in the same block."""
    parent = parents.get(id(node))
    if not isinstance(parent, c_ast.Compound):
        return None
    items = parent.block_items or []
    for item in reversed(items[: next(i for i, s in enumerate(items) if s is node)]):
        rhs = None
        if isinstance(item, c_ast.Decl) and item.name == name:
            rhs = item.init
        elif (
            isinstance(item, c_ast.Assignment)
            and item.op == "="
            and isinstance(item.lvalue, c_ast.ID)
            and item.lvalue.name == name
        ):
            rhs = item.rvalue
        if rhs is not None or (isinstance(item, c_ast.Decl) and item.name == name):
            try:
                v = build(rhs, item) if rhs is not None else None
            except Symbolic:
                return None
            return v if isinstance(v, (int, float)) else None
    return None


def _all_accesses(ln) -> list:
    out = list(ln.accesses)
    for child, _ in ln.children:
        out += _all_accesses(child)
    return out


def csr_pattern(h: Header) -> str | None:
    """``for (j = P[e]; j < P[e + 1]; ...)``: returns ``P``."""
    a, b = h.start_node, h.limit_node
    if not (isinstance(a, c_ast.ArrayRef) and isinstance(b, c_ast.ArrayRef)):
        return None
    if not (
        isinstance(a.name, c_ast.ID) and isinstance(b.name, c_ast.ID) and a.name.name == b.name.name
    ):
        return None
    sb = b.subscript
    if (
        isinstance(sb, c_ast.BinaryOp)
        and sb.op == "+"
        and isinstance(sb.right, c_ast.Constant)
        and sb.right.value == "1"
        and exprs.to_c_node(sb.left) == exprs.to_c_node(a.subscript)
    ):
        return a.name.name
    return None


def _conjuncts(cond: c_ast.Node | None) -> list[c_ast.Node]:
    if isinstance(cond, c_ast.BinaryOp) and cond.op == "&&":
        return _conjuncts(cond.left) + _conjuncts(cond.right)
    return [cond] if cond is not None else []


def _flip(op: str) -> str:
    return {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]


def _body_step(stmt: c_ast.Node, name: str) -> int | None:
    """The constant a body adds to ``name`` (``k++``, ``k += 2``), if it does only that."""
    steps = []
    stack = [stmt]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.UnaryOp) and isinstance(n.expr, c_ast.ID) and n.expr.name == name:
            steps.append({"++": 1, "p++": 1, "--": -1, "p--": -1}.get(n.op))
        elif (
            isinstance(n, c_ast.Assignment)
            and isinstance(n.lvalue, c_ast.ID)
            and n.lvalue.name == name
        ):
            if n.op in ("+=", "-=") and isinstance(n.rvalue, c_ast.Constant):
                try:
                    v = exprs.parse_constant(n.rvalue)
                except Symbolic:
                    v = None
                steps.append(v if n.op == "+=" else (-v if v is not None else None))
            else:
                steps.append(None)
        stack.extend(c for _, c in n.children())
    if len(steps) != 1 or not isinstance(steps[0], int) or steps[0] == 0:
        return None
    return steps[0]


def _trips(start: float, limit: float, op: str, step: int) -> int | None:
    if step > 0 and op in ("<", "<="):
        span = limit - start + (1 if op == "<=" else 0)
        return max(0, math.ceil(span / step))
    if step < 0 and op in (">", ">="):
        span = start - limit + (1 if op == ">=" else 0)
        return max(0, math.ceil(span / -step))
    return None
