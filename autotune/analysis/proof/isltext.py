"""References' loops as isl text: the one place that writes a domain's constraints.

Every symbol but a size parameter (``P_...``) is a dimension, named with the suffix of
the side it is on (two iterations of a dependence test, ``_a`` and ``_b``); a defined
value (``Bound.defined``: ``i = k / M``, ``MIN(ii + BS, n)``) is pinned by constraints;
a quotient by a run-time divisor (``b / bs``) is left free: only an expression in which
it cancels (``(b / bs) * bs + b % bs`` is ``b``) says anything.
"""

from __future__ import annotations

from autotune.analysis.proof import poly
from autotune.analysis.proof.facts import Bound

# the constant tables subscripts read (``perm[i]`` of a ``const int perm[] = {...}``), by
# the id a ``("table", index, id)`` definition names
TABLES: list[tuple[int, ...]] = []
MAX_TABLE = 256  # entries: a disjunct each in every question that reads one


def table_id(values: tuple[int, ...]) -> int:
    """The id of a table of these entries (one id per distinct table)."""
    if values not in TABLES:
        TABLES.append(values)
    return TABLES.index(values)


class Names:
    """isl identifiers: parameters shared, every other symbol with a suffix."""

    def __init__(self, suffix: str) -> None:
        self.suffix = suffix
        self.params: set[str] = set()
        self.dims: list[str] = []

    def __call__(self, sym: str) -> str:
        if sym.startswith("P"):
            self.params.add(sym)
            return sym
        name = f"{sym}{self.suffix}"
        if name not in self.dims:
            self.dims.append(name)
        return name


def domain_text(bounds: list[Bound], names: Names, given: tuple[Bound, ...] = ()) -> str | None:
    """The loops' values as isl constraints; what is not known is left out (which only
    adds points: sound for dependences, and writes needing exact domains check
    ``Bound.exact`` first). ``given``: bounds on parameters where the loop runs."""
    parts = []
    for b in [*bounds, *given]:
        v = names(b.sym)
        if b.defined is not None:
            pinned = _defined(v, b.defined, names)
            if pinned:
                parts.append(pinned)
            continue
        if b.lower is not None and poly.is_affine(b.lower):
            parts.append(f"{poly.to_isl(b.lower, names)} <= {v}")
        if b.upper is not None and poly.is_affine(b.upper):
            parts.append(f"{v} <= {poly.to_isl(b.upper, names)}")
        step = abs(b.step) if b.step is not None else 1
        if step > 1 and b.start is not None and poly.is_affine(b.start):
            parts.append(f"({v} - ({poly.to_isl(b.start, names)})) mod {step} = 0")
    return " and ".join(parts)


def _defined(v: str, defined: tuple[str, poly.Poly, poly.Poly], names: Names) -> str:
    """``v`` as C computes it: ``a / d`` truncates toward zero; min and max pick one."""
    kind, pa, pb = defined
    if kind == "vdiv":  # by a run-time divisor: d*v is no affine term, so v is any value
        return ""
    if kind == "table":  # the entry of a constant table ``a`` selects: one disjunct each
        values = TABLES[poly.constant_of(pb) or 0]
        at = poly.to_isl(pa, names)
        return "(" + " or ".join(f"({at} = {k} and {v} = {x})" for k, x in enumerate(values)) + ")"
    a, b = poly.to_isl(pa, names), poly.to_isl(pb, names)
    if kind == "vmod":  # C's remainder: the dividend's sign, below the divisor in size
        return (
            f"(({a} >= 0 and 0 <= {v} and {v} <= {a} and "
            f"({v} <= {b} - 1 or {v} <= -({b}) - 1)) or "
            f"({a} < 0 and {a} <= {v} and {v} <= 0 and "
            f"({v} >= 1 - ({b}) or {v} >= ({b}) + 1)))"
        )
    if kind == "fdiv":  # floor: a shift, a mask's complement
        return f"({b}*{v} <= {a} and {a} <= {b}*{v} + {b} - 1)"
    if kind == "div":
        return (
            f"(({a} >= 0 and {b}*{v} <= {a} and {a} <= {b}*{v} + {b} - 1) or "
            f"({a} < 0 and {b}*{v} - {b} + 1 <= {a} and {a} <= {b}*{v}))"
        )
    pick = "<=" if kind == "min" else ">="
    return f"(({v} = {a} and {a} {pick} {b}) or ({v} = {b} and {b} {pick} {a}))"
