"""One node's time at an unmeasured (n, p): the skeleton predictor, made to answer.

``predict_point`` (skeletons/predictor.py) applies the paper's automatic
method choice, which may honestly refuse ("no method within epsilon: take
more measurements"). A program prediction still needs a number for every
node, so the refusal is recorded and the next, weaker rule is tried:

1. automatic choice with the default epsilon (2 %);
2. automatic choice with no epsilon, judged on the last TWO sizes when
   there are four or more (one noisy point can make a flexible method look
   good by luck; with two, a cubic needs six sizes to compete), else on the
   last one: the best method, however large its error;
3. a straight line (``lm``), which needs only two sizes.

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
            d.update({"T_n": p.t_seq.value, "T_n_method": p.t_seq.chosen_label,
                      "Abar": p.abar.value, "Abar_method": p.abar.chosen_label,
                      "direction": p.direction, "formula": p.skeleton.formula()})
        return d


def _describe(sk: Skeleton, pred: Prediction, rule: str) -> str:
    t = "measured" if pred.t_seq.measured else pred.t_seq.chosen_label
    a = "measured" if pred.abar.measured else pred.abar.chosen_label
    return f"{skeleton_name(sk)}: T(n) {t}, Abar {a}{rule}"


def extrapolate(rows: Sequence[tuple[float, int, float]], skeleton: Skeleton, n: float,
                p: int) -> Estimate:
    """T(n, p) for one node from its (n, p, seconds) rows, by the first rule that answers."""
    clean = [(a, b, max(t, 0.0)) for a, b, t in rows]
    notes = []
    if any(t < 0 for _, _, t in rows):
        notes.append("negative remainders (timer noise) counted as zero")
    if len({a for a, _, _ in clean}) < 2 and n not in {a for a, _, _ in clean}:
        return Estimate(None, "needs the node measured at two or more sizes", notes)
    sizes = len({a for a, _, _ in clean})
    relaxed = ({"epsilon": math.inf, "holdout": 2}, " (best on the last two sizes: none "
               "within 2%)") if sizes >= 4 else ({"epsilon": math.inf},
                                                 " (best in training: none within 2%)")
    attempts = (({}, ""), relaxed, ({"method": "lm"}, " (straight line: too few sizes for a "
                                                      "choice)"))
    for kwargs, rule in attempts:
        try:
            pred = predict_point(clean, skeleton, n, p, **kwargs)
        except UserError as exc:
            notes.append(exc.message)
            continue
        if pred.ok and pred.time is not None and math.isfinite(pred.time):
            return Estimate(max(pred.time, 0.0), _describe(skeleton, pred, rule), notes, pred)
        notes.append(pred.failure or "no estimate")
        notes[:] = list(dict.fromkeys(notes))
    near = sorted((a, t) for a, b, t in clean if b == p)
    if near:
        a, t = min(near, key=lambda at: (abs(at[0] - n), -at[0]))
        return Estimate(t, f"{skeleton_name(skeleton)}: no trend could be extrapolated; "
                        f"the value measured at n={a:g}, p={p}", notes)
    return Estimate(None, "no method could extrapolate this node", notes)
