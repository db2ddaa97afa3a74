"""How far a model's predictions for one loop may be off: the sequential search's prior.

Fitted on loops the model was not fitted on (calibration's held-out kernels, the bench's
held-out programs) and stored with the model, so ``rank`` can hand it to ``tune``'s search
without importing the search itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from autotune.frontend.records import LoopRecord
from autotune.variants.equivalence import collapse
from autotune.variants.space import Variant

# What the model misses between one loop's variants (in squared log units), and how far
# its spread between them is off (the slope below), are fitted on loops it was not
# fitted on (``SearchPrior.fit``):
# calibration fits them on its held-out kernels and stores them with the model; these
# defaults are the same fit of the extended model over the recorded 16-core sweeps,
# each program's loops predicted by a model fitted on the other programs (20 loops:
# 0.288 and 0.207).
VARIANT_VARIANCE = 0.29
# How far the model's spread between variants may be off: log(time) = level + slope *
# log(predicted) + residual, with the slope ~ N(1, SLOPE_VARIANCE) before any measurement.
# A model whose order is wrong for this loop (the fastest ranked last) shows it in the
# measured variants; the fitted slope then stops trusting its order, and the slope's
# uncertainty widens the predictions of variants unlike those measured, so the search
# neither stops on a confidently wrong prior nor keeps walking down its ranking.
SLOPE_VARIANCE = 0.21
# How far one measurement (a median of a few runs) is from the loop's time: half the mean
# squared log ratio of variants the runtime runs identically, each measured on its own
# (``twin_log_ratios``), fitted with the rest; this default is that fit over the 220 such
# pairs of the recorded 16-core sweeps (0.024: a median pair 7.3% apart, one in ten over
# 27%). A fixed 0.003 ("a median of three runs is good to a few percent") let one noisy
# measurement of the original or a first pick stretch the fitted slope and stop the
# search early. Never below NOISE_FLOOR.
NOISE_VARIANCE = 0.024
NOISE_FLOOR = 0.003
MIN_TWINS = 10  # fewer pairs than this say too little about the noise: the default


@dataclass(frozen=True)
class SearchPrior:
    """How far a model's predictions for one loop may be off, in the search's terms: the
    variance of what it misses between a loop's variants, and of the loop's slope of
    log measured on log predicted around 1. Fitted on loops the model was not fitted on
    (``fit``: held-out kernels in calibration, held-out programs in the bench); the
    defaults are the same fit over the recorded 16-core sweeps."""

    variant_variance: float = VARIANT_VARIANCE
    slope_variance: float = SLOPE_VARIANCE
    loops: int = 0  # held-out loops it was fitted on (0: the defaults)
    noise_variance: float = NOISE_VARIANCE
    twins: int = 0  # twin pairs the noise was fitted on (0: the default)

    @classmethod
    def fit(
        cls,
        loops: Sequence[tuple[Sequence[float], Sequence[float]]],
        twins: Sequence[float] = (),
    ) -> SearchPrior:
        """From each held-out loop's (log predicted, log measured) over its variants: the
        slope's variance is the mean squared distance of the loops' fitted slopes from 1,
        the variant variance the mean variance about each loop's fitted line (a mean, not
        a median: the few loops far off are the ones the search must not trust the model
        on). Fewer than three loops of three variants: the defaults. ``twins``: log
        ratios of identical variants measured apart (``twin_log_ratios``), whose half
        mean square is one measurement's noise (with fewer than MIN_TWINS: the default)."""
        noise, pairs = NOISE_VARIANCE, 0
        if len(twins) >= MIN_TWINS:
            r = np.asarray(twins, dtype=float)
            noise, pairs = max(float(np.mean(r**2)) / 2.0, NOISE_FLOOR), len(r)
        slopes, residuals = [], []
        for xs, ys in loops:
            x, y = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
            if len(x) < 3 or np.ptp(x) <= 0:
                continue
            b, a = np.polyfit(x, y, 1)
            slopes.append(b)
            residuals.append(float(np.sum((y - (a + b * x)) ** 2) / (len(x) - 2)))
        if len(slopes) < 3:
            return cls(noise_variance=noise, twins=pairs)
        slope_var = float(np.mean((np.asarray(slopes) - 1.0) ** 2))
        return cls(
            max(float(np.mean(residuals)), 1e-3), max(slope_var, 1e-3), len(slopes), noise, pairs
        )

    def to_dict(self) -> dict:
        return {
            "variant_variance": self.variant_variance,
            "slope_variance": self.slope_variance,
            "loops": self.loops,
            "noise_variance": self.noise_variance,
            "twins": self.twins,
        }

    @classmethod
    def from_dict(cls, doc: dict | None) -> SearchPrior:
        """The prior stored with a model (the defaults where none is)."""
        if not doc:
            return cls()
        return cls(
            float(doc["variant_variance"]),
            float(doc["slope_variance"]),
            int(doc["loops"]),
            float(doc.get("noise_variance", NOISE_VARIANCE)),  # files from before the field
            int(doc.get("twins", 0)),
        )


def twin_log_ratios(
    record: LoopRecord, times: Mapping[Variant, float], runtime: str = "libgomp"
) -> list[float]:
    """log(t(variant) / t(its twin)) for each measured variant the runtime runs exactly as
    another measured one (``auto`` and ``static``, a chunk that changes nothing): the same
    code measured twice, so what separates them is measurement noise alone. Twins of the
    loop as written are left out: the original is built as written, not as its variants
    are, and may sit apart from them (see ``bench/replay.original_offsets``)."""
    _, same = collapse(record, list(times), runtime)
    return [
        math.log(times[eq.variant] / times[eq.same_as])
        for eq in same
        if times[eq.variant] > 0 and times.get(eq.same_as, 0) > 0  # not the original's twins
    ]
