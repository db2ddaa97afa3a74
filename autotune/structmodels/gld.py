"""Generalised lambda distribution (Ramberg-Schmeiser), fitted to four moments.

Q(u) = l1 + (u^l3 - (1-u)^l4) / l2 for u in [0, 1]. It is defined by its
quantile function, which is why seed 002 uses it: E[max(X1, X2)^k] becomes an
integral over u in [0, 1] instead of over the real line, and four moments pick
the four lambdas.

Fitting. Skewness and kurtosis depend on (l3, l4) only, so we solve those two
equations numerically in the two regions where all four moments exist and Q
is increasing: both lambdas positive (l2 > 0, bounded support) or both in
(-1/4, 0) (l2 < 0, unbounded support). The residual is screened on a grid
over both regions and every local minimum of the grid starts a bounded
least-squares solve. l2 and l1 then match variance and mean exactly. The
residual is the Euclidean norm of (skewness error, kurtosis error).

Choosing among solutions (the equations often have several): a solution is
*exact* when its residual is at most ``tol``. If exact solutions exist we take
the one with the smallest max(|l3|, |l4|), i.e. nearest the centre of the
lambda plane: for N(0,1) that is l3 = l4 = 0.1349 rather than the far roots
(5.20, 5.20) or (1.70, 74.2); for the uniform (1, 1) rather than (2, 2); far
solutions have flat or spiky shapes a task time seldom has. If none is exact
we take the smallest residual and report it: ``exact_`` is False and
``residual_`` says how far (e.g. skewness 2 with kurtosis 6 is out of reach).
Exp(1) (skewness 2, kurtosis 9), often quoted as unfittable, does have an
exact root far out, l3 = 44.58, l4 = 0.4272 (checked by quadrature in the
tests); l3 is searched up to 100 to find it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy.optimize import least_squares
from scipy.special import beta
from sklearn.base import BaseEstimator, DensityMixin

from autotune.structmodels.moments import Moments

# Lambdas closer to 0 than this lose digits to cancellation in the closed-form
# moments (the logistic limit, kurtosis 4.2, is only reached asymptotically).
_SMALL = 0.005
_POS_BOUNDS = (_SMALL, 100.0)
_NEG_BOUNDS = (-0.2499, -_SMALL)
# Screening grids: every local minimum of the residual on these seeds a solve.
_POS_GRID = np.geomspace(_POS_BOUNDS[0], _POS_BOUNDS[1], 64)
_NEG_GRID = np.linspace(_NEG_BOUNDS[0], _NEG_BOUNDS[1], 32)
_MAX_SEEDS = 12


@dataclass(frozen=True)
class ShapeSolution:
    """One root (or best approximation) of the skewness/kurtosis equations."""

    l3: float
    l4: float
    residual: float

    def to_dict(self) -> dict[str, float]:
        return {"l3": self.l3, "l4": self.l4, "residual": self.residual}


def _v(l3: float, l4: float, k: int) -> float:
    """E[(U^l3 - (1-U)^l4)^k] for U uniform: a sum of beta functions."""
    return sum(
        math.comb(k, j) * (-1) ** j * beta(l3 * (k - j) + 1.0, l4 * j + 1.0) for j in range(k + 1)
    )


# Index arrays for all beta terms of v1..v4 at once (one vectorised call).
_K = np.array([k for k in range(1, 5) for j in range(k + 1)], dtype=float)
_J = np.array([j for k in range(1, 5) for j in range(k + 1)], dtype=float)
_C = np.array([math.comb(k, j) * (-1) ** j for k in range(1, 5) for j in range(k + 1)], dtype=float)
_SPLIT = np.cumsum([k + 1 for k in range(1, 5)])[:-1]


def _shape_grid(l3: np.ndarray, l4: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Skewness and kurtosis on arrays of (l3, l4) of one region (for screening)."""
    a, b = l3[..., None], l4[..., None]
    terms = _C * beta(a * (_K - _J) + 1.0, b * _J + 1.0)
    v1, v2, v3, v4 = (t.sum(axis=-1) for t in np.split(terms, _SPLIT, axis=-1))
    var = v2 - v1 * v1
    m3 = v3 - 3 * v1 * v2 + 2 * v1**3
    m4 = v4 - 4 * v1 * v3 + 6 * v1 * v1 * v2 - 3 * v1**4
    with np.errstate(all="ignore"):
        return np.sign(l3) * m3 / var**1.5, m4 / var**2


def _seeds(skewness: float, kurtosis: float) -> list[tuple[float, float, float, float]]:
    """Local minima of the residual on each region's grid: (l3, l4, lo, hi)."""
    seeds = []
    for grid, (lo, hi) in ((_POS_GRID, _POS_BOUNDS), (_NEG_GRID, _NEG_BOUNDS)):
        l3, l4 = np.meshgrid(grid, grid, indexing="ij")
        s, k = _shape_grid(l3, l4)
        r = np.hypot(s - skewness, k - kurtosis)
        r = np.where(np.isfinite(r), r, np.inf)
        pad = np.pad(r, 1, constant_values=np.inf)
        n = len(grid)
        neighbours = np.min(
            [
                pad[1 + di : 1 + di + n, 1 + dj : 1 + dj + n]
                for di in (-1, 0, 1)
                for dj in (-1, 0, 1)
                if di or dj
            ],
            axis=0,
        )
        minima = np.argwhere((r <= neighbours) & np.isfinite(r))
        minima = sorted(minima, key=lambda ij: r[tuple(ij)])[:_MAX_SEEDS]
        seeds += [
            (float(l3[tuple(ij)]), float(l4[tuple(ij)]), lo, hi, float(r[tuple(ij)]))
            for ij in minima
        ]
    seeds.sort(key=lambda t: t[4])
    return [t[:4] for t in seeds[:_MAX_SEEDS]]


def shape_moments(l3: float, l4: float) -> tuple[float, float, float, float]:
    """(mean, variance, skewness, kurtosis) of Z = U^l3 - (1-U)^l4, signed for l2.

    Skewness is given for X = l1 + Z/l2 with the sign of l2 that makes Q
    increasing (positive region: +, negative region: -).
    """
    terms = _C * beta(l3 * (_K - _J) + 1.0, l4 * _J + 1.0)
    v1, v2, v3, v4 = (float(t.sum()) for t in np.split(terms, _SPLIT))
    var = v2 - v1 * v1
    m3 = v3 - 3 * v1 * v2 + 2 * v1**3
    m4 = v4 - 4 * v1 * v3 + 6 * v1 * v1 * v2 - 3 * v1**4
    sign = 1.0 if l3 > 0 else -1.0
    return v1, var, sign * m3 / var**1.5, m4 / var**2


@lru_cache(maxsize=256)
def solve_shape(skewness: float, kurtosis: float) -> tuple[ShapeSolution, ...]:
    """All distinct solutions found, best residual first.

    The residual is screened on a grid over both regions; each local minimum
    of the grid (up to a dozen, best first) starts a bounded least-squares
    solve.

    Cached: skewness and kurtosis are location- and scale-free, so a sweep
    that shifts or stretches one distribution reuses the same solve.
    """
    found: list[ShapeSolution] = []
    target = np.array([skewness, kurtosis])

    def resid(p: np.ndarray) -> np.ndarray:
        _, _, s, k = shape_moments(float(p[0]), float(p[1]))
        return np.array([s, k]) - target

    for a, b, lo, hi in _seeds(skewness, kurtosis):
        try:
            res = least_squares(
                resid,
                x0=[a, b],
                bounds=([lo, lo], [hi, hi]),
                xtol=1e-13,
                ftol=1e-13,
                gtol=1e-13,
                max_nfev=400,
            )
        except (ValueError, FloatingPointError):
            continue
        r = float(np.linalg.norm(res.fun))
        if math.isfinite(r):
            found.append(ShapeSolution(float(res.x[0]), float(res.x[1]), r))
    distinct: list[ShapeSolution] = []
    for s in sorted(found, key=lambda s: s.residual):
        if all(abs(s.l3 - d.l3) > 1e-3 or abs(s.l4 - d.l4) > 1e-3 for d in distinct):
            distinct.append(s)
    return tuple(distinct)


def choose_solution(solutions: tuple[ShapeSolution, ...], tol: float) -> ShapeSolution:
    """The module's rule: exact and nearest the centre, else smallest residual."""
    if not solutions:
        raise ValueError("the lambda moment equations could not be evaluated")
    exact = [s for s in solutions if s.residual <= tol]
    if exact:
        return min(exact, key=lambda s: (max(abs(s.l3), abs(s.l4)), s.residual))
    return min(solutions, key=lambda s: s.residual)


class GeneralizedLambda(DensityMixin, BaseEstimator):
    """Ramberg-Schmeiser lambda distribution; fit by moments or from samples.

    Parameters: ``tol`` is the residual (norm of skewness and kurtosis errors)
    below which a solution counts as an exact fit. Learned: ``lambdas_``
    (l1, l2, l3, l4), ``residual_``, ``exact_``, ``solutions_`` (every distinct
    root found), ``target_`` (the moments asked for).
    """

    def __init__(self, tol: float = 1e-6) -> None:
        self.tol = tol

    # ----------------------------------------------------------------- fitting
    def fit_moments(
        self, mean: float, variance: float, skewness: float = 0.0, kurtosis: float = 3.0
    ) -> GeneralizedLambda:
        target = Moments(float(mean), float(variance), float(skewness), float(kurtosis))
        sols = solve_shape(round(target.skewness, 12), round(target.kurtosis, 12))
        best = choose_solution(sols, self.tol)
        v1, var_u, _, _ = shape_moments(best.l3, best.l4)
        l2 = math.copysign(math.sqrt(var_u / target.variance), best.l3)
        self.lambdas_ = (target.mean - v1 / l2, l2, best.l3, best.l4)
        self.residual_ = best.residual
        self.exact_ = best.residual <= self.tol
        self.solutions_ = sols
        self.target_ = target
        return self

    def fit(self, X: np.ndarray, y: None = None) -> GeneralizedLambda:
        """Fit to the sample moments of X (one task time per entry)."""
        m = Moments.from_samples(np.asarray(X, dtype=float).ravel())
        return self.fit_moments(m.mean, m.variance, m.skewness, m.kurtosis)

    @classmethod
    def from_lambdas(cls, l1: float, l2: float, l3: float, l4: float) -> GeneralizedLambda:
        """A distribution with given lambdas (no fitting; residual 0 by definition)."""
        if not ((l3 > 0 and l4 > 0 and l2 > 0) or (l3 < 0 and l4 < 0 and l2 < 0)):
            raise ValueError("need l3, l4 > 0 with l2 > 0, or l3, l4 < 0 with l2 < 0")
        g = cls()
        g.lambdas_ = (float(l1), float(l2), float(l3), float(l4))
        g.residual_, g.exact_, g.solutions_ = 0.0, True, ()
        g.target_ = g.moments()
        return g

    # ------------------------------------------------------------- the family
    def quantile(
        self, u: np.ndarray | float, upper: np.ndarray | float | None = None
    ) -> np.ndarray:
        """Q(u). Pass ``upper`` = 1 - u computed without rounding near u = 1."""
        l1, l2, l3, l4 = self.lambdas_
        u = np.asarray(u, dtype=float)
        v = 1.0 - u if upper is None else np.asarray(upper, dtype=float)
        with np.errstate(divide="ignore", over="ignore"):
            return l1 + (np.power(u, l3) - np.power(v, l4)) / l2

    def density_at(self, u: np.ndarray, upper: np.ndarray | None = None) -> np.ndarray:
        """f(Q(u)) = 1 / Q'(u): the density at the u-quantile."""
        l1, l2, l3, l4 = self.lambdas_
        u = np.asarray(u, dtype=float)
        v = 1.0 - u if upper is None else np.asarray(upper, dtype=float)
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            return l2 / (l3 * np.power(u, l3 - 1) + l4 * np.power(v, l4 - 1))

    def support(self) -> tuple[float, float]:
        l1, l2, l3, _ = self.lambdas_
        if l3 > 0:
            return l1 - 1.0 / l2, l1 + 1.0 / l2
        return -math.inf, math.inf

    def cdf(self, x: np.ndarray | float) -> np.ndarray:
        """F(x) by bisection on the monotone Q (60 halvings: |error| < 1e-18)."""
        x = np.asarray(x, dtype=float)
        lo = np.zeros_like(x)
        hi = np.ones_like(x)
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            below = self.quantile(mid) <= x
            lo = np.where(below, mid, lo)
            hi = np.where(below, hi, mid)
        return 0.5 * (lo + hi)

    def raw_moment(self, k: int) -> float:
        """E[X^k], k = 1..4, from the closed form (binomial in l1 and Z/l2)."""
        l1, l2, l3, l4 = self.lambdas_
        return sum(
            math.comb(k, j) * l1 ** (k - j) * (_v(l3, l4, j) if j else 1.0) / l2**j
            for j in range(k + 1)
        )

    def moments(self) -> Moments:
        """Mean, variance, skewness, kurtosis of the fitted distribution."""
        l1, l2, l3, l4 = self.lambdas_
        v1, var_u, skew, kurt = shape_moments(l3, l4)
        return Moments(l1 + v1 / l2, var_u / l2**2, skew, kurt)

    def sample(
        self, size: int | tuple[int, ...], rng: np.random.Generator | int | None = None
    ) -> np.ndarray:
        """Draw by inversion: Q(U) with U uniform from a numpy Generator."""
        gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        return self.quantile(gen.random(size))

    def to_dict(self) -> dict[str, object]:
        l1, l2, l3, l4 = self.lambdas_
        return {
            "l1": l1,
            "l2": l2,
            "l3": l3,
            "l4": l4,
            "residual": self.residual_,
            "exact": self.exact_,
            "solutions": len(self.solutions_),
            "target": self.target_.to_dict(),
        }

    def __repr__(self) -> str:
        if not hasattr(self, "lambdas_"):
            return f"GeneralizedLambda(tol={self.tol})"
        lam = ", ".join(f"{v:.6g}" for v in self.lambdas_)
        return f"GeneralizedLambda(lambdas=({lam}), residual={self.residual_:.3g})"
