"""How each method is judged on one series: its estimate, its check, the mean.

Section 3 of Lobachev and Loogen judges a method by predicting known points:
in real life the last ``holdout`` measured points from the ones before. This
module runs that check for every method (``Series.judge``), builds the
paper's ``mean`` of the best methods, and sets a noise-aware epsilon;
``selection.choose`` decides.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from autotune.errors import UserError
from autotune.skeletons.estimators import LABELS, column, make_estimator

# With measured noise, a check error below this many times the held-out points'
# relative noise is as good as the data can tell (two standard deviations).
NOISE_MULTIPLE = 2.0

# nonsense(x, value) -> reason, or None when the value is plausible.
Nonsense = Callable[[float, float], str | None]


def negative_time(x: float, value: float) -> str | None:
    """The paper's example of nonsense: a time below zero."""
    return "negative time (nonsense)" if value < 0 else None


@dataclass
class MethodResult:
    """One method on one series: its estimate at the target and how it was judged."""

    method: str  # CLI name, or "mean(a+b)" / "mean(a,b,c-outlier)"
    estimate: float | None = None  # at the target
    error: float | None = None  # signed relative error on the known value(s) (mean if many)
    abs_error: float | None = None  # what the choice compares
    note: str = ""  # why the method was not usable or not checked
    usable: bool = False  # estimate exists and is not nonsense at the target
    checks: list[float | None] = field(default_factory=list)  # training predictions
    components: list[str] = field(default_factory=list)  # the methods a mean combines

    @property
    def label(self) -> str:
        return LABELS.get(self.method, self.method)

    def to_dict(self) -> dict:
        return {
            "method": self.label,
            "estimate": self.estimate,
            "error": self.error,
            "abs_error": self.abs_error,
            "note": self.note or None,
        }


def _fit_predict(method: str, x: np.ndarray, y: np.ndarray, at: float, degree: int) -> float:
    est = make_estimator(method, degree=degree).fit(column(x), y)
    return float(est.predict(column([at]))[0])


def _rel(value: float, actual: float, scale: float) -> float:
    if value == actual:
        return 0.0
    denom = actual if actual != 0 else scale
    return (value - actual) / abs(denom) if denom else math.inf


def drop_outlier_mean(values: Sequence[float]) -> float:
    """Mean of the two of three values that are closest together."""
    a = sorted(values)
    return (a[0] + a[1]) / 2 if a[1] - a[0] <= a[2] - a[1] else (a[1] + a[2]) / 2


class Series:
    """One series y(x) to estimate at ``at``, sorted, with the points its check holds out."""

    def __init__(
        self,
        x,
        y,
        at: float,
        axis: str,
        mode: str,
        holdout: int,
        actual: float | None,
        nonsense: Nonsense,
        degree: int,
    ) -> None:
        self.order = np.argsort(np.asarray(x, dtype=float))
        self.xs = np.asarray(x, dtype=float)[self.order]
        self.ys = np.asarray(y, dtype=float)[self.order]
        self.scale = float(np.max(np.abs(self.ys))) if len(self.ys) else 1.0
        self.at, self.axis, self.mode, self.actual = at, axis, mode, actual
        self.nonsense, self.degree = nonsense, degree
        h = max(int(holdout), 1)
        n = len(self.xs)
        self.check_idx = list(range(n - h, n)) if mode == "real-life" and n - h >= 2 else []
        self.check_x = [float(self.xs[j]) for j in self.check_idx]

    @property
    def judged(self) -> str:
        if self.mode == "known":
            return "the known value"
        return (
            f"held-out {self.axis}={', '.join(f'{v:g}' for v in self.check_x)}"
            if self.check_x
            else "nothing"
        )

    def judge(self, m: str) -> MethodResult:
        """Method ``m``'s estimate at the target and its error on the check."""
        r = MethodResult(m)
        try:
            r.estimate = _fit_predict(m, self.xs, self.ys, self.at, self.degree)
        except UserError as exc:
            r.note = exc.message
            return r
        bad = self.nonsense(self.at, r.estimate)
        if bad:
            r.note = f"{bad} at {self.axis}={self.at:g}"
            return r
        r.usable = True
        if self.mode == "known":
            r.error = _rel(r.estimate, float(self.actual), self.scale)
            r.abs_error = abs(r.error)
        elif self.check_idx:
            self._check(r, m)
        return r

    def _check(self, r: MethodResult, m: str) -> None:
        """Predict each held-out point from the points before it (real life)."""
        errs = []
        for j in self.check_idx:
            try:
                v = _fit_predict(m, self.xs[:j], self.ys[:j], float(self.xs[j]), self.degree)
            except UserError as exc:
                r.note = f"cannot be checked: {exc.message}"
                return
            bad = self.nonsense(float(self.xs[j]), v)
            if bad:
                r.note = f"{bad} when predicting {self.axis}={self.xs[j]:g}"
                return
            r.checks.append(v)
            errs.append(_rel(v, float(self.ys[j]), self.scale))
        r.error = float(np.mean(errs))
        r.abs_error = float(np.mean(np.abs(errs)))


def noise_epsilon(
    epsilon: float,
    noise: Sequence[float] | None,
    order: np.ndarray,
    ys: np.ndarray,
    check_idx: list[int],
) -> tuple[float, str]:
    """epsilon, raised to NOISE_MULTIPLE x the held-out points' relative noise."""
    if noise is None or not check_idx:
        return epsilon, ""
    nz = np.asarray(noise, dtype=float)[order]
    scale = float(np.max(np.abs(ys))) or 1.0
    rel = [float(nz[j]) / (abs(float(ys[j])) or scale) for j in check_idx]
    floor = NOISE_MULTIPLE * float(np.mean(rel))
    if floor <= epsilon:
        return epsilon, f"epsilon {epsilon:.1%} (above the points' noise)"
    return floor, (
        f"epsilon {floor:.1%}: {NOISE_MULTIPLE:g}x the held-out points' repetition "
        f"noise (given: {epsilon:.1%})"
    )


def mean_result(
    ranked: list[MethodResult],
    mode: str,
    strategy: str,
    actual: float | None,
    scale: float,
    ys: np.ndarray,
    check_idx: list[int],
) -> MethodResult | None:
    """The paper's ``mean`` for this series, judged the same way as single methods."""
    use_three = mode == "real-life" and strategy == "three-drop-outlier"
    k = 3 if use_three else 2
    if len(ranked) < k:
        return None
    chosen = ranked[:k]
    names = [r.label for r in chosen]
    if use_three:
        label = f"mean({'+'.join(names)} drop outlier)"
        estimate = drop_outlier_mean([r.estimate for r in chosen])
        preds = [drop_outlier_mean(v) for v in zip(*(r.checks for r in chosen), strict=True)]
    else:
        label = f"mean({'+'.join(names)})"
        estimate = (chosen[0].estimate + chosen[1].estimate) / 2
        preds = [(a + b) / 2 for a, b in zip(chosen[0].checks, chosen[1].checks, strict=True)]
    res = MethodResult(label, estimate=estimate, usable=True, components=[r.method for r in chosen])
    if mode == "known":
        res.error = _rel(estimate, float(actual), scale)
        res.abs_error = abs(res.error)
        res.note = f"the two methods nearest the known value: {', '.join(names)}"
    else:
        errs = [_rel(v, float(ys[j]), scale) for v, j in zip(preds, check_idx, strict=True)]
        res.error = float(np.mean(errs))
        res.abs_error = float(np.mean(np.abs(errs)))
        res.note = f"the {k} methods best in training: {', '.join(names)}"
    return res
