"""Numbers the structure tree needs from the analysis: trip counts and constants.

A time-step loop's count k(n) is what the iteration skeleton multiplies the
body by, and it is read at each problem size from the same evaluator the
loop analysis uses (macros expanded, constant globals and locals followed),
so ``-D TSTEPS=...`` and ``-D N=...`` change it exactly as they change the
program.
"""

from __future__ import annotations

import numbers

from pycparser import c_ast

from autotune.analysis import exprs
from autotune.analysis.body import Ctx, Walker
from autotune.analysis.exprs import Symbolic
from autotune.analysis.symbols import Scope
from autotune.analysis.tripcount import NotCanonical, count_scalar, parse_header
from autotune.frontend.records import UniformWork


def constant(node: c_ast.Node, func: c_ast.FuncDef, ast: c_ast.FileAST) -> int | float | None:
    """Value of an expression that is constant for the whole run, else None."""
    walker = Walker(node)
    ctx = Ctx(Scope(func, ast), {}, {})
    try:
        value = exprs.evaluate(walker.build(ctx, node, node), {})
    except (Symbolic, TypeError, ValueError, ZeroDivisionError, KeyError):
        return None
    return value if isinstance(value, numbers.Number) else None


def trip_count(node: c_ast.For, func: c_ast.FuncDef, ast: c_ast.FileAST) -> tuple[int | None, str]:
    """(k, why unknown) of a sequential ``for``; k is None when it is not constant."""
    walker = Walker(node)
    ctx = Ctx(Scope(func, ast), {}, {})
    try:
        header = parse_header(node, lambda n: walker.build(ctx, n, node))
    except (NotCanonical, Symbolic) as exc:
        return None, f"not a counted loop: {exc}"
    if not header.known:
        return None, "; ".join(header.symbolic) or "bounds not constant"
    try:
        start = exprs.evaluate(header.start, {})
        limit = exprs.evaluate(header.limit, {})
        k = count_scalar(start, limit, header.op, header.step)
    except (Symbolic, TypeError, ValueError, ZeroDivisionError) as exc:
        return None, f"bounds not constant ({exc})"
    return k, "" if k is not None else "the loop does not terminate"


def uniform_work(work: list[float] | None, tolerance: float = 0.05) -> bool | None:
    """True when every distributed iteration does the same work (within ``tolerance``).

    Uniform work is the parMap case, T(n) = n T(1); anything else is a farm.
    None when the analysis could not count the work per iteration.
    """
    if not work:
        return None
    if isinstance(work, UniformWork):
        return True
    lo, hi = min(work), max(work)
    if hi <= 0:
        return True
    return (hi - lo) / hi <= tolerance
