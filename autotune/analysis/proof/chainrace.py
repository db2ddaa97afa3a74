"""Races inside a ``nowait`` chain: two worksharing loops with no barrier between them.

OpenMP runs the same iteration of two such loops on the same thread only for
static schedules with equal trip counts and chunks; any other pair of
iterations may run on two threads at once. So a chain is race-free as written
only when every element one loop writes and the other touches is touched at
the same iteration (counted from each loop's start), and the trip counts are
equal. The second loop may run in a later repetition of the sequential loops
around both inside the region (a plane loop inside a time loop reads the
plane before): the variables of those loops are free on its side. isl decides
the question exactly, as for a loop's own carried dependences (``deps``).
"""

from __future__ import annotations

import islpy as isl

from autotune.analysis.proof import poly
from autotune.analysis.proof.deps import delinearise, set_text, shared_pairs
from autotune.analysis.proof.facts import Bound, Ref
from autotune.analysis.proof.isltext import Names, domain_text


class _Repeated(Names):
    """The second loop's identifiers: the sequential loops around it are free too."""

    def __init__(self, suffix: str, free: set[str]) -> None:
        super().__init__(suffix)
        self.free = free

    def __call__(self, sym: str) -> str:
        if sym not in self.free:
            return super().__call__(sym)
        name = f"{sym}{self.suffix}"
        if name not in self.dims:
            self.dims.append(name)
        return name


def chain_races(
    first: list[Ref], second: list[Ref], distributed: int, repeated: set[str] | None
) -> bool:
    """Whether some iteration of ``first`` and another iteration of ``second`` may
    touch one shared element, one of them writing, or their trip counts may differ
    (so that even one iteration may run on two threads). ``repeated``: the parameters
    of the sequential loops around the second inside the region (None: all of them).
    Anything not analysable counts as a race."""
    for a, b in shared_pairs(first, second):
        if a.index is None or b.index is None or len(a.index) != len(b.index):
            return True
        if len(a.domain) < distributed or len(b.domain) < distributed:
            return True
        free = {g.sym for g in b.given if repeated is None or g.sym in repeated}
        pairs = list(zip(a.domain[:distributed], b.domain[:distributed], strict=True))
        if not all(_same_trips(x, y, free) for x, y in pairs):
            return True
        if not _apart_empty(a, b, pairs, free):
            return True
    return False


def _same_trips(x: Bound, y: Bound, free: set[str]) -> bool:
    """Equal trip counts in every run: the same span, in no variable of a sequential loop
    the second may run in another repetition of (``i < t`` then ``i < t + 1``)."""
    if x.step is None or x.step != y.step or x.defined or y.defined:
        return False
    if None in (x.lower, x.upper, y.lower, y.upper):
        return False
    span_x = poly.add(x.upper, x.lower, -1)
    span_y = poly.add(y.upper, y.lower, -1)
    return span_x == span_y and not (poly.symbols(span_x) & free)


def _number(b: Bound, names: Names) -> str | None:
    """The iteration's number from the loop's start, as isl text (steps are equal)."""
    base = b.start if b.start is not None else (b.lower if (b.step or 0) > 0 else b.upper)
    if base is None or not poly.is_affine(base):
        return None
    v, s = names(b.sym), poly.to_isl(base, names)
    return f"({v} - ({s}))" if (b.step or 0) > 0 else f"(({s}) - {v})"


def _apart_empty(a: Ref, b: Ref, pairs: list[tuple[Bound, Bound]], free: set[str]) -> bool:
    """No element is touched by both at two different iterations (``free``: the
    sequential loops' parameters that are the second's own)."""
    na = Names("_a")
    nb = _Repeated("_b", free)
    conj = []
    for ref, names in ((a, na), (b, nb)):
        dom = domain_text(ref.domain, names, ref.given)
        if dom:
            conj.append(dom)
    for pa, pb in delinearise(a, b):
        if pa is None or pb is None or not (poly.is_affine(pa) and poly.is_affine(pb)):
            continue
        conj.append(f"{poly.to_isl(pa, na)} = {poly.to_isl(pb, nb)}")
    differ = []
    for x, y in pairs:
        qa, qb = _number(x, na), _number(y, nb)
        if qa is None or qb is None:
            return False
        differ.append(f"{qa} < {qb} or {qa} > {qb}")
    conj.append("(" + " or ".join(differ) + ")")
    try:
        return isl.Set(set_text(na, conj, nb)).is_empty()
    except isl.Error:
        return False
