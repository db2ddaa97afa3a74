"""Sizes a proof may take for granted, and the sizes at which a question fails.

Real codes often hold a dependence only at sizes nobody runs: NPB BT's
boundary planes ``i = 1`` and ``i = grid_points[0] - 3`` are the same plane
only when ``grid_points[0] == 4``. A proof that fails there keeps the loop as
written for every size. Instead, the isl questions that fail say at which
parameter values they fail; when those values are all small (every failure is
bounded above in some size), the loop is proved again assuming sizes above
them, and a variant runs only behind a run-time test of that assumption
(loop versioning, as compilers do for aliasing): ``if (grid_points[0] >= 6)``
the tuned loop, ``else`` the loop as written.

The state is per analysis and single-threaded: ``collecting()`` and
``assuming()`` are entered by the gate around one file's proof.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import islpy as isl

SMALL = 64  # a failure only at sizes up to this is a corner case worth a run-time test


@dataclass
class _State:
    assume: dict[str, int] = field(default_factory=dict)  # param -> lower bound
    failures: list[isl.Set] | None = None


_STATE = _State()


@contextmanager
def collecting() -> Iterator[list[isl.Set]]:
    """Record the parameter values at which each failed isl question fails."""
    saved = _STATE.failures
    _STATE.failures = []
    try:
        yield _STATE.failures
    finally:
        _STATE.failures = saved


@contextmanager
def assuming(bounds: dict[str, int]) -> Iterator[None]:
    """Answer every isl question only for parameters at these lower bounds or above."""
    saved = _STATE.assume
    _STATE.assume = dict(bounds)
    try:
        yield
    finally:
        _STATE.assume = saved


def assumed_params() -> set[str]:
    return set(_STATE.assume)


def assumed_conjuncts() -> list[str]:
    """isl constraints of the current assumption (parameters must be declared)."""
    return [f"{p} >= {k}" for p, k in sorted(_STATE.assume.items())]


def listening() -> bool:
    """Someone collects failures (the first pass of a file's gate)."""
    return _STATE.failures is not None


def failed(text_or_set: str | isl.Set) -> None:
    """A question failed: keep where (its set's parameter values), if anyone listens."""
    if _STATE.failures is None:
        return
    try:
        s = isl.Set(text_or_set) if isinstance(text_or_set, str) else text_or_set
        _STATE.failures.append(s.params())
    except isl.Error:
        _STATE.failures.append(isl.Set("{ : }"))  # unknown: fails everywhere


def param_names(failure: isl.Set) -> list[str]:
    """The size parameters a failure set is stated in."""
    n = failure.get_space().dim(isl.dim_type.param)
    return [failure.get_dim_name(isl.dim_type.param, pos) for pos in range(n)]


def lower_bounds(failures: list[isl.Set], usable: set[str]) -> dict[str, int]:
    """One lower bound per failure that is bounded above, at most ``SMALL``, in some
    usable parameter: sizes above every such bound avoid all of those failures.
    Failures at any size (or only in parameters a run-time test cannot read) are
    left out; they keep their loops as written whatever is assumed."""
    out: dict[str, int] = {}
    for f in failures:
        best: tuple[int, str] | None = None
        for pos, name in enumerate(param_names(f)):
            if name not in usable:
                continue
            top = _max_of(f, pos)
            if top is not None and top <= SMALL and (best is None or top < best[0]):
                best = (top, name)
        if best is not None:
            top, name = best
            out[name] = max(out.get(name, top + 1), top + 1)
    return out


def _max_of(params: isl.Set, pos: int) -> int | None:
    """The largest value parameter ``pos`` takes in ``params`` (None: unbounded, empty)."""
    try:
        moved = isl.Set.from_params(params).move_dims(
            isl.dim_type.set, 0, isl.dim_type.param, pos, 1
        )
        val = moved.dim_max_val(0)
    except isl.Error:
        return None
    if val.is_infty() or val.is_neginfty() or val.is_nan() or not val.is_int():
        return None
    return int(val.to_python())
