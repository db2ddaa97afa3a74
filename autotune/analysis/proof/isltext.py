"""References' loops as isl text: the one place that writes a domain's constraints.

Every symbol but a size parameter (``P_...``) is a dimension, named with the suffix of
the side it is on (two iterations of a dependence test, ``_a`` and ``_b``); a quotient
(``Bound.div``: ``i = k / M``) is pinned by the constraints of C's division.
"""

from __future__ import annotations

from autotune.analysis.proof import poly
from autotune.analysis.proof.facts import Bound


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
        if b.div is not None:
            parts.append(_quotient(v, *b.div, names))
            continue
        if b.lower is not None and poly.is_affine(b.lower):
            parts.append(f"{poly.to_isl(b.lower, names)} <= {v}")
        if b.upper is not None and poly.is_affine(b.upper):
            parts.append(f"{v} <= {poly.to_isl(b.upper, names)}")
        step = abs(b.step) if b.step is not None else 1
        if step > 1 and b.start is not None and poly.is_affine(b.start):
            parts.append(f"({v} - ({poly.to_isl(b.start, names)})) mod {step} = 0")
    return " and ".join(parts)


def _quotient(v: str, num: poly.Poly, d: int, names: Names) -> str:
    """``v = num / d`` with C's division, which truncates toward zero."""
    n = poly.to_isl(num, names)
    return (
        f"(({n} >= 0 and {d}*{v} <= {n} and {n} <= {d}*{v} + {d - 1}) or "
        f"({n} < 0 and {d}*{v} - {d - 1} <= {n} and {n} <= {d}*{v}))"
    )
