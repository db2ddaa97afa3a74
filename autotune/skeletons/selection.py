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

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from autotune.errors import UserError
from autotune.skeletons.estimators import LABELS, METHOD_NAMES, column, make_estimator

DEFAULT_EPSILON = 0.02
# With measured noise, a check error below this many times the held-out points'
# relative noise is as good as the data can tell (two standard deviations).
NOISE_MULTIPLE = 2.0
# Best effort when nothing can be checked: the simplest methods that extrapolate
# sensibly from two or three points, in this order.
FALLBACK_ORDER = ("lm", "powerlaw", "lmpoly", "spline", "loess")
MODES = ("real-life", "known")
MEAN_STRATEGIES = ("two-best", "three-drop-outlier")

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
            return np.array([_drop_outlier_mean(v) for v in zip(*preds, strict=True)])
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


def _fit_predict(method: str, x: np.ndarray, y: np.ndarray, at: float, degree: int) -> float:
    est = make_estimator(method, degree=degree).fit(column(x), y)
    return float(est.predict(column([at]))[0])


def _rel(value: float, actual: float, scale: float) -> float:
    if value == actual:
        return 0.0
    denom = actual if actual != 0 else scale
    return (value - actual) / abs(denom) if denom else math.inf


def _drop_outlier_mean(values: Sequence[float]) -> float:
    """Mean of the two of three values that are closest together."""
    a = sorted(values)
    return (a[0] + a[1]) / 2 if a[1] - a[0] <= a[2] - a[1] else (a[1] + a[2]) / 2


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
    order = np.argsort(np.asarray(x, dtype=float))
    xs = np.asarray(x, dtype=float)[order]
    ys = np.asarray(y, dtype=float)[order]
    scale = float(np.max(np.abs(ys))) if len(ys) else 1.0
    if mode == "known" and actual is None:
        raise UserError(
            f"{series}: choosing on the known value needs the measured value at {axis}={at:g}"
        )
    h = max(int(holdout), 1)
    check_idx = list(range(len(xs) - h, len(xs))) if mode == "real-life" else []
    if mode == "real-life" and len(xs) - h < 2:
        check_idx = []
    check_x = [float(xs[j]) for j in check_idx]
    epsilon, eps_note = _noise_epsilon(epsilon, noise, order, ys, check_idx)

    results: list[MethodResult] = []
    for m in methods:
        r = MethodResult(m)
        results.append(r)
        try:
            r.estimate = _fit_predict(m, xs, ys, at, degree)
        except UserError as exc:
            r.note = exc.message
            continue
        bad = nonsense(at, r.estimate)
        if bad:
            r.note = f"{bad} at {axis}={at:g}"
            continue
        r.usable = True
        if mode == "known":
            r.error = _rel(r.estimate, float(actual), scale)
        elif check_idx:
            errs = []
            for j in check_idx:
                try:
                    v = _fit_predict(m, xs[:j], ys[:j], float(xs[j]), degree)
                except UserError as exc:
                    r.note = f"cannot be checked: {exc.message}"
                    break
                bad = nonsense(float(xs[j]), v)
                if bad:
                    r.note = f"{bad} when predicting {axis}={xs[j]:g}"
                    break
                r.checks.append(v)
                errs.append(_rel(v, float(ys[j]), scale))
            else:
                r.error = float(np.mean(errs))
        if r.error is not None and r.note == "":
            r.abs_error = (
                float(
                    np.mean(
                        [
                            abs(_rel(v, float(ys[j]), scale))
                            for v, j in zip(r.checks, check_idx, strict=True)
                        ]
                    )
                )
                if mode == "real-life"
                else abs(r.error)
            )

    ranked = sorted((r for r in results if r.abs_error is not None), key=lambda r: r.abs_error)
    mean_result = _mean_result(ranked, mode, mean_strategy, actual, scale, ys, check_idx)
    if mean_result is not None:
        results.append(mean_result)

    def done(
        chosen: str | None, value: float | None, reason: str, ok: bool, unchecked: bool = False
    ) -> Choice:
        return Choice(
            series,
            axis,
            xs.tolist(),
            ys.tolist(),
            float(at),
            mode,
            epsilon,
            check_x,
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

    judged = (
        "the known value"
        if mode == "known"
        else (f"held-out {axis}={', '.join(f'{v:g}' for v in check_x)}" if check_x else "nothing")
    )
    if method in methods:
        r = next(r for r in results if r.method == method)
        if not r.usable:
            return done(None, None, f"{r.label} unusable: {r.note}", False)
        return done(method, r.estimate, f"{r.label} requested", True)
    if method == "mean":
        if mean_result is None or mean_result.estimate is None:
            return done(None, None, "mean needs two methods that could be checked", False)
        return done(
            mean_result.method, mean_result.estimate, f"mean requested: {mean_result.note}", True
        )
    if not ranked:
        why = (
            "too few points to hold any out"
            if mode == "real-life" and not check_idx
            else "no method could be fitted and checked"
        )
        usable = {r.method: r for r in results if r.usable}
        pick = next((m for m in FALLBACK_ORDER if m in usable), None)
        if best_effort and pick is not None:
            r = usable[pick]
            return done(
                pick,
                r.estimate,
                f"UNCHECKED best estimate ({why}): {r.label}, the "
                "simplest method that fits; take more measurements",
                False,
                True,
            )
        if best_effort and len(xs):
            near = int(np.argmin(np.abs(xs - at)))
            for name, held, what in (
                ("nearest", float(ys[near]), f"the value at {axis}={xs[near]:g} held constant"),
                ("zero", 0.0, "zero (no penalty: ideal speedup, a lower bound)"),
            ):
                if nonsense(at, held) is None:
                    return done(
                        name,
                        held,
                        f"UNCHECKED best estimate ({why}; no method's trend gives a "
                        f"sensible value): {what}; take more measurements",
                        False,
                        True,
                    )
        return done(None, None, f"{why}: take more measurements", False)
    best = ranked[0]
    if best.abs_error < epsilon:
        return done(
            best.method,
            best.estimate,
            f"smallest error on {judged}: {best.abs_error:.2%} < epsilon {epsilon:.0%}",
            True,
        )
    if (
        mean_result is not None
        and mean_result.abs_error is not None
        and mean_result.abs_error < epsilon
    ):
        return done(
            mean_result.method,
            mean_result.estimate,
            f"no single method within epsilon {epsilon:.0%} (best {best.label} "
            f"{best.abs_error:.2%}); {mean_result.method} errs {mean_result.abs_error:.2%}",
            True,
        )
    best_mean = (
        ""
        if mean_result is None or mean_result.abs_error is None
        else (f", {mean_result.method} {mean_result.abs_error:.2%}")
    )
    if best_effort:
        top = best
        if (
            mean_result is not None
            and mean_result.abs_error is not None
            and mean_result.abs_error < best.abs_error
        ):
            top = mean_result
        return done(
            top.method,
            top.estimate,
            f"UNCHECKED best estimate {top.label} (errs {top.abs_error:.2%} on "
            f"{judged}; no method within epsilon {epsilon:.0%}): "
            "take more measurements",
            False,
            True,
        )
    return done(
        None,
        None,
        f"no method within epsilon {epsilon:.0%} on {judged} (best {best.label} "
        f"{best.abs_error:.2%}{best_mean}): take more measurements or reconsider "
        "epsilon",
        False,
    )


def _noise_epsilon(
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


def _mean_result(
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
        estimate = _drop_outlier_mean([r.estimate for r in chosen])
        preds = [_drop_outlier_mean(v) for v in zip(*(r.checks for r in chosen), strict=True)]
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
