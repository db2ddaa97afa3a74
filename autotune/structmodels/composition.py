"""Moments of Y = max(X1, X2) for two independent task times (seed 002).

Four ways, from crude to exact:

* ``deterministic``: E[Y^k] = max(E[X1], E[X2])^k, what static predictors use.
* ``heuristic``: the paper's eq. 4 (after Schopf and Berman): Y is the task
  with the larger mean (ties: larger second moment), so E[Y^k] = E[X_i^k].
* ``lambda``: the paper's approximation, eq. 5: fit a lambda distribution to
  each task and integrate the pointwise max of the two quantile functions,
  E[Y^k] ~ int_0^1 max(Q1(u), Q2(u))^k du. Exact when the supports are
  disjoint, worst at equal means (it returns E[X^k] for two identical tasks).
* ``exact``: the order-statistics integral on the same two fits,
  E[Y^k] = int y^k d(F1 F2) = int_0^1 Q1^k F2(Q1) du + int_0^1 Q2^k F1(Q2) du.
  Exact for the fitted distributions; its only error is the lambda fit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from scipy.optimize import brentq

from autotune.structmodels.gld import GeneralizedLambda
from autotune.structmodels.moments import Moments
from autotune.structmodels.quadrature import integrate

METHODS = ("deterministic", "heuristic", "lambda", "exact")


class QuantileDistribution(Protocol):
    """What the integrals need: a quantile function with a tail-safe form, a cdf."""

    def quantile(self, u: np.ndarray, upper: np.ndarray | None = None) -> np.ndarray: ...

    def cdf(self, x: np.ndarray) -> np.ndarray: ...

    def support(self) -> tuple[float, float]: ...


class FrozenDistribution:
    """Adapter: a frozen scipy.stats distribution as a QuantileDistribution.

    Lets the exact integral run on the true task distribution (a reference
    for benches and tests) as well as on a lambda fit.
    """

    def __init__(self, frozen) -> None:
        self.frozen = frozen

    def quantile(self, u: np.ndarray, upper: np.ndarray | None = None) -> np.ndarray:
        u = np.asarray(u, dtype=float)
        if upper is None:
            return self.frozen.ppf(u)
        return np.where(u < 0.5, self.frozen.ppf(u), self.frozen.isf(np.asarray(upper)))

    def cdf(self, x: np.ndarray) -> np.ndarray:
        return self.frozen.cdf(x)

    def support(self) -> tuple[float, float]:
        lo, hi = self.frozen.support()
        return float(lo), float(hi)


def deterministic_moment(m1: Moments, m2: Moments, k: int) -> float:
    """max(E[X1], E[X2])^k: treating the stochastic times as their means."""
    return max(m1.mean, m2.mean) ** k


def heuristic_choice(m1: Moments, m2: Moments) -> int:
    """Eq. 4: 1 if X1 is taken for Y, else 2."""
    if m1.mean > m2.mean or (m1.mean == m2.mean and m1.raw(2) > m2.raw(2)):
        return 1
    return 2


def heuristic_moment(m1: Moments, m2: Moments, k: int) -> float:
    """E[Y^k] under eq. 4: the raw moment of the chosen task."""
    return (m1 if heuristic_choice(m1, m2) == 1 else m2).raw(k)


def quantile_crossings(
    d1: QuantileDistribution, d2: QuantileDistribution, grid: int = 400
) -> list[float]:
    """u in (0, 1) where Q1(u) = Q2(u): the kinks of the pointwise max."""
    ends = np.logspace(-14, -1, 60)
    mid = np.linspace(0.1, 0.9, grid)[1:-1]
    u = np.concatenate([ends, mid, 1.0 - ends[::-1]])
    v = np.concatenate([1.0 - ends, 1.0 - mid, ends[::-1]])  # 1 - u, exact in the tails

    def diff(x: float) -> float:
        return float(d1.quantile(x) - d2.quantile(x))

    with np.errstate(all="ignore"):
        g = d1.quantile(u, v) - d2.quantile(u, v)
    roots = []
    for i in np.nonzero(np.sign(g[:-1]) * np.sign(g[1:]) < 0)[0]:
        roots.append(brentq(diff, u[i], u[i + 1], xtol=1e-15))
    return roots


def paper_max_moment(d1: QuantileDistribution, d2: QuantileDistribution, k: int) -> float:
    """Eq. 5: int_0^1 max(Q1(u), Q2(u))^k du (the paper's approximation)."""
    return integrate(
        lambda u, v: np.maximum(d1.quantile(u, v), d2.quantile(u, v)) ** k,
        quantile_crossings(d1, d2),
    )


def _support_breaks(d_outer: QuantileDistribution, d_inner: QuantileDistribution) -> list[float]:
    """u where Q_outer(u) meets a finite end of the inner support (cdf kinks)."""
    return [float(d_outer.cdf(e)) for e in d_inner.support() if np.isfinite(e)]


def exact_max_moment(d1: QuantileDistribution, d2: QuantileDistribution, k: int) -> float:
    """Order statistics: E[Y^k] = int y^k d(F1 F2), written over u in [0, 1]."""

    def half(a: QuantileDistribution, b: QuantileDistribution) -> float:
        return integrate(
            lambda u, v: a.quantile(u, v) ** k * b.cdf(a.quantile(u, v)), _support_breaks(a, b)
        )

    return half(d1, d2) + half(d2, d1)


def empirical_max_moment(s1: np.ndarray, s2: np.ndarray, k: int) -> float:
    """E[max^k] over all independent pairs of two samples, in O(n log n).

    Each x in s1 is the max against the fraction of s2 below it (ties counted
    once, on the s1 side), and symmetrically.
    """
    a, b = np.sort(np.asarray(s1, float)), np.sort(np.asarray(s2, float))
    fb_at_a = np.searchsorted(b, a, side="right") / b.size  # P(X2 <= x)
    fa_at_b = np.searchsorted(a, b, side="left") / a.size  # P(X1 < y)
    return float(np.mean(a**k * fb_at_a) + np.mean(b**k * fa_at_b))


def moment_label(k: int) -> str:
    """'E[Y]' for k = 1, else 'E[Y^k]': the keys used in tables and JSON."""
    return "E[Y]" if k == 1 else f"E[Y^{k}]"


@dataclass
class Composition:
    """Both task fits and E[Y^k] for k in ``orders`` by every method."""

    inputs: tuple[Moments, Moments]
    fits: tuple[GeneralizedLambda, GeneralizedLambda]
    orders: tuple[int, ...]
    values: dict[str, list[float]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "tasks": [
                {"moments": m.to_dict(), "lambda_fit": g.to_dict()}
                for m, g in zip(self.inputs, self.fits, strict=True)
            ],
            "orders": list(self.orders),
            "moments_of_max": {
                m: dict(zip(map(moment_label, self.orders), v, strict=True))
                for m, v in self.values.items()
            },
        }


def compose(
    m1: Moments, m2: Moments, orders: tuple[int, ...] = (1, 2), tol: float = 1e-6
) -> Composition:
    """Fit both tasks and predict E[Y^k] = E[max(X1, X2)^k] by every method."""
    if any(not 1 <= k <= 4 for k in orders):
        raise ValueError("only the first four moments of Y are defined from four of X")
    g1 = GeneralizedLambda(tol).fit_moments(m1.mean, m1.variance, m1.skewness, m1.kurtosis)
    g2 = GeneralizedLambda(tol).fit_moments(m2.mean, m2.variance, m2.skewness, m2.kurtosis)
    out = Composition((m1, m2), (g1, g2), tuple(orders))
    out.values = {
        "deterministic": [deterministic_moment(m1, m2, k) for k in orders],
        "heuristic": [heuristic_moment(m1, m2, k) for k in orders],
        "lambda": [paper_max_moment(g1, g2, k) for k in orders],
        "exact": [exact_max_moment(g1, g2, k) for k in orders],
    }
    return out
