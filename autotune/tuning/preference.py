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

from autotune.measure.intervals import paired_mean_interval
from autotune.models.quality import geomean_regret

DEFAULT = "extended"

Scores = dict[str, tuple[float | None, float | None]]  # loop -> (regret@5, tau)


def prefer(scores: dict[str, Scores], default: str = DEFAULT) -> tuple[str, str]:
    """(the preferred model, why), from each model's held-out (regret@5, tau) by loop."""
    if len(scores) < 2:  # too few kernels to hold one out (a calibration cut short)
        return default, f"too few kernels to compare the models on held-out ones: {default}"
    first, second = sorted(scores, key=lambda n: n != default)[:2]
    loops = sorted(set(scores[first]) & set(scores[second]))
    regret = paired_mean_interval(_diffs(scores, first, second, loops, 0, math.log1p))
    tau = paired_mean_interval(_diffs(scores, first, second, loops, 1, float))
    if regret is not None and (regret[0] > 0 or regret[1] < 0):
        winner, loser = (second, first) if regret[0] > 0 else (first, second)
    elif tau is not None and (tau[0] > 0 or tau[1] < 0):
        winner, loser = (first, second) if tau[0] > 0 else (second, first)
    else:
        figures = _figures(scores, first, second, loops)
        return default, (
            f"no difference the held-out kernels resolve ({figures} for {first} and "
            f"{second}): {default}, the default"
        )
    figures = _figures(scores, winner, loser, loops)
    return winner, f"ranked held-out kernels better than {loser} ({figures})"


def _diffs(scores, a: str, b: str, loops: list[str], k: int, f) -> list[float]:
    """f(a's figure) - f(b's figure), loop by loop, where both have one."""
    pairs = [(scores[a][lp][k], scores[b][lp][k]) for lp in loops]
    return [f(x) - f(y) for x, y in pairs if x is not None and y is not None]


def _figures(scores: dict[str, Scores], a: str, b: str, loops: list[str]) -> str:
    r = [geomean_regret([scores[n][lp][0] for lp in loops]) or 0.0 for n in (a, b)]
    t = [[scores[n][lp][1] for lp in loops if scores[n][lp][1] is not None] for n in (a, b)]
    mean = [sum(v) / len(v) if v else 0.0 for v in t]
    return (
        f"geomean regret@5 {r[0]:.1%} vs {r[1]:.1%}, mean tau {mean[0]:.2f} vs "
        f"{mean[1]:.2f} over {len(loops)} loops"
    )
