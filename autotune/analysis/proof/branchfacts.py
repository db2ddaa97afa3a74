"""What a branch's condition says about the values its references use.

``if (j > 0) v[i][j - 1] = x;`` writes only where ``j >= 1``, and ``i + 1 < n ?
w[i + 1] : 0`` reads only where ``i <= n - 2``. The walk adds such bounds to the
references made under the branch (``Ref.given``), so that a subscript is checked against
its row or its array, and compared with others, only where it runs. A boundary test
is how stencils and scatters keep their shifted subscripts inside the grid.

Only what is certain is taken: a comparison computed in a signed integer type (an
unsigned ``j - 1 >= 0`` holds for every ``j``), both sides affine in the walk's
symbols, and one symbol with coefficient 1 or -1 to bound. The true side of ``&&`` and
the false side of ``||`` give both their parts; anything else gives nothing, which
leaves more points to the questions asked (sound, only less precise).
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.proof import poly
from autotune.analysis.proof.facts import Bound
from autotune.analysis.proof.inttypes import ExprTypes

# op -> the op of its negation
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def branch_bounds(w, cond: c_ast.Node | None, truth: bool) -> list[Bound]:
    """Bounds that hold wherever ``cond`` evaluates to ``truth`` (w: the walker, whose
    ``value`` gives an integer expression as a polynomial in its symbols)."""
    if cond is None or not _pure(cond):
        return []
    if isinstance(cond, c_ast.UnaryOp) and cond.op == "!":
        return branch_bounds(w, cond.expr, not truth)
    if isinstance(cond, c_ast.BinaryOp) and cond.op in ("&&", "||"):
        if (cond.op == "&&") == truth:
            return branch_bounds(w, cond.left, truth) + branch_bounds(w, cond.right, truth)
        return []
    if not isinstance(cond, c_ast.BinaryOp) or cond.op not in _NEGATED:
        # ``if (i)``: i != 0, and i == 0 on the other side
        zero = c_ast.Constant("int", "0", cond.coord)
        return branch_bounds(w, c_ast.BinaryOp("!=", cond, zero, cond.coord), truth)
    t = ExprTypes(w.frame.scope).operands(cond)
    if t is None or not t.signed:
        return []
    left, right = w.value_quietly(cond.left), w.value_quietly(cond.right)
    if left is None or right is None or not (poly.is_affine(left) and poly.is_affine(right)):
        return []
    op = cond.op if truth else _NEGATED[cond.op]
    diff = poly.add(left, right, -1)  # left - right, compared with 0
    if op == "!=":
        return _apart_from_edge(w, diff)
    if op == "==":
        return _at_least(diff, 0) + _at_most(diff, 0)
    if op in (">", ">="):
        return _at_least(diff, 1 if op == ">" else 0)
    return _at_most(diff, -1 if op == "<" else 0)


def _pure(cond: c_ast.Node) -> bool:
    """No store in the condition: its values are the ones before and after it is
    evaluated (``k-- > 0`` tests the old ``k``, which the walk has moved on). A call may
    store only to memory and to variables whose address it is given: a local the walk
    holds a value of has no address taken, and a size read from memory is checked
    against every store the loop makes, the callee's included (``sizes_read``);
    ``dist2(x, i, j) < cut && cnt < max`` still bounds ``cnt``."""
    for n in walk(cond):
        if isinstance(n, c_ast.Assignment):
            return False
        if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            return False
    return True


def always_leaves(stmt: c_ast.Node | None) -> bool:
    """Every path through ``stmt`` jumps out of the block around it (``continue``,
    ``break``, ``return``): what follows it in the block runs only where it was not
    taken (``if (i == 0 || i == n - 1) continue;``). A ``goto`` may land further down
    the same block, so it is not counted."""
    if isinstance(stmt, c_ast.Continue | c_ast.Break | c_ast.Return):
        return True
    if isinstance(stmt, c_ast.Compound):
        return bool(stmt.block_items) and always_leaves(stmt.block_items[-1])
    if isinstance(stmt, c_ast.If):
        return always_leaves(stmt.iftrue) and always_leaves(stmt.iffalse)
    return False


def bounds_after(w, stmt: c_ast.Node) -> list[Bound]:
    """What holds after ``stmt`` for the rest of its block, when ``stmt`` is an ``if``
    one of whose branches always leaves the block; asked before ``stmt`` is walked (its
    condition's values as it tests them)."""
    if not isinstance(stmt, c_ast.If):
        return []
    if always_leaves(stmt.iftrue) and not always_leaves(stmt.iffalse):
        return branch_bounds(w, stmt.cond, False)
    if stmt.iffalse is not None and always_leaves(stmt.iffalse):
        return branch_bounds(w, stmt.cond, True) if not always_leaves(stmt.iftrue) else []
    return []


def _apart_from_edge(w, diff: poly.Poly) -> list[Bound]:
    """``diff != 0`` where it excludes a loop's first or last value: ``i != 0`` for ``i``
    from 0 is ``i >= 1`` (any other value leaves two sides, which a bound cannot say)."""
    picked = _pick(diff)
    if picked is None:
        return []
    sym, coef, rest = picked  # sym != -rest / coef
    value = poly.add({}, rest, -1) if coef == 1 else rest
    for b in w.domain:
        if b.sym != sym or b.step not in (1, -1) or b.defined:
            continue
        if b.lower == value:
            return [Bound(sym, poly.add(value, poly.const(1)), None)]
        if b.upper == value:
            return [Bound(sym, None, poly.add(value, poly.const(-1)))]
    return []


def _at_least(diff: poly.Poly, k: int) -> list[Bound]:
    """``diff >= k`` as a bound on one of its symbols."""
    picked = _pick(diff)
    if picked is None:
        return []
    sym, coef, rest = picked  # diff = coef * sym + rest
    edge = poly.add(poly.const(k), rest, -1)  # coef * sym >= k - rest
    if coef == 1:
        return [Bound(sym, edge, None)]
    return [Bound(sym, None, poly.add({}, edge, -1))]


def _at_most(diff: poly.Poly, k: int) -> list[Bound]:
    """``diff <= k``: ``-diff >= -k``."""
    return _at_least(poly.add({}, diff, -1), -k)


def _pick(diff: poly.Poly) -> tuple[str, int, poly.Poly] | None:
    """(symbol, its coefficient 1 or -1, the rest) of an affine ``diff``: a loop's
    variable first (a size's bound says less about the subscripts)."""
    singles = [(m[0], c) for m, c in diff.items() if len(m) == 1 and c in (1, -1)]
    if not singles:
        return None
    singles.sort(key=lambda s: (s[0].startswith("P"), s[0]))
    sym, coef = singles[0]
    rest = {m: c for m, c in diff.items() if m != (sym,)}
    return sym, coef, rest
