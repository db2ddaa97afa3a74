"""The first four moments of a task time: the currency of stochastic composition.

Gautama and van Gemund (seed 002) describe every task time by mean, variance,
skewness and kurtosis (kurtosis not in excess: 3 for a normal), because those
compose cheaply through sequences and branches; only the parallel max needs a
distribution, which the lambda fit supplies.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np


@dataclass(frozen=True)
class Moments:
    """Mean, variance, skewness and (non-excess) kurtosis of one task time."""

    mean: float
    variance: float
    skewness: float = 0.0
    kurtosis: float = 3.0

    def __post_init__(self) -> None:
        vals = (self.mean, self.variance, self.skewness, self.kurtosis)
        if not all(math.isfinite(v) for v in vals):
            raise ValueError(f"moments must be finite, got {vals}")
        if self.variance <= 0:
            raise ValueError(f"variance must be positive, got {self.variance}")
        # Pearson's bound: kurtosis >= skewness^2 + 1 for every distribution.
        if self.kurtosis < self.skewness**2 + 1 - 1e-9:
            raise ValueError(
                f"no distribution has kurtosis {self.kurtosis} < skewness^2 + 1 = "
                f"{self.skewness**2 + 1:.4g}"
            )

    @property
    def std(self) -> float:
        return math.sqrt(self.variance)

    def central(self, k: int) -> float:
        """Central moment E[(X - mean)^k] for k = 0..4."""
        s = self.std
        return {0: 1.0, 1: 0.0, 2: self.variance, 3: self.skewness * s**3, 4: self.kurtosis * s**4}[
            k
        ]

    def raw(self, k: int) -> float:
        """Raw moment E[X^k] for k = 0..4 (binomial expansion around the mean)."""
        if not 0 <= k <= 4:
            raise ValueError("only the first four moments are known")
        mu = self.mean
        return sum(math.comb(k, j) * self.central(j) * mu ** (k - j) for j in range(k + 1))

    @classmethod
    def from_samples(cls, x: np.ndarray) -> Moments:
        """Sample moments (population form, ddof=0: what a long trace converges to)."""
        x = np.asarray(x, dtype=float).ravel()
        if x.size < 4:
            raise ValueError(f"need at least 4 samples, got {x.size}")
        if not np.all(np.isfinite(x)):
            raise ValueError("samples contain NaN or infinity")
        mu = float(x.mean())
        d = x - mu
        m2 = float(np.mean(d**2))
        if m2 <= 0:
            raise ValueError("all samples are equal: the variance is zero")
        return cls(mu, m2, float(np.mean(d**3)) / m2**1.5, float(np.mean(d**4)) / m2**2)

    def to_dict(self) -> dict[str, float]:
        return asdict(self)
