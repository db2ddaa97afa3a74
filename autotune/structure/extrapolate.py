"""One node's time at an unmeasured (n, p): the skeleton predictor, made to answer.

``predict_point`` (skeletons/predictor.py) applies the paper's automatic
method choice, which may honestly refuse ("no method within epsilon: take
more measurements"). A program prediction still needs a number for every
node, so the refusal is recorded and a fixed fallback is used:

1. automatic choice with the default epsilon (2 %), as in the paper;
2. otherwise a straight line (``lm``) over the measured sizes, for the series
   that failed (T(n) or Abar) and then for both. When no method
   predicts the held-out size within epsilon the data cannot tell the
   methods apart, and the flexible ones (spline, cubic lm(poly)) amplify the
   noise when extrapolating far beyond the grid (on a busy 2-core machine we
   saw +80 % to +480 % from them where the line erred by 5-15 %); the line's
   known bias is to under-predict convex growth (n^2, n log n).
3. when even that fails, the value measured nearest the target size.

The rule that produced the number is part of the answer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from autotune.errors import UserError
from autotune.skeletons.predictor import Prediction, predict_point
from autotune.skeletons.skeleton import Skeleton

# A sequential task (a section, the code between parallel nodes): W(n, p) = T(n),
# not split over p; the penalty Abar(n, p) absorbs what co-running threads cost it.
TASK = Skeleton("farm", tasks=1)


def skeleton_name(sk: Skeleton) -> str:
    if sk == TASK:
        return "task"
    if sk.kind == "dc":
        return f"skeleton dc(r={sk.branching},d={sk.depth})" if sk.branching else "skeleton dc"
    return {"parmap": "parMap"}.get(sk.kind, sk.kind)


@dataclass
class Estimate:
    """A predicted time with the rule and the method choices behind it."""

    value: float | None
    how: str
    notes: list[str] = field(default_factory=list)
    prediction: Prediction | None = None

    def to_dict(self) -> dict:
        d: dict[str, object] = {"value": self.value, "how": self.how, "notes": self.notes}
        if self.prediction is not None:
            p = self.prediction
            d.update(
                {
                    "T_n": p.t_seq.value,
                    "T_n_method": p.t_seq.chosen_label,
                    "Abar": p.abar.value,
                    "Abar_method": p.abar.chosen_label,
                    "direction": p.direction,
                    "formula": p.skeleton.formula(),
                }
            )
        return d


def _describe(sk: Skeleton, pred: Prediction, rule: str) -> str:
    t = "measured" if pred.t_seq.measured else pred.t_seq.chosen_label
    a = "measured" if pred.abar.measured else pred.abar.chosen_label
    return f"{skeleton_name(sk)}: T(n) {t}, Abar {a}{rule}"


def extrapolate(
    rows: Sequence[tuple[float, int, float]], skeleton: Skeleton, n: float, p: int
) -> Estimate:
    """T(n, p) for one node from its (n, p, seconds) rows, by the first rule that answers."""
    clean = [(a, b, max(t, 0.0)) for a, b, t in rows]
    notes = []
    if any(t < 0 for _, _, t in rows):
        notes.append("negative remainders (timer noise) counted as zero")
    if len({a for a, _, _ in clean}) < 2 and n not in {a for a, _, _ in clean}:
        return Estimate(None, "needs the node measured at two or more sizes", notes)
    attempts: list[tuple[dict, str]] = [({}, "")]
    while attempts:
        kwargs, rule = attempts.pop(0)
        try:
            pred = predict_point(clean, skeleton, n, p, **kwargs)
        except UserError as exc:
            notes.append(exc.message)
            pred = None
        if pred is not None and pred.ok and pred.time is not None and math.isfinite(pred.time):
            return Estimate(max(pred.time, 0.0), _describe(skeleton, pred, rule), notes, pred)
        if pred is not None:
            notes.append(pred.failure or "no estimate")
        notes[:] = list(dict.fromkeys(notes))
        if not kwargs:  # the paper's choice refused: a line only for the series that failed
            if pred is not None and pred.t_seq.ok and not pred.abar.ok:
                attempts.append(
                    ({"method_abar": "lm"}, " (Abar: straight line, no method within 2%)")
                )
            elif pred is not None and pred.abar.ok and not pred.t_seq.ok:
                attempts.append(
                    (
                        {"method": "lm", "method_abar": "auto"},
                        " (T(n): straight line, no method within 2%)",
                    )
                )
            attempts.append(({"method": "lm"}, " (straight line: no method within 2%)"))
    near = sorted((a, t) for a, b, t in clean if b == p)
    if near:
        a, t = min(near, key=lambda at: (abs(at[0] - n), -at[0]))
        return Estimate(
            t,
            f"{skeleton_name(skeleton)}: no trend could be extrapolated; "
            f"the value measured at n={a:g}, p={p}",
            notes,
        )
    return Estimate(None, "no method could extrapolate this node", notes)
