"""Model-guided sequential search: measure one variant at a time, learn from each.

The power-law model ranks a loop's variants well on average, but on a given
loop and machine it is off by a loop-specific level (the absolute time) and
by effects it does not model (a slow core that only dynamic schedules work
around, oversubscription that happens to win). Measuring the model's top K
blindly spends the budget on near-duplicates of its first guess. Instead:

1. the original is measured first (it anchors the level);
2. a Gaussian process models the *residual* log(measured) - log(predicted)
   over a few coordinates of each variant (log thread count, schedule kind,
   relative chunk size), so its prior mean is the power-law prediction and
   each measurement moves the predictions of similar variants;
3. the next variant is the one with the largest expected improvement over
   the fastest so far; the search stops at the budget, or early when no
   remaining variant has a plausible chance (``stop_probability``) of beating
   the fastest by ``min_gain``.

Nothing here compiles or runs: ``measure`` is a callback, so the same search
runs on real measurements (``tuning/tune.py``) and replays recorded sweeps
(``bench/ranking_quality.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from autotune.frontend.records import LoopRecord
from autotune.measure.machine import Machine
from autotune.models.features import loop_features
from autotune.tuning.search_prior import (
    NOISE_VARIANCE,
    SLOPE_VARIANCE,
    VARIANT_VARIANCE,
    SearchPrior,
)
from autotune.variants.space import Variant

# Prior variances in squared log units: the level (how far the model's absolute time is
# off for this loop) is unknown to a factor of several; what the model misses between
# variants, the slope and a measurement's noise are fitted (``search_prior``).
LEVEL_VARIANCE = 4.0
# Length scales of the residual: a thread count that doubles (log2 units), a
# different schedule kind (0/1 indicators), a chunk that grows by a factor of
# the loop's trip count ** 0.5 (log of chunk over log of trip count).
LENGTH_SCALES = (1.5, 1.0, 1.0, 0.5)


@dataclass(frozen=True)
class Candidate:
    """One variant as the search sees it: the model's prediction and where it lies."""

    variant: Variant
    predicted_s: float
    coords: tuple[float, ...]


def variant_coords(record: LoopRecord, variant: Variant, machine: Machine) -> tuple[float, ...]:
    """(log2 threads, dynamic?, guided?, log chunk / log trip count) of a variant as run."""
    f = loop_features(record, variant, machine)
    span = max(1.0, math.log2(max(f.n, 2)))
    return (
        math.log2(f.threads),
        float(f.schedule == "dynamic"),
        float(f.schedule == "guided"),
        math.log2(max(f.x3_max_chunk_iters, 1.0)) / span,
    )


@dataclass
class SearchStep:
    variant: Variant
    expected_gain: float  # expected improvement (log units) when it was chosen
    win_probability: float  # P(it beats the fastest so far by min_gain), when chosen
    measured_s: float | None = None  # None: it failed (crash, wrong output, ...)


@dataclass
class SearchResult:
    steps: list[SearchStep] = field(default_factory=list)
    stopped: str = ""  # why the search stopped
    baseline_s: float | None = None
    # predictions (s) of every candidate after anchoring on the original alone,
    # and after every measurement (the posterior mean)
    anchored_s: dict[Variant, float] = field(default_factory=dict)
    posterior_s: dict[Variant, float] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "stopped": self.stopped,
            "steps": [
                {
                    "key": s.variant.key,
                    "measured_s": s.measured_s,
                    "expected_gain": s.expected_gain,
                    "win_probability": s.win_probability,
                }
                for s in self.steps
            ],
        }

    @property
    def measured(self) -> list[SearchStep]:
        return [s for s in self.steps if s.measured_s is not None]

    @property
    def best(self) -> SearchStep | None:
        ok = self.measured
        return min(ok, key=lambda s: s.measured_s) if ok else None


class SequentialSearch:
    """Chooses up to ``budget`` variants of one loop, one measurement at a time."""

    def __init__(
        self,
        budget: int = 5,
        min_gain: float = 0.03,
        stop_probability: float = 0.05,
        level_variance: float = LEVEL_VARIANCE,
        variant_variance: float = VARIANT_VARIANCE,
        noise_variance: float = NOISE_VARIANCE,
        length_scales: Sequence[float] = LENGTH_SCALES,
        slope_variance: float = SLOPE_VARIANCE,
    ) -> None:
        # scikit-learn is imported when a search is made, not by every command that ranks
        from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel

        if budget < 1:
            raise ValueError("budget must be at least 1")
        self.budget = budget
        self.min_gain = min_gain
        self.stop_probability = stop_probability
        self.slope_variance = slope_variance
        self.variant_variance = variant_variance
        self.kernel = (
            ConstantKernel(level_variance, "fixed")
            + ConstantKernel(variant_variance, "fixed") * RBF(list(length_scales), "fixed")
            + WhiteKernel(noise_variance, "fixed")
        )

    @classmethod
    def under(cls, prior: SearchPrior, budget: int, **options: float) -> SequentialSearch:
        """A search whose fitted variances are ``prior``'s (stored with the model)."""
        return cls(
            budget,
            variant_variance=prior.variant_variance,
            slope_variance=prior.slope_variance,
            noise_variance=prior.noise_variance,
            **options,
        )

    def run(
        self,
        baseline: Candidate,
        baseline_s: float,
        candidates: Sequence[Candidate],
        measure: Callable[[Variant], float | None],
        halt: Callable[[], str] | None = None,
    ) -> SearchResult:
        """Search ``candidates`` given the original's measured time ``baseline_s``;
        ``halt``, asked after each measurement, gives a reason to stop ('' to go on)."""
        result = SearchResult(baseline_s=baseline_s)
        Z = np.array([c.coords for c in candidates], dtype=float).reshape(len(candidates), -1)
        prior = np.log([max(c.predicted_s, 1e-12) for c in candidates])
        seen = _Seen()
        seen.add(baseline.coords, math.log(max(baseline.predicted_s, 1e-12)), baseline_s)
        best = math.log(baseline_s)
        open_ = np.ones(len(candidates), dtype=bool)
        result.anchored_s = self._predictions(seen, Z, prior, candidates)
        while len(result.steps) < self.budget and open_.any():
            mu, sd = self._posterior(seen, Z, prior)
            gain, p_win = _improvement(mu, sd, best, math.log1p(self.min_gain))
            gain[~open_], p_win[~open_] = -np.inf, 0.0
            if p_win.max() < self.stop_probability:
                result.stopped = (
                    f"no remaining variant has a {self.stop_probability:.0%} "
                    f"chance of beating the fastest by {self.min_gain:.0%}"
                )
                break
            i = int(np.argmax(gain))
            open_[i] = False
            step = SearchStep(candidates[i].variant, float(gain[i]), float(p_win[i]))
            step.measured_s = measure(step.variant)
            result.steps.append(step)
            if step.measured_s is not None and step.measured_s > 0:
                seen.add(Z[i], float(prior[i]), step.measured_s)
                best = min(best, math.log(step.measured_s))
            if halt is not None and (why := halt()):
                result.stopped = why
                break
        if not result.stopped:
            result.stopped = (
                "budget spent" if len(result.steps) >= self.budget else "every candidate measured"
            )
        result.posterior_s = self._predictions(seen, Z, prior, candidates)
        return result

    def _predictions(
        self, seen: _Seen, Z: np.ndarray, prior: np.ndarray, candidates: Sequence[Candidate]
    ) -> dict[Variant, float]:
        mu = self._posterior(seen, Z, prior)[0]
        return {c.variant: float(math.exp(m)) for c, m in zip(candidates, mu, strict=True)}

    def _posterior(
        self, seen: _Seen, Z: np.ndarray, prior: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Posterior mean and standard deviation of every candidate's log time: the
        prior scaled by the slope the measured variants support, plus the process."""
        from sklearn.gaussian_process import GaussianProcessRegressor

        slope, slope_var, centre = self._slope(seen.x[0], seen.x[1:], seen.y[1:])
        residual = [y - slope * x for x, y in zip(seen.x, seen.y, strict=True)]
        gp = GaussianProcessRegressor(self.kernel, optimizer=None)
        gp.fit(np.vstack(seen.z), np.asarray(residual))
        mean, std = gp.predict(Z, return_std=True)
        var = std**2 + slope_var * (prior - centre) ** 2
        return slope * prior + mean, np.maximum(np.sqrt(var), 1e-9)

    def _slope(self, origin: float, xs: list[float], ys: list[float]) -> tuple[float, float, float]:
        """(slope, its variance, the measured variants' mean prior) of log(measured)
        against log(predicted) over the measured variants (the original is another
        kind of thing: its own clause), from the prior slope 1."""
        if not xs:  # the first pick is the model's: nothing says yet that its order is off
            return 1.0, 0.0, origin
        xbar, ybar = float(np.mean(xs)), float(np.mean(ys))
        sxx = sum((x - xbar) ** 2 for x in xs)
        sxy = sum((x - xbar) * (y - ybar) for x, y in zip(xs, ys, strict=True))
        precision = sxx / self.variant_variance + 1.0 / self.slope_variance
        slope = (sxy / self.variant_variance + 1.0 / self.slope_variance) / precision
        return slope, 1.0 / precision, xbar


@dataclass
class _Seen:
    """What the search has measured: each variant's coordinates, its log predicted and
    its log measured time (the original first)."""

    z: list[np.ndarray] = field(default_factory=list)
    x: list[float] = field(default_factory=list)
    y: list[float] = field(default_factory=list)

    def add(self, coords: Sequence[float], log_predicted: float, measured_s: float) -> None:
        self.z.append(np.asarray(coords, dtype=float))
        self.x.append(log_predicted)
        self.y.append(math.log(measured_s))


def _improvement(
    mu: np.ndarray, sd: np.ndarray, best: float, margin: float
) -> tuple[np.ndarray, np.ndarray]:
    """Expected improvement below ``best`` and P(below best - margin), in log time."""
    from scipy.stats import norm

    z = (best - mu) / sd
    expected = (best - mu) * norm.cdf(z) + sd * norm.pdf(z)
    return expected, norm.cdf((best - margin - mu) / sd)
