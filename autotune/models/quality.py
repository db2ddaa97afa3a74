"""How good a ranking was, judged against measurements of the same variants.

Every run of the model that has measured times next to predicted ones can
report these, so a user sees whether pruning to the model's top k was safe:

- Kendall tau (scipy's tau-b) between predicted and measured times;
- mean absolute relative error |predicted - measured| / measured;
- regret@k = (best measured time among the model's top k) / (best measured
  time overall) - 1; 0 means the model's top k contained the best variant;
- best_pruned: the true best variant was not in the model's top k.

Variants without a measurement (None or NaN, i.e. pruned) are left out of tau
and the error; "best measured overall" is then the best of what was measured,
so regret and best_pruned are only conclusive after an exhaustive sweep (the
report's ``exhaustive`` flag says whether every variant was measured).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import numpy as np


@dataclass
class QualityReport:
    """Ranking quality of one loop's predictions (or a pool of loops)."""

    target: str  # "wall" | "cpu": what the times are
    n_variants: int
    n_measured: int
    k: int  # the budget best_pruned refers to
    kendall_tau: float | None
    mean_abs_rel_error: float | None
    regret: dict[int, float | None] = field(default_factory=dict)  # k -> regret@k
    best_pruned: bool | None = None
    exhaustive: bool = False
    # the same error after scaling every prediction by measured / predicted
    # original: what is left once the loop's level is known from one run
    mean_abs_rel_error_anchored: float | None = None

    def to_dict(self) -> dict:
        d = asdict(self)
        d["regret"] = {str(k): v for k, v in self.regret.items()}
        for key in ("kendall_tau", "mean_abs_rel_error", "mean_abs_rel_error_anchored"):
            if d[key] is not None and not math.isfinite(d[key]):
                d[key] = None
        return d


def _arrays(
    predicted: Sequence[float], measured: Sequence[float | None]
) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(predicted, dtype=float)
    m = np.asarray([np.nan if v is None else v for v in measured], dtype=float)
    if p.shape != m.shape or p.ndim != 1:
        raise ValueError("predicted and measured must be 1-D and of equal length")
    return p, m


def model_order(predicted: Sequence[float]) -> np.ndarray:
    """Variant indices from fastest to slowest predicted (stable on ties)."""
    return np.argsort(np.asarray(predicted, dtype=float), kind="stable")


def kendall_tau(predicted: Sequence[float], measured: Sequence[float | None]) -> float | None:
    """Kendall tau-b over the measured variants; None when fewer than 2."""
    p, m = _arrays(predicted, measured)
    ok = np.isfinite(m)
    if ok.sum() < 2:
        return None
    if np.ptp(p[ok]) == 0 or np.ptp(m[ok]) == 0:
        return 0.0  # one side constant: no ordering information
    from scipy.stats import kendalltau

    return float(kendalltau(p[ok], m[ok]).statistic)


def mean_abs_rel_error(
    predicted: Sequence[float], measured: Sequence[float | None]
) -> float | None:
    p, m = _arrays(predicted, measured)
    ok = np.isfinite(m) & (m > 0)
    if not ok.any():
        return None
    return float(np.mean(np.abs(p[ok] - m[ok]) / m[ok]))


def regret_at_k(
    predicted: Sequence[float], measured: Sequence[float | None], k: int
) -> float | None:
    """best measured among the model's top k / best measured overall - 1 (None if none)."""
    if k < 1:
        raise ValueError("k must be >= 1")
    p, m = _arrays(predicted, measured)
    if not np.isfinite(m).any() or np.nanmin(m) <= 0:
        return None  # nothing measured, or a loop the run never reached (0 s)
    top = model_order(p)[:k]
    top_m = m[top]
    if not np.isfinite(top_m).any():
        return None
    return float(np.nanmin(top_m) / np.nanmin(m) - 1.0)


def best_pruned(
    predicted: Sequence[float], measured: Sequence[float | None], k: int
) -> bool | None:
    """True when the fastest measured variant is outside the model's top k."""
    p, m = _arrays(predicted, measured)
    if not np.isfinite(m).any():
        return None
    best = int(np.nanargmin(m))
    return best not in set(model_order(p)[:k].tolist())


def evaluate(
    predicted: Sequence[float],
    measured: Sequence[float | None],
    k: int = 5,
    regret_ks: Sequence[int] = (1, 5),
    target: str = "wall",
    anchor: float | None = None,
) -> QualityReport:
    """Quality report for one loop: predicted and measured times of the same variants.

    ``anchor`` (measured / predicted time of the original) also gives the error
    of the predictions scaled by it.
    """
    p, m = _arrays(predicted, measured)
    n_measured = int(np.isfinite(m).sum())
    ks = sorted(set(regret_ks) | {k})
    return QualityReport(
        target=target,
        n_variants=len(p),
        n_measured=n_measured,
        k=k,
        kendall_tau=kendall_tau(p, m),
        mean_abs_rel_error=mean_abs_rel_error(p, m),
        regret={kk: regret_at_k(p, m, kk) for kk in ks},
        best_pruned=best_pruned(p, m, k),
        exhaustive=n_measured == len(p),
        mean_abs_rel_error_anchored=(
            None
            if anchor is None or not math.isfinite(anchor)
            else mean_abs_rel_error(p * anchor, m)
        ),
    )


def geomean_regret(regrets: Sequence[float | None]) -> float | None:
    """Geometric mean of (1 + regret) minus 1 over loops, ignoring None."""
    vals = [1.0 + r for r in regrets if r is not None]
    if not vals:
        return None
    return float(np.exp(np.mean(np.log(vals))) - 1.0)
