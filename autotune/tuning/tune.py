"""Rank, then measure only the model's top K (plus the original), choose, report quality.

This is pre-compilation pruning: the model orders the whole variant space
without compiling; only the few best predicted variants are built and timed.
The choice is always a verified variant that beats the original by more than
the measurement noise; otherwise the original is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autotune.measure.results import LoopResult, VariantResult
from autotune.models.quality import QualityReport, evaluate
from autotune.tuning.confirm import Choice, Confirmation, ProgramCheck
from autotune.tuning.ranking import LoopRanking, RankedVariant
from autotune.tuning.region_threads import RegionResult, tunable_regions, tune_regions

MIN_GAIN = 0.03  # a winner must beat the original by at least 3% ...
NOISE_SHARE = 0.5  # ... and by half the larger relative spread of the two medians
CONFIRM_SPREAD = 0.15  # above this (robust) spread the winner is re-measured first
CONFIRM_FACTOR = 3  # ... with this many times the repetitions (stored runs are reused)


@dataclass
class LoopTuneResult:
    ranking: LoopRanking
    baseline: VariantResult | None = None
    best: RankedVariant | None = None  # None: keep the loop as written
    speedup: float | None = None  # baseline / best (1.0 when the original is kept)
    quality: QualityReport | None = None
    measured_programs: int = 0  # variants run for this loop, the original included
    binaries: int = 0
    compiles: int = 0
    decision: str = ""  # one line: why this choice
    warnings: list[str] | None = None

    @property
    def id(self) -> str:
        return self.ranking.id


def robust_spread(v: VariantResult) -> float:
    """Interquartile range over median of a variant's run times.

    The displayed spread, (max - min) / median, is what a person wants to see,
    but one 10x-slow run (common on a shared VM) blows it up however many runs
    agree; the decision uses the interquartile range instead.
    """
    times = np.asarray(v.times_s, dtype=float)
    if times.size < 2 or not v.measured_s:
        return 0.0
    q25, q75 = np.percentile(times, [25, 75])
    return float((q75 - q25) / v.measured_s)


def required_gain(baseline: VariantResult, best: VariantResult) -> float:
    return max(MIN_GAIN, NOISE_SHARE * max(robust_spread(baseline), robust_spread(best)))


def tune_loop(sweep, ranking: LoopRanking, top: int, exhaustive: bool = False  # noqa: ANN001
              ) -> LoopTuneResult:
    """Measure the original and the top ``top`` predicted variants; pick the winner."""
    result = LoopTuneResult(ranking)
    if ranking.error:
        result.decision = f"not tuned: {ranking.error}"
        return result
    candidates = ranking.variants if exhaustive else ranking.variants[:top]
    measured: LoopResult = sweep.measure_loop(ranking.record, [c.variant for c in candidates])
    if measured.skipped:
        result.decision = f"not tuned: {measured.skipped}"
        return result
    result.baseline = measured.baseline
    result.binaries, result.compiles = measured.binaries, measured.compiles
    result.warnings = list(measured.warnings)
    by_key = {vr.key: vr for vr in measured.variants}
    for rv in ranking.variants:
        vr = by_key.get(rv.variant.key)
        if vr is not None:
            rv.measured_s, rv.status, rv.message = vr.measured_s, vr.status, vr.message
            rv.runs = len(vr.times_s)
    result.measured_programs = 1 + len(by_key)
    result.quality = evaluate([rv.predicted_s for rv in ranking.variants],
                              [rv.measured_s if rv.status == "ok" else None
                               for rv in ranking.variants], k=top,
                              target=sweep_target(sweep))
    contender = _fastest_ok(result)
    confirmed = contender is not None and _remeasure_if_noisy(sweep, result, by_key, contender)
    _choose(result, by_key, only=contender if confirmed else None)
    if confirmed:
        runs = len(by_key[contender.variant.key].times_s)
        result.decision += (f" (confirmed with {runs} runs each)" if result.best
                            else f" (after re-measuring with {runs} runs each)")
    return result


def _fastest_ok(result: LoopTuneResult) -> RankedVariant | None:
    ok = [rv for rv in result.ranking.variants if rv.status == "ok" and rv.measured_s]
    return min(ok, key=lambda rv: rv.measured_s) if ok else None


def _remeasure_if_noisy(sweep, result: LoopTuneResult, by_key: dict[str, VariantResult],  # noqa: ANN001
                        contender: RankedVariant) -> bool:
    """Give the original and the fastest variant more runs when their timings are noisy.

    On a shared VM a few runs can be 10x slow, and a median of three then
    decides nothing. Only the two contenders get more interleaved repetitions
    (the sweep resumes, so the runs already stored count); the choice is then
    made between them on the larger sample. True when they were re-measured.
    """
    base = result.baseline
    if base is None or not base.ok or not base.measured_s:
        return False
    if base.measured_s <= contender.measured_s * (1 + MIN_GAIN):
        return False  # not even the median suggests a gain
    if max(robust_spread(base), robust_spread(by_key[contender.variant.key])) <= CONFIRM_SPREAD:
        return False
    opts = sweep.options
    reps = opts.repetitions
    opts.repetitions = reps * CONFIRM_FACTOR
    try:
        again: LoopResult = sweep.measure_loop(result.ranking.record, [contender.variant])
    finally:
        opts.repetitions = reps
    if again.skipped or again.baseline is None or not again.variants:
        return False
    result.baseline = again.baseline
    vr = again.variants[0]
    by_key[vr.key] = vr
    contender.measured_s, contender.status, contender.message = vr.measured_s, vr.status, \
        vr.message
    contender.runs = len(vr.times_s)
    return True


def sweep_target(sweep) -> str:  # noqa: ANN001
    return getattr(sweep, "target", "wall")


def _choose(result: LoopTuneResult, by_key: dict[str, VariantResult],
            only: RankedVariant | None = None) -> None:
    """Pick the fastest verified variant that beats the original beyond noise;
    ``only`` restricts the choice to one re-measured contender."""
    base = result.baseline
    pool = [only] if only is not None else result.ranking.variants
    ok = [rv for rv in pool if rv.status == "ok" and rv.measured_s]
    if base is None or not base.ok or not base.measured_s:
        result.decision = "original could not be measured: nothing chosen"
        return
    if not ok:
        result.speedup = 1.0
        result.decision = "no measured variant passed verification: original kept"
        return
    best = min(ok, key=lambda rv: rv.measured_s)
    gain = base.measured_s / best.measured_s - 1.0
    need = required_gain(base, by_key[best.variant.key])
    if gain <= 0:
        result.speedup = 1.0
        result.decision = (f"no measured variant beat the original (best {best.variant.key} "
                           f"took {1 / (1 + gain):.2f}x its time): original kept")
        return
    if gain <= need:
        result.speedup = 1.0
        result.decision = (f"best variant {best.variant.key} is {gain:.1%} faster, within the "
                           f"noise (needs > {need:.1%}): original kept")
        return
    result.best = best
    result.speedup = base.measured_s / best.measured_s
    result.decision = f"{best.variant.key}: {result.speedup:.2f}x faster than the original"


def confirm_results(check: ProgramCheck, results: list[LoopTuneResult], cores: int
                    ) -> tuple[Confirmation | None, list[RegionResult]]:
    """Confirm the per-loop winners as one plain program, undo what it backs off, then
    choose the thread count of each region shared by several loops on the whole program.

    (None, []) when there is nothing to confirm or choose. A backed-off loop keeps
    its original, and its decision says why.
    """
    chosen = [r for r in results if r.best is not None]
    regions = tunable_regions([r.ranking.record for r in results
                               if r.baseline is not None and r.speedup is not None])
    if not chosen and not regions:
        return None, []
    by_id = {r.id: r for r in chosen}
    choices = [Choice(r.ranking.record, r.best.variant,
                      (r.baseline.measured_s or 0.0) - (r.best.measured_s or 0.0))
               for r in chosen]
    confirmation = check.confirm(choices)
    for loop_id, why in confirmation.backed_off:
        r = by_id[loop_id]
        r.decision = f"original kept: {r.best.variant.key} backed off ({why}); " \
                     f"loop measurement said: {r.decision}"
        r.best, r.speedup = None, 1.0
    tune_regions(check, confirmation, regions, cores)
    return confirmation, regions
