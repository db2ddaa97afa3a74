"""Trip counts as formulas in the program's run-time sizes, counted by barvinok.

A loop nest sized by names the source does not fix (``n`` read from argv, ``g->nx``)
has a trip count that is a piecewise quasi-polynomial in those names: the number of
integer points of the nest's polyhedron, which barvinok (through ``islpy-barvinok``)
counts exactly, for every value of the names at once. ``analyze --json`` shows it
(``formulas``), so a user sees how a loop grows; a profile run's values evaluate it.
Non-affine bounds (CSR rows, products of two sizes) give no formula, and say nothing
rather than guess.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pycparser import c_ast, c_parser

from autotune.frontend.records import LoopLevel

_IDENT = re.compile(r"[^A-Za-z0-9_]")


class NotAffine(Exception):
    """A bound isl cannot take as a linear constraint."""


def isl_name(text: str) -> str:
    """An isl identifier for a C name or member chain (``g->nx`` -> ``g_nx``)."""
    name = _IDENT.sub("_", text.replace("->", "_")).strip("_") or "x"
    return name if not name[0].isdigit() else f"v{name}"


def affine_text(expr: str) -> str:
    """The C expression ``expr`` in isl's syntax; NotAffine when it is not affine."""
    try:
        ast = c_parser.CParser().parse(f"long __autotune_f(void) {{ return ({expr}); }}")
    except Exception as exc:  # pycparser raises several kinds
        raise NotAffine(f"cannot read {expr!r}") from exc
    ret = ast.ext[0].body.block_items[0]
    return affine_node(ret.expr)


def affine_node(node: c_ast.Node) -> str:
    """A C expression node in isl's syntax; NotAffine when it is not affine."""
    if isinstance(node, c_ast.Constant) and node.type in ("int", "long", "unsigned int"):
        return str(int(node.value.rstrip("uUlL"), 0))
    if isinstance(node, c_ast.ID | c_ast.StructRef | c_ast.ArrayRef):
        return isl_name(size_text(node))
    if isinstance(node, c_ast.Cast):
        return affine_node(node.expr)
    if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
        return f"{node.op}({affine_node(node.expr)})"
    if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
        return f"({affine_node(node.left)}) {node.op} ({affine_node(node.right)})"
    if isinstance(node, c_ast.BinaryOp) and node.op == "*":
        left, right = affine_node(node.left), affine_node(node.right)
        if _is_int(left) or _is_int(right):
            return f"({left}) * ({right})"
    if isinstance(node, c_ast.BinaryOp) and node.op == "/":
        right = affine_node(node.right)
        if _is_int(right) and int(right) > 0:  # C division of a non-negative value
            return f"floor(({affine_node(node.left)}) / {right})"
    raise NotAffine(type(node).__name__)


def _is_int(text: str) -> bool:
    return bool(re.fullmatch(r"-?\d+", text))


def size_text(node: c_ast.Node) -> str:
    """The C text of a name that may stand for a size: a variable, a member chain
    (``g->nx``), or an element at constant subscripts (NPB's ``grid_points[0]``)."""
    if isinstance(node, c_ast.ID):
        return node.name
    if isinstance(node, c_ast.StructRef) and isinstance(node.field, c_ast.ID):
        return f"{size_text(node.name)}{node.type}{node.field.name}"
    if isinstance(node, c_ast.ArrayRef) and isinstance(node.subscript, c_ast.Constant):
        if node.subscript.type in ("int", "long", "unsigned int"):
            return f"{size_text(node.name)}[{int(node.subscript.value.rstrip('uUlL'), 0)}]"
    raise NotAffine("member or element of an expression")


def _constraints(level: LoopLevel, var: str) -> list[str]:
    lo, hi = affine_text(level.lower), affine_text(level.upper)
    step = level.step or 0
    if step > 0 and level.op in ("<", "<="):
        out = [f"{var} >= {lo}", f"{var} {level.op} {hi}"]
    elif step < 0 and level.op in (">", ">="):
        out = [f"{var} <= {lo}", f"{var} {level.op} {hi}"]
    else:
        raise NotAffine(f"{level.op} with step {level.step}")
    if abs(step) > 1:
        out.append(f"exists (k_{var} : {var} = {lo} + {step} * k_{var})")
    return out


def count_formula(levels: Sequence[LoopLevel]) -> str | None:
    """The number of points of ``levels`` (outermost first) as barvinok's piecewise
    quasi-polynomial in the free names; None when a bound is not affine."""
    if not levels or any(lv.var == "?" for lv in levels):
        return None
    names = {lv.var: isl_name(lv.var) for lv in levels}
    try:
        conj = [c for lv in levels for c in _constraints(lv, names[lv.var])]
    except NotAffine:
        return None
    text = " and ".join(conj)
    dims = [names[lv.var] for lv in levels]
    params = sorted(set(re.findall(r"[A-Za-z_]\w*", text)) - set(dims) - _ISL_WORDS)
    params = [p for p in params if not p.startswith("k_")]
    try:
        import islpy as isl

        card = isl.Set(f"[{', '.join(params)}] -> {{ [{', '.join(dims)}] : {text} }}").card()
    except Exception:  # isl's errors, and an islpy without barvinok
        return None
    return str(card)


_ISL_WORDS = {"and", "or", "not", "exists", "floor", "mod"}


def open_sizes(nest: Sequence[LoopLevel]) -> bool:
    """The nest's bounds name something besides its own loop variables (a size the
    source does not fix); with constants only, the counts themselves say it all."""
    loop_vars = {lv.var for lv in nest}
    words = {w for lv in nest for w in re.findall(r"[A-Za-z_]\w*", f"{lv.lower} {lv.upper}")}
    return bool(words - loop_vars)


def nest_formulas(nest: Sequence[LoopLevel], collapse: int) -> dict[str, str]:
    """``trip_count`` (the distributed iterations) and ``iterations`` (the innermost
    body's executions) of one run of the nest, where both are affine."""
    out: dict[str, str] = {}
    if not open_sizes(nest):
        return out
    trips = count_formula(nest[: max(1, collapse)])
    if trips is not None:
        out["trip_count"] = trips
    everything = count_formula(nest)
    if everything is not None:
        out["iterations"] = everything
    return out


def evaluate(formula: str, values: dict[str, int]) -> int | None:
    """The formula's value for the sizes ``values`` (by isl name); None outside its
    domain (where the nest runs no iteration, barvinok's formula is 0 or undefined)."""
    import islpy as isl

    value = value_at(isl.PwQPolynomial(formula), values)
    return int(value.to_python()) if value is not None and value.is_int() else None


def value_at(qp, values: dict[str, int]):
    """``qp`` (an ``isl.PwQPolynomial``) at the sizes ``values``, as an ``isl.Val``; None
    when a size has no value."""
    import islpy as isl

    space = qp.get_domain_space()
    point = isl.Point.zero(space)
    for i in range(space.dim(isl.dim_type.param)):
        name = space.get_dim_name(isl.dim_type.param, i)
        if name not in values:
            return None
        point = point.set_coordinate_val(isl.dim_type.param, i, int(values[name]))
    return qp.eval(point)
