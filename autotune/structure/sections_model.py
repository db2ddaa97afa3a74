"""``sections`` as stochastic binary composition: E[max] of the sections' times (seed 002).

The timed program records every execution of every section, so each
section's time is a sample, not one number; its first four moments feed
``compose`` (lambda fits, then E[max]). Two uses:

* ``composition_check``: at a measured point, the model's E[max] from the
  sections' moments beside the construct's measured time per execution
  (and beside the measured mean of the per-execution max, which differs from
  the model only by the independence the model assumes);
* ``predict_max``: at an unmeasured size, each section's sample is scaled to
  its predicted mean (its own size trend; spread scales with it, shape is
  kept) and composed.

The prediction uses the ``exact`` order-statistics integral on the two lambda
fits; the paper's own approximation (pointwise max of the quantile
functions, ``lambda``), the heuristic of its eq. 4 and the max of the means
are reported beside it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from autotune.structmodels.composition import METHODS, compose
from autotune.structmodels.moments import Moments
from autotune.structure.program_runs import PointRuns

METHOD = "exact"


def moments_from_raw(raw: Sequence[float]) -> Moments:
    """Mean, variance, skewness, kurtosis from the raw moments E[Y], .., E[Y^4]."""
    r1, r2, r3, r4 = raw
    var = r2 - r1 * r1
    mu3 = r3 - 3 * r1 * r2 + 2 * r1**3
    mu4 = r4 - 4 * r1 * r3 + 6 * r1 * r1 * r2 - 3 * r1**4
    return Moments(r1, var, mu3 / var**1.5, mu4 / var**2)


def max_moments(ms: Sequence[Moments]) -> dict[str, float]:
    """E[max] of independent tasks by every method (pairwise fold beyond two)."""
    out: dict[str, float] = {}
    for method in METHODS:
        cur = ms[0]
        value = cur.mean
        for i, m in enumerate(ms[1:]):
            last = i == len(ms) - 2
            c = compose(cur, m, orders=(1,) if last else (1, 2, 3, 4))
            vals = c.values[method]
            value = vals[0]
            if not last:
                cur = moments_from_raw(vals)
        out[method] = float(value)
    return out


def sample_moments(samples: Sequence[float]) -> Moments | None:
    try:
        return Moments.from_samples(np.asarray(samples, dtype=float))
    except ValueError:
        return None


def scaled(m: Moments, mean: float) -> Moments:
    """The same shape with mean ``mean``: times scale, so sd scales with the mean."""
    c = mean / m.mean if m.mean > 0 else 1.0
    return Moments(mean, m.variance * c * c, m.skewness, m.kurtosis)


@dataclass
class MaxResult:
    value: float
    how: str
    notes: list[str] = field(default_factory=list)
    details: dict[str, object] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"value": self.value, "how": self.how, "notes": self.notes, **self.details}


def predict_max(
    shape: PointRuns | None, ids: Sequence[str], means: Sequence[float], p: int
) -> MaxResult:
    """Per-execution time of the sections at the target from their predicted means."""
    if p == 1:
        return MaxResult(math.fsum(means), "one thread: the sections run in turn, sum of means")
    notes: list[str] = []
    if p < len(ids):
        notes.append(f"{len(ids)} sections on {p} threads: the max is a lower bound")
    ms = [sample_moments(shape.samples(i)) if shape else None for i in ids]
    if any(m is None for m in ms):
        notes.append("too few or identical section samples for moments: max of the means")
        return MaxResult(max(means), "max of the predicted means", notes)
    target = [scaled(m, mu) for m, mu in zip(ms, means, strict=True)]
    try:
        values = max_moments(target)
    except (ValueError, ArithmeticError) as exc:
        notes.append(f"lambda fit failed ({exc}): max of the means")
        return MaxResult(max(means), "max of the predicted means", notes)
    details = {
        "shape_point": {"n": shape.n, "p": shape.p},
        "moments": [m.to_dict() for m in target],
        "methods": values,
    }
    return MaxResult(
        values[METHOD],
        f"E[max] of {len(ids)} sections (lambda fits, {METHOD} integral)",
        notes,
        details,
    )


def composition_check(pt: PointRuns, region_id: str, ids: Sequence[str]) -> dict | None:
    """The model's E[max] from the measured section samples vs the measured construct time."""
    if pt.p < 2:
        return None
    ms = [sample_moments(pt.samples(i)) for i in ids]
    region = pt.per_execution(region_id)
    if any(m is None for m in ms) or region is None:
        return None
    try:
        values = max_moments(ms)
    except (ValueError, ArithmeticError):
        return None
    pairs = pt.paired(ids)
    observed_max = math.fsum(max(x) for x in pairs) / len(pairs) if pairs else None
    return {
        "n": pt.n,
        "p": pt.p,
        "samples": [len(pt.samples(i)) for i in ids],
        "moments": [m.to_dict() for m in ms],  # type: ignore[union-attr]
        "model": values,
        "model_method": METHOD,
        "measured_region_per_execution": region,
        "measured_mean_of_max": observed_max,
        "error_vs_region": {k: (v - region) / region for k, v in values.items()},
        "error_vs_mean_of_max": (
            {k: (v - observed_max) / observed_max for k, v in values.items()}
            if observed_max
            else None
        ),
    }
