"""Automatic choice of the estimation method, as in section 3 of Lobachev and Loogen.

Procedure (epsilon > 0, the measurements of one series y(x)):

1. Discard methods that produce nonsense (a negative time) at the target or
   while being checked.
2. Predict known value(s) with each method and take the relative error.
   * mode ``known``: the value at the target itself is known (the paper's
     experiments: predict a known value, then reuse the choice);
   * mode ``real-life``: the target is unknown, so the check ("training") is to
     predict the LAST ``holdout`` known points, each from the points before it.
     The paper extrapolates, so this is the honest test; the held-out x values
     are reported.
3. If some method errs by less than epsilon, pick the smallest error.
4. Otherwise, if the mean of two methods errs by less than epsilon, pick that
   mean. In ``known`` mode the two are those nearest the actual value. In real
   life the paper gives two strategies, both fixed in training: ``two-best``
   (mean of the two methods best in training) and ``three-drop-outlier`` (the
   three best in training; at prediction time drop the value farthest from the
   other two and average the rest).
5. Otherwise fail: "take more measurements" (or reconsider epsilon).

The default epsilon, 2 %, is the value consistent with every choice the paper
published: it picked ``mean`` for Gauss Abar(120, 7) although loess erred by
2.143 % (so epsilon <= 2.143 %) and lm(poly) for Karatsuba T(64000) at 1.9 %
(so epsilon > 1.9 %).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from autotune.errors import UserError
from autotune.skeletons.estimators import LABELS, METHOD_NAMES, column, make_estimator
from autotune.skeletons.judging import (
    MethodResult,
    Nonsense,
    Series,
    drop_outlier_mean,
    negative_time,
    noise_epsilon,
)
from autotune.skeletons.judging import (
    mean_result as judged_mean,
)

DEFAULT_EPSILON = 0.02
# Best effort when nothing can be checked: the simplest methods that extrapolate
# sensibly from two or three points, in this order.
FALLBACK_ORDER = ("lm", "powerlaw", "lmpoly", "spline", "loess")
MODES = ("real-life", "known")
MEAN_STRATEGIES = ("two-best", "three-drop-outlier")


@dataclass
class Choice:
    """The outcome of estimating one series at one point, with the evidence."""

    series: str
    axis: str
    x: list[float]
    y: list[float]
    at: float
    mode: str
    epsilon: float
    holdout: list[float]
    actual: float | None
    results: list[MethodResult]
    chosen: str | None
    value: float | None
    reason: str
    ok: bool
    measured: bool = False  # the value was measured, nothing was estimated
    strategy: str = "two-best"
    degree: int = 3  # lm(poly) degree used
    unchecked: bool = False  # not ok, but the best estimate is given in ``value``
    epsilon_note: str = ""  # how epsilon was set (noise-aware)

    @property
    def has_value(self) -> bool:
        """A value to use: chosen within epsilon, measured, or a marked best estimate."""
        return self.value is not None and (self.ok or self.unchecked)

    @property
    def check_error(self) -> float | None:
        """The chosen method's error on the held-out (or known) points."""
        for r in self.results:
            if r.method == self.chosen:
                return r.abs_error
        return None

    @property
    def components(self) -> list[str]:
        """The base methods behind the chosen value (two or three for a mean)."""
        for r in self.results:
            if r.method == self.chosen:
                return r.components or [r.method]
        return []

    def evaluate(self, at: Sequence[float] | np.ndarray) -> np.ndarray:
        """The chosen method refitted on all points, evaluated at ``at`` (T(n/r^d), plots)."""
        at = np.atleast_1d(np.asarray(at, dtype=float))
        if self.chosen in ("nearest", "zero") and self.value is not None:
            return np.full(at.shape, float(self.value))  # the best-effort constant
        comps = self.components
        if not comps or self.measured:
            raise ValueError("no fitted method behind this value")
        preds = [
            make_estimator(m, degree=self.degree).fit(column(self.x), self.y).predict(column(at))
            for m in comps
        ]
        if len(preds) == 3:
            return np.array([drop_outlier_mean(v) for v in zip(*preds, strict=True)])
        return np.mean(preds, axis=0)

    @property
    def chosen_label(self) -> str:
        if self.chosen is None:
            return "-"
        return LABELS.get(self.chosen, self.chosen)

    def to_dict(self) -> dict:
        return {
            "series": self.series,
            "axis": self.axis,
            "x": self.x,
            "y": self.y,
            "at": self.at,
            "mode": self.mode,
            "epsilon": self.epsilon,
            "held_out": self.holdout,
            "actual": self.actual,
            "chosen": self.chosen_label,
            "value": self.value,
            "reason": self.reason,
            "ok": self.ok,
            "measured": self.measured,
            "unchecked": self.unchecked,
            "epsilon_note": self.epsilon_note or None,
            "methods": [r.to_dict() for r in self.results],
        }


def measured_choice(
    series: str, axis: str, at: float, value: float, reason: str = "measured"
) -> Choice:
    """A series value that is measured (or zero by definition): no method involved."""
    return Choice(
        series,
        axis,
        [],
        [],
        at,
        "measured",
        0.0,
        [],
        value,
        [],
        "measured",
        value,
        reason,
        True,
        measured=True,
    )


# Over 60 lines: the automatic method choice of the paper, step by step.
def choose(
    x: Sequence[float],
    y: Sequence[float],
    at: float,
    *,
    series: str = "y",
    axis: str = "x",
    method: str = "auto",
    mode: str = "real-life",
    epsilon: float = DEFAULT_EPSILON,
    holdout: int = 1,
    mean_strategy: str = "two-best",
    actual: float | None = None,
    nonsense: Nonsense = negative_time,
    degree: int = 3,
    methods: Sequence[str] = METHOD_NAMES,
    noise: Sequence[float] | None = None,
    best_effort: bool = False,
) -> Choice:
    """Estimate ``y(at)`` from the points with ``method`` (``auto`` applies section 3).

    ``noise`` (absolute, one per point) raises epsilon to what the held-out
    points' repetition spread allows. ``best_effort``: when no method passes (or
    nothing can be checked), still return the best estimate, marked
    ``unchecked``, instead of a bare failure (the paper's protocol fails).
    """
    if mode not in MODES:
        raise UserError(f"unknown selection mode {mode!r}; choose from {', '.join(MODES)}")
    if mean_strategy not in MEAN_STRATEGIES:
        raise UserError(f"unknown mean strategy {mean_strategy!r}")
    if method not in ("auto", "mean", *methods):
        raise UserError(f"unknown method {method!r}; choose auto, mean or {', '.join(methods)}")
    if mode == "known" and actual is None:
        raise UserError(
            f"{series}: choosing on the known value needs the measured value at {axis}={at:g}"
        )
    s = Series(x, y, at, axis, mode, holdout, actual, nonsense, degree)
    epsilon, eps_note = noise_epsilon(epsilon, noise, s.order, s.ys, s.check_idx)
    results = [s.judge(m) for m in methods]
    ranked = sorted((r for r in results if r.abs_error is not None), key=lambda r: r.abs_error)
    mean_result = judged_mean(ranked, mode, mean_strategy, actual, s.scale, s.ys, s.check_idx)
    if mean_result is not None:
        results.append(mean_result)
    chosen, value, reason, ok, unchecked = _decide(
        s, results, ranked, mean_result, method, methods, epsilon, best_effort
    )
    return Choice(
        series,
        axis,
        s.xs.tolist(),
        s.ys.tolist(),
        float(at),
        mode,
        epsilon,
        s.check_x,
        actual,
        results,
        chosen,
        value,
        reason,
        ok,
        strategy=mean_strategy,
        degree=degree,
        unchecked=unchecked,
        epsilon_note=eps_note,
    )


Decision = tuple[str | None, float | None, str, bool, bool]  # chosen, value, reason, ok, unchecked


# Over 60 lines: the decision table of the method choice, one rule per branch.
def _decide(
    s: Series,
    results: list[MethodResult],
    ranked: list[MethodResult],
    mean_result: MethodResult | None,
    method: str,
    methods: Sequence[str],
    epsilon: float,
    best_effort: bool,
) -> Decision:
    """Section 3's choice among the judged methods (or the one requested)."""
    if method in methods:
        r = next(r for r in results if r.method == method)
        if not r.usable:
            return None, None, f"{r.label} unusable: {r.note}", False, False
        return method, r.estimate, f"{r.label} requested", True, False
    if method == "mean":
        if mean_result is None or mean_result.estimate is None:
            return None, None, "mean needs two methods that could be checked", False, False
        return (
            mean_result.method,
            mean_result.estimate,
            f"mean requested: {mean_result.note}",
            True,
            False,
        )
    if not ranked:
        return _unchecked_fallback(s, results, best_effort)
    best = ranked[0]
    if best.abs_error < epsilon:
        return (
            best.method,
            best.estimate,
            f"smallest error on {s.judged}: {best.abs_error:.2%} < epsilon {epsilon:.0%}",
            True,
            False,
        )
    mean_err = None if mean_result is None else mean_result.abs_error
    if mean_err is not None and mean_err < epsilon:
        return (
            mean_result.method,
            mean_result.estimate,
            f"no single method within epsilon {epsilon:.0%} (best {best.label} "
            f"{best.abs_error:.2%}); {mean_result.method} errs {mean_err:.2%}",
            True,
            False,
        )
    if best_effort:
        top = mean_result if mean_err is not None and mean_err < best.abs_error else best
        return (
            top.method,
            top.estimate,
            f"UNCHECKED best estimate {top.label} (errs {top.abs_error:.2%} on "
            f"{s.judged}; no method within epsilon {epsilon:.0%}): take more measurements",
            False,
            True,
        )
    best_mean = "" if mean_err is None else f", {mean_result.method} {mean_err:.2%}"
    return (
        None,
        None,
        f"no method within epsilon {epsilon:.0%} on {s.judged} (best "
        f"{best.label} {best.abs_error:.2%}{best_mean}): take more measurements or "
        "reconsider epsilon",
        False,
        False,
    )


def _unchecked_fallback(s: Series, results: list[MethodResult], best_effort: bool) -> Decision:
    """Nothing could be checked: the simplest method that fits, else the value measured
    nearest, else no penalty, each marked UNCHECKED (only with ``best_effort``)."""
    why = (
        "too few points to hold any out"
        if s.mode == "real-life" and not s.check_idx
        else "no method could be fitted and checked"
    )
    failed: Decision = (None, None, f"{why}: take more measurements", False, False)
    if not best_effort:
        return failed
    usable = {r.method: r for r in results if r.usable}
    pick = next((m for m in FALLBACK_ORDER if m in usable), None)
    if pick is not None:
        r = usable[pick]
        return (
            pick,
            r.estimate,
            f"UNCHECKED best estimate ({why}): {r.label}, the simplest "
            "method that fits; take more measurements",
            False,
            True,
        )
    if len(s.xs):
        near = int(np.argmin(np.abs(s.xs - s.at)))
        for name, held, what in (
            ("nearest", float(s.ys[near]), f"the value at {s.axis}={s.xs[near]:g} held constant"),
            ("zero", 0.0, "zero (no penalty: ideal speedup, a lower bound)"),
        ):
            if s.nonsense(s.at, held) is None:
                return (
                    name,
                    held,
                    f"UNCHECKED best estimate ({why}; no method's trend gives "
                    f"a sensible value): {what}; take more measurements",
                    False,
                    True,
                )
    return failed
