"""What the sequential loops around a parallel loop say about its parameters.

Inside ``for (i = 0; i < n; i++) { #pragma omp parallel for  for (j = i; j < n; j++)
a[i*n + j] = ...; }`` (Rodinia's lud, NAS's sweeps) the proof sees ``i`` as a parameter:
one value for the whole parallel loop. Without knowing ``0 <= i < n`` it cannot split
``i*n + j`` into row and column, and refuses a loop that is plainly independent. The
enclosing loops' headers give those bounds, when neither the variable's bounds nor the
names in them are assigned in the outer loop's body (directly, through the functions it
calls, or through a pointer: a name whose address is taken is never trusted).
"""

from __future__ import annotations

from collections.abc import Callable

from pycparser import c_ast

from autotune.analysis.astutil import path_to
from autotune.analysis.proof import poly
from autotune.analysis.proof.facts import Bound
from autotune.analysis.proof.syntax import assigned, for_header, param_symbol


def enclosing_fors(body: c_ast.Node, target: c_ast.Node) -> list[c_ast.For]:
    """The ``for`` statements around ``target`` in ``body``, outermost first."""
    path = path_to(body, target) or []
    return [n for n in path[1:] if isinstance(n, c_ast.For) and n is not target]


def enclosing_bounds(
    body: c_ast.Node,
    loop: c_ast.For,
    written: Callable[[c_ast.Node], set[str]] = assigned,
    aliased: Callable[[str, c_ast.Node], bool] = lambda _name, _at: False,
    narrow: Callable[[c_ast.Node], bool] | None = None,
) -> list[Bound]:
    """Bounds on the parameters that name enclosing loop variables (``P_i``).

    ``written(node)``: the names ``node`` may assign (calls followed); ``aliased(name,
    at)``: the name's address is taken somewhere (a pointer may change it); ``narrow``:
    the types a conversion to wraps (``decls.narrows``)."""
    out: list[Bound] = []
    for outer in enclosing_fors(body, loop):
        header = for_header(outer)
        if header is None or outer.stmt is None:
            continue
        var, lo, hi, op, step = header
        changed = set(written(outer.stmt))
        names = {n.name for n in _ids(outer.cond)} | {var}
        changed |= {n for n in names if aliased(n, outer)}
        if var in changed:
            continue  # the body moves the variable itself, or a pointer may
        low, high = _value(lo, changed, narrow), _value(hi, changed, narrow)
        if step > 0 and op in ("<", "<="):
            upper = poly.add(high, poly.const(-1)) if high is not None and op == "<" else high
            out.append(Bound(param_symbol(var), low, upper, None))
        elif step < 0 and op in (">", ">="):
            lower = poly.add(high, poly.const(1)) if high is not None and op == ">" else high
            out.append(Bound(param_symbol(var), lower, low, None))
    return out


def _ids(node: c_ast.Node | None) -> list[c_ast.ID]:
    if node is None:
        return []
    out = [node] if isinstance(node, c_ast.ID) else []
    for _, child in node.children():
        out += _ids(child)
    return out


def _value(
    node: c_ast.Node, changed: set[str], narrow: Callable[[c_ast.Node], bool] | None
) -> poly.Poly | None:
    """A bound over names the outer body does not assign, as the walk names them."""

    def name(n: str, _node: c_ast.Node) -> poly.Poly | None:
        return None if n in changed else poly.symbol(param_symbol(n))

    value = poly.PolyBuilder(name, lambda _node: None, narrow).build(node)
    return value if value is not None and poly.is_affine(value) else None
