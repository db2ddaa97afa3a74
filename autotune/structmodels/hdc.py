"""Hypercube divide and conquer cost model (seed 003, Saez and Printista).

T(P) = sum_{j=0}^{log2 P - 1} [max Div(size_j) + max Comb(size_j) + Ex_j]
       + max Seq(size_leaf),    Ex_j = 2 (l + K_j g)

Each user function's cost is linear in the problem sizes and fitted by least
squares from trace data (divide ~ edges M, combine ~ nodes N, sequential ~ N
and M in the paper's connected-components example). Which sizes halve per
level is a property of the algorithm, so it is a parameter (``split``): in the
example divide halves the edge list while every level merges (and exchanges)
the whole root vector of N nodes, so by default only M halves; the leaf sees
M/P edges and all N nodes. ``split=("M", "N")`` halves everything, the
literal reading of the paper's SIZE/2^j.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin

COMPONENTS = ("divide", "combine", "sequential")
DEFAULT_FEATURES: dict[str, tuple[str, ...]] = {
    "divide": ("M",),
    "combine": ("N",),
    "sequential": ("N", "M"),
}


class LinearCost(RegressorMixin, BaseEstimator):
    """t = intercept + sum coef_i * size_i, fitted by ordinary least squares.

    Learned: ``intercept_``, ``coef_`` (one per feature), ``r2_``, ``n_samples_``.
    """

    def __init__(self, features: tuple[str, ...] = ("M",)) -> None:
        self.features = features

    def fit(self, X: np.ndarray, y: np.ndarray) -> LinearCost:
        y = np.asarray(y, dtype=float).ravel()
        need = len(self.features) + 2
        if len(y) < need:
            raise ValueError(
                f"need at least {need} trace rows to fit "
                f"{' + '.join(self.features)} with an R^2, got {len(y)}"
            )
        X = np.asarray(X, dtype=float).reshape(len(y), -1)
        if X.shape[1] != len(self.features):
            raise ValueError(f"expected {len(self.features)} feature columns, got {X.shape[1]}")
        A = np.column_stack([np.ones(len(y)), X])
        beta, *_ = np.linalg.lstsq(A, y, rcond=None)
        resid = y - A @ beta
        ss_tot = float(np.sum((y - y.mean()) ** 2))
        self.intercept_ = float(beta[0])
        self.coef_ = beta[1:].astype(float)
        self.r2_ = 1.0 - float(resid @ resid) / ss_tot if ss_tot > 0 else float("nan")
        self.n_samples_ = len(y)
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=float).reshape(-1, len(self.features))
        return self.intercept_ + X @ self.coef_

    def cost(self, sizes: dict[str, float]) -> float:
        """Cost at named sizes, e.g. cost({"N": 1e6, "M": 2e6})."""
        return self.intercept_ + sum(
            c * sizes[f] for c, f in zip(self.coef_, self.features, strict=True)
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "features": list(self.features),
            "intercept": self.intercept_,
            "coef": dict(zip(self.features, self.coef_.tolist(), strict=True)),
            "r2": self.r2_,
            "n": self.n_samples_,
        }


@dataclass
class Traces:
    """Timed runs of the user functions: per component, sizes and seconds."""

    rows: dict[str, list[tuple[dict[str, float], float]]] = field(default_factory=dict)

    def add(self, component: str, sizes: dict[str, float], seconds: float) -> None:
        if component not in COMPONENTS:
            raise ValueError(f"unknown component {component!r}; expected one of {COMPONENTS}")
        self.rows.setdefault(component, []).append((sizes, seconds))

    def arrays(self, component: str, features: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        rows = self.rows.get(component, [])
        missing = [f for f in features for s, _ in rows if f not in s]
        if missing:
            raise ValueError(f"{component} traces lack size {missing[0]!r}")
        X = np.array([[s[f] for f in features] for s, _ in rows], dtype=float)
        return X.reshape(len(rows), len(features)), np.array([t for _, t in rows], dtype=float)


@dataclass
class HDCLevel:
    level: int
    sizes: dict[str, float]
    divide_s: float
    combine_s: float
    exchange_s: float


@dataclass
class HDCPrediction:
    """Per-level breakdown of one hypercube D&C prediction."""

    procs: int
    sizes: dict[str, float]
    latency: float
    gap: float
    words: float
    levels: list[HDCLevel]
    leaf_sizes: dict[str, float]
    sequential_s: float

    @property
    def communication_s(self) -> float:
        return sum(lv.exchange_s for lv in self.levels)

    @property
    def computation_s(self) -> float:
        return sum(lv.divide_s + lv.combine_s for lv in self.levels) + self.sequential_s

    @property
    def total_s(self) -> float:
        return self.communication_s + self.computation_s

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d.update(
            communication_s=self.communication_s,
            computation_s=self.computation_s,
            total_s=self.total_s,
        )
        return d


def exchange_time(words: float, latency: float, gap: float) -> float:
    """One level's exchange with the partner: send plus receive, 2 (l + K g)."""
    return 2.0 * (latency + words * gap)


def hypercube_levels(procs: int) -> int:
    """log2 P, refusing a P that is not a power of two (no hypercube)."""
    if procs < 1 or procs & (procs - 1):
        raise ValueError(f"the hypercube needs a power-of-two processor count, got {procs}")
    return procs.bit_length() - 1


class HypercubeDC(BaseEstimator):
    """The seed-003 model; ``fit(traces)`` learns the three component costs.

    Parameters: ``split`` (sizes halved at each level), ``features`` (the
    sizes each component's cost is linear in). Learned: ``components_``.
    """

    def __init__(
        self, split: tuple[str, ...] = ("M",), features: dict[str, tuple[str, ...]] | None = None
    ) -> None:
        self.split = split
        self.features = features  # None: DEFAULT_FEATURES (resolved in fit, never shared)

    def fit(self, traces: Traces) -> HypercubeDC:
        self.features_ = {**DEFAULT_FEATURES, **(self.features or {})}
        self.components_ = {}
        for comp in COMPONENTS:
            X, y = traces.arrays(comp, self.features_[comp])
            try:
                self.components_[comp] = LinearCost(self.features_[comp]).fit(X, y)
            except ValueError as exc:
                raise ValueError(f"{comp}: {exc}") from None
        return self

    def _at(self, sizes: dict[str, float], factor: float) -> dict[str, float]:
        return {k: (v / factor if k in self.split else v) for k, v in sizes.items()}

    def predict_one(
        self,
        sizes: dict[str, float],
        procs: int,
        latency: float,
        gap: float,
        words: float | None = None,
    ) -> HDCPrediction:
        """Predict one run. ``words`` exchanged per level defaults to N (the example's
        root vector, which every level sends whole)."""
        depth = hypercube_levels(procs)
        if words is None and "N" not in sizes:
            raise ValueError("give the words exchanged per level (no size N to default to)")
        k_words = float(sizes["N"] if words is None else words)
        comp = self.components_
        levels = []
        for j in range(depth):
            at = self._at(sizes, 2.0**j)
            # Every processor runs the same function on the same size here, so
            # the max over processors is the common value.
            levels.append(
                HDCLevel(
                    j,
                    at,
                    comp["divide"].cost(at),
                    comp["combine"].cost(at),
                    exchange_time(k_words, latency, gap),
                )
            )
        leaf = self._at(sizes, float(procs))
        return HDCPrediction(
            procs, dict(sizes), latency, gap, k_words, levels, leaf, comp["sequential"].cost(leaf)
        )

    def predict(self, X: np.ndarray, latency: float, gap: float) -> np.ndarray:
        """Totals for rows (N, M, P)."""
        return np.array(
            [
                self.predict_one({"N": n, "M": m}, int(p), latency, gap).total_s
                for n, m, p in np.asarray(X, dtype=float)
            ]
        )


def relative_error(predicted: float, measured: float) -> float:
    """(predicted - measured) / measured, the sign convention of the papers."""
    if measured == 0 or not math.isfinite(measured):
        raise ValueError("measured time must be finite and non-zero")
    return (predicted - measured) / measured
