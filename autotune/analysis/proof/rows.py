"""Whether a reference's subscripts stay in their rows.

The dependence test compares multi-dimensional subscripts dimension by dimension
(``x[i][j]`` against ``x[i'][j']``), which is only the memory's truth while every
subscript after the first stays in ``[0, size)`` of its dimension: ``img[i][j + 1]``
with ``j`` up to ``W - 1`` writes ``img[i + 1][0]``. C calls such a subscript undefined,
but the memory is contiguous and compilers build it.
"""

from __future__ import annotations

import islpy as isl

from autotune.analysis.proof import budget, poly
from autotune.analysis.proof.facts import Bound, Ref
from autotune.analysis.proof.isltext import Names, domain_text


def leaves_row(r: Ref) -> bool:
    """A subscript after the first leaves ``[0, size)`` of its dimension: ``a[i][j + 1]``
    with ``j < M``. Subscripts are compared dimension by dimension, which holds only while
    each stays in its row. Decided where the loops around it have constant bounds (the
    subscript's least and greatest values then bound it exactly); with bounds in the sizes
    the subscripts are taken to stay in their rows, as C requires, unless one is below 0
    at every size (``j - 1`` from ``j = 0``), whatever the row's length."""
    if not r.inner or r.index is None:
        return False
    ranges = _constant_ranges(r.domain)
    for sub, size in zip(r.index[1:], r.inner, strict=False):
        if sub is None or not poly.is_affine(sub):
            continue
        if size is None:  # a row of unknown length: below 0 is out of it all the same
            if _below_whenever_run(r, sub):
                return True
            continue
        if not isinstance(size, int):  # ``a[i][j + 1]`` of a ``double a[n][n]``, j < n
            if _may_leave(r, sub, size):
                return True
            continue
        if any(s.startswith("q") for s in poly.symbols(sub)):
            if _may_leave(r, sub, size):  # ``a[k / M][k % M]``: isl bounds the remainder
                return True
            continue
        if _outside(r, sub, size, ranges):
            return True
    return False


def leaves_array(r: Ref) -> bool:
    """The first subscript leaves a declared array: ``c[i - 1]`` from ``i = 0`` of a
    ``double c[N]`` reads or writes another object (C calls it undefined; gcc builds
    it, and the memory may be an array the loop writes). Decided as a row's subscript
    of constant length is (``leaves_row``), for subscripts in the loops' variables and
    the sizes alone."""
    if r.outer is None or not r.index or r.index[0] is None or not poly.is_affine(r.index[0]):
        return False
    if not _in_loops_and_sizes(r, r.index[0]):
        return False  # a value read or hashed (``hist[x % B]``): not the proof's to bound
    return _outside(r, r.index[0], r.outer, _constant_ranges(r.domain))


def _in_loops_and_sizes(r: Ref, sub: poly.Poly) -> bool:
    """``sub`` is made of loop variables whose bounds are made of the same and of sizes:
    ``k`` from ``rowstr[j]`` (an array's value) is no such variable."""
    loops = {b.sym: b for b in r.domain}
    todo, seen = list(poly.symbols(sub)), set()
    while todo:
        s = todo.pop()
        if s in seen or s.startswith("P"):
            continue
        seen.add(s)
        b = loops.get(s)
        if b is None or b.defined or b.lower is None or b.upper is None:
            return False
        todo += poly.symbols(b.lower) | poly.symbols(b.upper)
    return True


def _outside(r: Ref, sub: poly.Poly, size: int, ranges: dict[str, tuple[int, int]]) -> bool:
    """A subscript of a dimension of constant length leaves ``[0, size)``: over loops of
    constant bounds, where its least or greatest value does and the branches it is
    under do not keep it in (``if (j > 0)`` around ``j - 1``); with bounds in the
    sizes, only where it is below 0 at every size."""
    span = _span(sub, ranges)
    if span is not None and (span[0] < 0 or span[1] > size - 1):
        return not r.given or _may_leave(r, sub, size)
    # ``b[i][j - 1]`` from ``j = 0``, ``j < m``: the row before, at any m
    return span is None and _below_whenever_run(r, sub)


def _below_whenever_run(r: Ref, sub: poly.Poly) -> bool:
    """The subscript is negative at some iteration for every value of the sizes at which
    the loops around it run: ``j - 1`` for ``j`` from 0 (the previous row's last element,
    whatever ``m`` bounds ``j``). A lower bound in the sizes (``j`` from ``lo``) is taken
    to keep it in the row, as C requires; so is the upper end of a constant-length row
    against bounds in the sizes (``j < m`` in a row of 100)."""
    budget.check()
    names = Names("")
    expr = poly.to_isl(sub, names)
    runs = domain_text(r.domain, names, r.given)
    params, dims = ", ".join(sorted(names.params)), ", ".join(names.dims)
    where = f" : {runs}" if runs else ""
    below = f" : {runs + ' and ' if runs else ''}{expr} < 0"
    key = (params, dims, where, below)
    if key not in _BELOW:  # loops repeat their patterns: each question asked of isl once
        try:
            run = isl.Set(f"[{params}] -> {{ [{dims}]{where} }}").params()
            neg = isl.Set(f"[{params}] -> {{ [{dims}]{below} }}").params()
            _BELOW[key] = not run.is_empty() and run.is_subset(neg)
        except isl.Error:
            _BELOW[key] = True  # undecided: the rows are not compared (as _may_leave)
    return _BELOW[key]


_BELOW: dict[tuple[str, str, str, str], bool] = {}


def _may_leave(r: Ref, sub: poly.Poly, size: int | poly.Poly) -> bool:
    """A subscript may leave ``[0, size)`` for some sizes and some iteration: ``k % M``
    stays in a row of ``M``, ``k % 8`` leaves a row of 4 (quotients); ``j + 1`` for
    ``j < n`` leaves a variable-length row of ``n``, ``j + 1`` for ``j < n - 1`` does not."""
    budget.check()
    names = Names("")
    expr = poly.to_isl(sub, names)
    conj = [c for c in [domain_text(r.domain, names, r.given)] if c]
    length = poly.const(size) if isinstance(size, int) else size
    top = poly.to_isl(poly.add(length, poly.const(-1)), names)
    conj.append(f"({expr} < 0 or {expr} > {top})")
    params, dims = ", ".join(sorted(names.params)), ", ".join(names.dims)
    text = f"[{params}] -> {{ [{dims}] : {' and '.join(conj)} }}"
    try:
        return not isl.Set(text).is_empty()
    except isl.Error:
        return True


def _constant_ranges(domain: list[Bound]) -> dict[str, tuple[int, int]]:
    """Loop variable -> (first, last) value, for loops with constant bounds that run."""
    out: dict[str, tuple[int, int]] = {}
    for b in domain:
        lo = poly.constant_of(b.lower) if b.lower is not None else None
        hi = poly.constant_of(b.upper) if b.upper is not None else None
        if lo is None or hi is None or lo > hi or b.step is None:
            continue
        step = abs(b.step)
        start = poly.constant_of(b.start) if b.start is not None else None
        if step > 1:
            if start is None:
                continue
            first = start if b.step > 0 else start - (start - lo) // step * step
            last = start + (hi - start) // step * step if b.step > 0 else start
            lo, hi = min(first, last), max(first, last)
        out[b.sym] = (lo, hi)
    return out


def _span(sub: poly.Poly, ranges: dict[str, tuple[int, int]]) -> tuple[int, int] | None:
    """Least and greatest value of an affine subscript over a box of loop values (None
    when a symbol has no constant range: a size, or a loop bounded by one)."""
    low = high = sub.get((), 0)
    for mono, coef in sub.items():
        if mono == ():
            continue
        (sym,) = mono
        if sym not in ranges:
            return None
        a, b = ranges[sym]
        low += min(coef * a, coef * b)
        high += max(coef * a, coef * b)
    return low, high
