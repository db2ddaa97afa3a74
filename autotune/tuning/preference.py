"""Which of the two fitted models calibration prefers, from the kernels it held out.

Every held-out loop is ranked by both models, each fitted without that loop's kernel.
A difference decides only when those loops resolve it: a paired bootstrap over the
loops (both models scored on the same ones), first of the geometric-mean regret@5,
then of the mean Kendall tau. A difference whose 95% interval holds zero is none, and
the default model is kept: the extended one (on the recorded 16-core sweeps, each
program left out, its regret@5 is 0.8% against the faithful model's 15.6%). Two
calibrations of one 2-core VM, compared by regret@5 alone, once preferred opposite
models.
"""

from __future__ import annotations

import math
import random

DEFAULT = "extended"
DRAWS = 2000

Scores = dict[str, tuple[float | None, float | None]]  # loop -> (regret@5, tau)


def prefer(scores: dict[str, Scores], default: str = DEFAULT) -> tuple[str, str]:
    """(the preferred model, why), from each model's held-out (regret@5, tau) by loop."""
    first, second = sorted(scores, key=lambda n: n != default)[:2]
    loops = sorted(set(scores[first]) & set(scores[second]))
    regret = _paired(scores, first, second, loops, 0, lambda r: math.log1p(r))
    tau = _paired(scores, first, second, loops, 1, float)
    r_a, r_b = _geomean(scores[first], loops), _geomean(scores[second], loops)
    t_a, t_b = _mean(scores[first], loops, 1), _mean(scores[second], loops, 1)
    figures = f"geomean regret@5 {{}} vs {{}}, mean tau {{}} vs {{}} over {len(loops)} loops"
    if regret is not None and (regret[0] > 0 or regret[1] < 0):
        winner, loser = (second, first) if regret[0] > 0 else (first, second)
    elif tau is not None and (tau[0] > 0 or tau[1] < 0):
        winner, loser = (first, second) if tau[0] > 0 else (second, first)
    else:
        return default, (
            "no difference the held-out kernels resolve ("
            + figures.format(f"{r_a:.1%}", f"{r_b:.1%}", f"{t_a:.2f}", f"{t_b:.2f}")
            + f" for {first} and {second}): {default}, the default"
        )
    order = (winner, loser)
    r = [_geomean(scores[n], loops) for n in order]
    t = [_mean(scores[n], loops, 1) for n in order]
    return winner, (
        f"ranked held-out kernels better than {loser} ("
        + figures.format(f"{r[0]:.1%}", f"{r[1]:.1%}", f"{t[0]:.2f}", f"{t[1]:.2f}")
        + ")"
    )


def _paired(scores, a: str, b: str, loops: list[str], k: int, f) -> tuple[float, float] | None:
    """95% interval of mean(f(a) - f(b)) over the loops, resampled (None: no pairs)."""
    diffs = [
        f(scores[a][lp][k]) - f(scores[b][lp][k])
        for lp in loops
        if scores[a][lp][k] is not None and scores[b][lp][k] is not None
    ]
    if len(diffs) < 2:
        return None
    rng = random.Random(len(diffs))
    means = sorted(sum(rng.choice(diffs) for _ in diffs) / len(diffs) for _ in range(DRAWS))
    return means[int(0.025 * DRAWS)], means[int(0.975 * DRAWS) - 1]


def _geomean(s: Scores, loops: list[str]) -> float:
    logs = [math.log1p(s[lp][0]) for lp in loops if s[lp][0] is not None]
    return math.expm1(sum(logs) / len(logs)) if logs else 0.0


def _mean(s: Scores, loops: list[str], k: int) -> float:
    vals = [s[lp][k] for lp in loops if s[lp][k] is not None]
    return sum(vals) / len(vals) if vals else 0.0
