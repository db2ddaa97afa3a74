"""Isoefficiency (seed 001, Janovic and Hanuliak) and its empirical counterpart.

E = w / (w + h): useful work w against overhead h. Holding E fixed needs
w = C h with C = E / (1 - E). For a matrix split into square blocks each
process exchanges its four block edges per step (send and receive):
h = 8 (ts + n/sqrt(p) tw), valid only for p >= 9 (a 3x3 grid is the smallest
in which a block has four neighbours). Over all p processes the overhead is
p h = 8 p ts + 8 n sqrt(p) tw, and the paper's isoefficiency function keeps
its dominant term: w(s) = max[8 C p ts/tc, 8 C n sqrt(p) tw/tc].

Units: the paper does not give tc (time per operation). With tc = 1 the
workload is in seconds of useful work; pass tc in seconds to get operations.

Empirically (seed 000's view): T(n, p) = T(n)/p + Abar(n, p), so the total
overhead is A(n, p) = p Abar(n, p) and E(n, p) = T(n) / (T(n) + A(n, p)).
``EmpiricalIsoefficiency`` finds the smallest n holding E as p grows, from
plain callables T(n) and Abar(n, p), e.g. the skeleton predictors' estimates.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy.optimize import brentq

# Cray T3E communication constants used for the paper's Figure 7.
T3E_TS = 3e-6
T3E_TW = 0.063e-6
FIGURE7_N = 1024
FIGURE7_E = tuple(round(0.1 * i, 1) for i in range(1, 10))
BLOCK_MIN_P = 9


def efficiency(w: float, h: float) -> float:
    """E = w / (w + h)."""
    return w / (w + h)


def iso_constant(e: float) -> float:
    """C = E / (1 - E); E must lie strictly between 0 and 1."""
    if not 0.0 < e < 1.0:
        raise ValueError(f"efficiency must be strictly between 0 and 1, got {e}")
    return e / (1.0 - e)


def required_workload(e: float, h: float) -> float:
    """w = E/(1-E) h: the useful work that holds efficiency E against overhead h."""
    return iso_constant(e) * h


def _check_p(p: np.ndarray, strict: bool) -> None:
    small = p < BLOCK_MIN_P
    if np.any(small):
        msg = (
            f"the block model needs p >= {BLOCK_MIN_P} (a 3x3 grid at least), "
            f"got p = {np.asarray(p)[small].tolist()}"
        )
        if strict:
            raise ValueError(msg)
        warnings.warn(msg, stacklevel=3)


def block_overhead(
    n: float, p, ts: float = T3E_TS, tw: float = T3E_TW, strict: bool = True
) -> np.ndarray:
    """h = 8 (ts + n/sqrt(p) tw): one process's communication per step."""
    p = np.asarray(p, dtype=float)
    _check_p(p, strict)
    return 8.0 * (ts + n / np.sqrt(p) * tw)


def block_isoefficiency(
    e: float,
    n: float,
    p,
    ts: float = T3E_TS,
    tw: float = T3E_TW,
    tc: float = 1.0,
    form: str = "max",
    strict: bool = True,
) -> np.ndarray:
    """The isoefficiency workload w(p) for the block decomposition.

    ``form="max"`` is the paper's w = max[8Cp ts/tc, 8Cn sqrt(p) tw/tc];
    ``form="sum"`` is the full C p h / tc it bounds (at most twice the max).
    """
    c = iso_constant(e)
    p = np.asarray(p, dtype=float)
    _check_p(p, strict)
    startup = 8.0 * c * p * ts / tc
    transfer = 8.0 * c * n * np.sqrt(p) * tw / tc
    if form == "max":
        return np.maximum(startup, transfer)
    if form == "sum":
        return startup + transfer
    raise ValueError(f"form must be 'max' or 'sum', got {form!r}")


def crossover_p(n: float, ts: float = T3E_TS, tw: float = T3E_TW) -> float:
    """p where start-up and transfer terms are equal: sqrt(p) = n tw / ts."""
    return (n * tw / ts) ** 2


def figure7(
    ps: Sequence[float],
    efficiencies: Sequence[float] = FIGURE7_E,
    n: float = FIGURE7_N,
    ts: float = T3E_TS,
    tw: float = T3E_TW,
    tc: float = 1.0,
    form: str = "max",
) -> dict[float, np.ndarray]:
    """The curves of the paper's Figure 7: w(p) for each efficiency."""
    return {e: block_isoefficiency(e, n, ps, ts, tw, tc, form) for e in efficiencies}


# ----------------------------------------------------------------- empirical
@dataclass
class IsoPoint:
    """The problem size needed at p for efficiency E; status says if it was found."""

    p: float
    efficiency: float
    n: float | None
    status: str  # "ok", "below-range" (efficient already at n_min), "not-reached"

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


class EmpiricalIsoefficiency:
    """Isoefficiency from a sequential time T(n) and a per-PE overhead Abar(n, p)."""

    def __init__(
        self, sequential_time: Callable[[float], float], overhead: Callable[[float, float], float]
    ) -> None:
        self.sequential_time = sequential_time
        self.overhead = overhead

    def total_overhead(self, n: float, p: float) -> float:
        """A(n, p) = p Abar(n, p)."""
        return p * float(self.overhead(n, p))

    def efficiency(self, n: float, p: float) -> float:
        t = float(self.sequential_time(n))
        return t / (t + self.total_overhead(n, p))

    def _gap(self, n: float, p: float, c: float) -> float:
        # T(n) - C A(n, p) >= 0  <=>  E(n, p) >= E (for positive T + A).
        return float(self.sequential_time(n)) - c * self.total_overhead(n, p)

    def required_size(
        self, e: float, p: float, n_min: float, n_max: float, grid: int = 200
    ) -> IsoPoint:
        """Smallest n in [n_min, n_max] with E(n, p) >= e (scan in log n, then brentq)."""
        c = iso_constant(e)
        if not 0 < n_min < n_max:
            raise ValueError("need 0 < n_min < n_max")
        ns = np.geomspace(n_min, n_max, grid)
        gaps = np.array([self._gap(n, p, c) for n in ns])
        if gaps[0] >= 0:
            return IsoPoint(p, e, float(n_min), "below-range")
        up = np.nonzero((gaps[:-1] < 0) & (gaps[1:] >= 0))[0]
        if up.size == 0:
            return IsoPoint(p, e, None, "not-reached")
        i = int(up[0])
        root = brentq(
            lambda x: self._gap(math.exp(x), p, c), math.log(ns[i]), math.log(ns[i + 1]), xtol=1e-12
        )
        return IsoPoint(p, e, math.exp(root), "ok")

    def curve(self, e: float, ps: Sequence[float], n_min: float, n_max: float) -> list[IsoPoint]:
        return [self.required_size(e, p, n_min, n_max) for p in ps]


def loglog_interpolator(xs: Sequence[float], ys: Sequence[float]) -> Callable[[float], float]:
    """Piecewise power law through (x, y) points, extended by the end pieces.

    For T(n) from a table: run times are close to power laws in n, so
    straight lines in log-log extrapolate far better than in linear axes.
    """
    x = np.log(np.asarray(xs, dtype=float))
    y = np.asarray(ys, dtype=float)
    if len(x) < 2 or np.any(y <= 0) or np.any(np.diff(x) <= 0):
        raise ValueError("need at least two increasing x with positive y")
    ly = np.log(y)

    def f(v: float) -> float:
        lv = math.log(v)
        i = int(np.clip(np.searchsorted(x, lv) - 1, 0, len(x) - 2))
        t = (lv - x[i]) / (x[i + 1] - x[i])
        return float(math.exp(ly[i] + t * (ly[i + 1] - ly[i])))

    return f


def grid_interpolator(
    ns: Sequence[float], ps: Sequence[float], values: np.ndarray
) -> Callable[[float, float], float]:
    """Abar(n, p) from a full grid: bilinear in (log n, log p), linear beyond the edges.

    Abar may be zero or negative (superlinear runs), so values stay linear.
    """
    ln = np.log(np.asarray(ns, dtype=float))
    lp = np.log(np.asarray(ps, dtype=float))
    v = np.asarray(values, dtype=float)
    if v.shape != (len(ln), len(lp)) or len(ln) < 2 or len(lp) < 2:
        raise ValueError("values must be a len(ns) x len(ps) grid with at least 2 x 2 points")

    def axis(grid: np.ndarray, x: float) -> tuple[int, float]:
        i = int(np.clip(np.searchsorted(grid, x) - 1, 0, len(grid) - 2))
        return i, (x - grid[i]) / (grid[i + 1] - grid[i])

    def f(n: float, p: float) -> float:
        i, a = axis(ln, math.log(n))
        j, b = axis(lp, math.log(p))
        return float(
            (1 - a) * (1 - b) * v[i, j]
            + a * (1 - b) * v[i + 1, j]
            + (1 - a) * b * v[i, j + 1]
            + a * b * v[i + 1, j + 1]
        )

    return f
