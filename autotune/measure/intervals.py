"""Confidence intervals of a speedup, and the rule that decides on them.

A decision "B is faster than A" is taken only when the whole confidence interval of
the ratio median(A) / median(B) lies above 1 + a margin (Hoefler and Belli, SC'15;
Georges et al., OOPSLA'07): a difference the machine cannot show is "within the
noise", however the medians fall. The interval is a percentile bootstrap of the
ratio of medians, each sample resampled on its own (the runs of A and B interleave,
so both see the same machine state); the generator is seeded, so the same runs
always give the same interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

LEVEL = 0.95
RESAMPLES = 2000
MARGIN = 0.03  # a speedup must clear 3% at the interval's lower end


@dataclass(frozen=True)
class RatioInterval:
    """median(A) / median(B) with its confidence interval (> 1: B is faster)."""

    low: float
    ratio: float
    high: float
    level: float = LEVEL

    def faster(self, margin: float = MARGIN, over: float = 1.0) -> bool:
        """B faster than ``over`` times A's speed, beyond the noise and the margin."""
        return self.low > over * (1.0 + margin)

    def slower(self, margin: float = MARGIN) -> bool:
        return self.high < 1.0 / (1.0 + margin)

    def text(self) -> str:
        return f"{self.ratio:.3f}x [{self.low:.3f}, {self.high:.3f}] ({self.level:.0%} interval)"

    def to_dict(self) -> dict:
        return {"ratio": self.ratio, "low": self.low, "high": self.high, "level": self.level}


def ratio_interval(
    a: Sequence[float], b: Sequence[float], level: float = LEVEL, resamples: int = RESAMPLES
) -> RatioInterval | None:
    """The interval of median(a) / median(b); None with fewer than two runs of either."""
    xa = np.asarray([t for t in a if t and t > 0], dtype=float)
    xb = np.asarray([t for t in b if t and t > 0], dtype=float)
    if len(xa) < 2 or len(xb) < 2:
        return None
    rng = np.random.default_rng(len(xa) * 1009 + len(xb))
    ma = np.median(xa[rng.integers(0, len(xa), (resamples, len(xa)))], axis=1)
    mb = np.median(xb[rng.integers(0, len(xb), (resamples, len(xb)))], axis=1)
    ratios = ma / mb
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(ratios, [tail, 1.0 - tail])
    return RatioInterval(float(low), float(np.median(xa) / np.median(xb)), float(high), level)


def difference_interval(
    a: Sequence[float], b: Sequence[float], level: float = LEVEL, resamples: int = RESAMPLES
) -> tuple[float, float, float] | None:
    """(low, median(a) - median(b), high): the time ``b`` saves over ``a``, with its
    interval (None with fewer than two runs of either)."""
    xa = np.asarray([t for t in a if t is not None], dtype=float)
    xb = np.asarray([t for t in b if t is not None], dtype=float)
    if len(xa) < 2 or len(xb) < 2:
        return None
    rng = np.random.default_rng(len(xa) * 7919 + len(xb))
    ma = np.median(xa[rng.integers(0, len(xa), (resamples, len(xa)))], axis=1)
    mb = np.median(xb[rng.integers(0, len(xb), (resamples, len(xb)))], axis=1)
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(ma - mb, [tail, 1.0 - tail])
    return float(low), float(np.median(xa) - np.median(xb)), float(high)


def paired_mean_interval(
    diffs: Sequence[float], level: float = LEVEL, resamples: int = RESAMPLES
) -> tuple[float, float] | None:
    """The interval of the mean of paired differences (one per item, both sides measured
    on the same items), the items resampled; None with fewer than two."""
    x = np.asarray(list(diffs), dtype=float)
    if len(x) < 2:
        return None
    rng = np.random.default_rng(len(x) * 104729)
    means = x[rng.integers(0, len(x), (resamples, len(x)))].mean(axis=1)
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(means, [tail, 1.0 - tail])
    return float(low), float(high)
