"""Loop headers in canonical form and their trip counts (scalar or vectorised).

A header ``for (v = start; v <op> limit; v += step)`` runs ``v = start +
step*t`` for ``t = 0 .. count-1``.  ``count`` below follows C exactly for
integer loops, including ``<=``/``>=``, negative steps and ``!=``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from pycparser import c_ast

from autotune.analysis import cexpr, exprs
from autotune.analysis.exprs import Expr, Symbolic

FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}


@dataclass
class Header:
    """A parsed ``for`` header; ``start``/``limit`` None when not evaluable."""

    var: str
    start: Expr | None
    limit: Expr | None
    op: str
    step: int | None
    lower_text: str = ""
    upper_text: str = ""
    extra: list[c_ast.Node] = field(default_factory=list)  # data conjuncts of the condition
    symbolic: list[str] = field(default_factory=list)  # why start/limit/step are unknown
    start_node: c_ast.Node | None = None
    limit_node: c_ast.Node | None = None
    step_text: str = ""  # a step that is no constant (``ii += tile``), as written

    @property
    def known(self) -> bool:
        return self.start is not None and self.limit is not None and bool(self.step)

    def plain(self) -> dict:
        """JSON form used in ``record.arrays`` domains: the bounds evaluated where the
        analysis could (``start``, ``limit``) and as written after macro expansion
        (``lower``, ``upper``: the sizes' names, for formulas in them)."""
        texts = {"lower": self.lower_text, "upper": self.upper_text}
        if not self.known:
            return {"var": self.var, "unknown": True, "op": self.op, "step": self.step, **texts}
        return {
            "var": self.var,
            "start": self.start,
            "limit": self.limit,
            "op": self.op,
            "step": self.step,
            **texts,
        }


class NotCanonical(Exception):
    """The ``for`` is not in a form whose trip count we can reason about."""


def parse_header(node: c_ast.For, build: Callable[[c_ast.Node], Expr]) -> Header:
    """Canonicalise a ``for`` header; ``build`` turns a bound node into an Expr."""
    var, start_node = _init(node.init)
    if var is None:
        var = _var_from_next(node.next)
    if var is None:
        raise NotCanonical("no loop variable")
    step, step_why = _step(node.next, var, build)
    op, limit_node, extra = _cond(node.cond, var)
    if op is None:
        raise NotCanonical(f"condition is not a bound on {var}")
    limit_node, extra = _tightest(op, limit_node, extra, var)
    gen = exprs.to_c_node
    h = Header(
        var,
        None,
        None,
        op,
        step,
        extra=extra,
        lower_text=gen(start_node) if start_node is not None else "?",
        upper_text=gen(limit_node),
        start_node=start_node,
        limit_node=limit_node,
    )
    if step_why:
        h.symbolic.append(step_why)
        amount = _step_amount(node.next, var)
        h.step_text = gen(amount) if amount is not None else ""
    if start_node is None:
        h.symbolic.append(f"{var}: no initial value in the for header")
    else:
        try:
            h.start = build(start_node)
        except Symbolic as exc:
            h.symbolic.append(f"{var} = {h.lower_text} ({exc.what})")
    try:
        h.limit = build(limit_node)
    except Symbolic as exc:
        h.symbolic.append(f"{var} {op} {h.upper_text} ({exc.what})")
    return h


def constant_value(node: c_ast.Node | None) -> int | float | None:
    """The value of an expression of literals only (``40``, ``100000 - 1``), else None."""
    if node is None:
        return None
    try:
        value = cexpr.build(node, _no_names)
    except Symbolic:
        return None
    return value if isinstance(value, int | float) else None


def constant_trips(node: c_ast.For) -> int | None:
    """The trip count of a ``for`` whose start, bound and step are literals, and whose
    condition tests nothing else; None otherwise."""
    try:
        h = parse_header(node, lambda n: cexpr.build(n, _no_names))
    except NotCanonical:
        return None
    if not h.known or h.extra:
        return None
    return count_scalar(h.start, h.limit, h.op, h.step)


def _no_names(name: str) -> Expr:
    raise Symbolic(name)


def _init(init: c_ast.Node | None) -> tuple[str | None, c_ast.Node | None]:
    if isinstance(init, c_ast.DeclList) and init.decls:
        d = init.decls[0]
        return d.name, d.init
    if isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID):
        return init.lvalue.name, init.rvalue
    if isinstance(init, c_ast.ExprList):
        for e in init.exprs:
            v, s = _init(e)
            if v is not None:
                return v, s
    return None, None


def _var_from_next(nxt: c_ast.Node | None) -> str | None:
    if isinstance(nxt, c_ast.UnaryOp) and isinstance(nxt.expr, c_ast.ID):
        return nxt.expr.name
    if isinstance(nxt, c_ast.Assignment) and isinstance(nxt.lvalue, c_ast.ID):
        return nxt.lvalue.name
    return None


def _step(
    nxt: c_ast.Node | None, var: str, build: Callable[[c_ast.Node], Expr]
) -> tuple[int | None, str]:
    if isinstance(nxt, c_ast.ExprList):
        for e in nxt.exprs:
            s, why = _step(e, var, build)
            if s is not None or why:
                return s, why
        return None, f"{var}: no increment"
    if isinstance(nxt, c_ast.UnaryOp) and _is(nxt.expr, var):
        if nxt.op in ("++", "p++"):
            return 1, ""
        if nxt.op in ("--", "p--"):
            return -1, ""
    amount, sign = None, 1
    if isinstance(nxt, c_ast.Assignment) and _is(nxt.lvalue, var):
        if nxt.op in ("+=", "-="):
            amount, sign = nxt.rvalue, (1 if nxt.op == "+=" else -1)
        elif nxt.op == "=" and isinstance(nxt.rvalue, c_ast.BinaryOp):
            b = nxt.rvalue
            if b.op == "+" and _is(b.left, var):
                amount = b.right
            elif b.op == "+" and _is(b.right, var):
                amount = b.left
            elif b.op == "-" and _is(b.left, var):
                amount, sign = b.right, -1
    if amount is None:
        return None, f"{var}: increment is not v += constant"
    try:
        value = build(amount)
    except Symbolic as exc:
        return None, f"{var} step {exprs.to_c_node(amount)} ({exc.what})"
    if not isinstance(value, int) or value == 0:
        return None, f"{var}: step {exprs.to_c_node(amount)} is not a nonzero integer constant"
    return sign * value, ""


def _step_amount(nxt: c_ast.Node | None, var: str) -> c_ast.Node | None:
    """The ``e`` of ``v += e`` (a profile run measures it where it is no constant)."""
    if isinstance(nxt, c_ast.Assignment) and _is(nxt.lvalue, var) and nxt.op in ("+=", "-="):
        return nxt.rvalue
    return None


def _is(node: c_ast.Node, var: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == var


def _cond(cond: c_ast.Node | None, var: str) -> tuple[str | None, c_ast.Node | None, list]:
    """(op, limit, extra conjuncts) with ``var`` on the left of ``op``."""
    if isinstance(cond, c_ast.BinaryOp) and cond.op in FLIP:
        if _is(cond.left, var):
            return cond.op, cond.right, []
        if _is(cond.right, var):
            return FLIP[cond.op], cond.left, []
    if isinstance(cond, c_ast.BinaryOp) and cond.op == "&&":
        op, limit, extra = _cond(cond.left, var)
        if op is not None:
            return op, limit, extra + [cond.right]
        op, limit, extra = _cond(cond.right, var)
        if op is not None:
            return op, limit, [cond.left] + extra
    return None, None, []


# the last value ``var`` takes is the bound - 1 + this (upper), or + 1 + this (lower)
UPPER = {"<": 0, "<=": 1}
LOWER = {">": 0, ">=": -1}


def _tightest(
    op: str, limit: c_ast.Node, extra: list[c_ast.Node], var: str
) -> tuple[c_ast.Node, list[c_ast.Node]]:
    """Fold further bounds on ``var`` of the same direction into the limit: a tile's
    ``i < ii + B && i < n`` runs to the lesser, as ``i < MIN(ii + B, n)`` would (a
    ternary the counts already evaluate); other conjuncts stay data exits."""
    family = UPPER if op in UPPER else LOWER if op in LOWER else None
    if family is None:
        return limit, extra
    rest = []
    for conj in extra:
        c_op, c_limit, c_extra = _cond(conj, var)
        if c_op not in family or c_extra:
            rest.append(conj)
            continue
        shift = family[c_op] - family[op]  # ``i <= m`` beside ``i < n``: i < m + 1
        if shift:
            sign = "+" if shift > 0 else "-"
            c_limit = c_ast.BinaryOp(sign, c_limit, c_ast.Constant("int", str(abs(shift))))
        keep_first = "<" if family is UPPER else ">"
        limit = c_ast.TernaryOp(c_ast.BinaryOp(keep_first, limit, c_limit), limit, c_limit)
    return limit, rest


def count_scalar(start: int, limit: int | float, op: str, step: int) -> int | None:
    """Trip count of one loop with numeric bounds; None when it never ends."""
    c = counts(np.array([start]), np.array([limit]), op, step)
    return None if c is None or c[0] < 0 else int(c[0])


def counts(start: np.ndarray, limit: np.ndarray, op: str, step: int) -> np.ndarray | None:
    """Vectorised trip counts; entries are -1 where the loop would not terminate."""
    start = np.asarray(start)
    limit = np.asarray(limit)
    if limit.dtype.kind == "f" or start.dtype.kind == "f":
        return _float_counts(start.astype(float), limit.astype(float), op, step)
    s = start.astype(np.int64)
    lim = limit.astype(np.int64)
    if op == "!=":
        d = lim - s
        ok = (d % step == 0) & (d // step >= 0)
        return np.where(ok, d // step, -1)
    if op in ("<", "<="):
        hi = lim - 1 if op == "<" else lim
        if step > 0:
            return np.maximum((hi - s) // step + 1, 0)
        return np.where(s <= hi, -1, 0)
    lo = lim + 1 if op == ">" else lim
    if step < 0:
        return np.maximum((s - lo) // (-step) + 1, 0)
    return np.where(s >= lo, -1, 0)


def _float_counts(s: np.ndarray, lim: np.ndarray, op: str, step: int) -> np.ndarray | None:
    """Integer variable compared with a non-integer limit (``i < n/2.0``)."""
    if op in ("<", "<="):
        hi = np.ceil(lim) - 1 if op == "<" else np.floor(lim)
        if step > 0:
            return np.maximum(np.floor((hi - s) / step) + 1, 0).astype(np.int64)
        return np.where(s <= hi, -1, 0)
    if op in (">", ">="):
        lo = np.floor(lim) + 1 if op == ">" else np.ceil(lim)
        if step < 0:
            return np.maximum(np.floor((s - lo) / -step) + 1, 0).astype(np.int64)
        return np.where(s >= lo, -1, 0)
    return None
