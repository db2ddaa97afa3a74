"""Rank, then measure only the model's top K (plus the original), choose, report quality.

This is pre-compilation pruning: the model orders the whole variant space
without compiling; only the few best predicted variants are built and timed.
The choice is always a verified variant that beats the original by more than
the measurement noise; otherwise the original is kept.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from autotune.measure.intervals import MARGIN, RatioInterval, ratio_interval
from autotune.measure.results import LoopResult, VariantResult
from autotune.measure.sweep import LoopMeasurer
from autotune.models.features import FeatureError
from autotune.models.quality import QualityReport, evaluate
from autotune.tuning.ranking import LoopRanking, RankedVariant
from autotune.tuning.runtime_build import TWIN_RUNS, RuntimeBuildCheck, check_runtime_build
from autotune.tuning.search import Candidate, SearchResult, SequentialSearch, variant_coords
from autotune.variants.space import BASELINE, Variant

MIN_GAIN = 0.03  # a winner must beat the original by at least 3% ...
NOISE_SHARE = 0.5  # ... and by half the larger relative spread of the two medians
CONFIRM_SPREAD = 0.15  # above this (robust) spread the winner is re-measured first
# Removing a loop that takes a share s of the run makes the program 1 / (1 - s) as fast
# at best: below this share no variant can clear the whole-program margin.
SHARE_FLOOR = 1.0 - 1.0 / (1.0 + MARGIN)
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
    search: SearchResult | None = None  # the sequential search, when it chose the variants
    # why the loop's own timings are not trusted ('' when they agree with the program)
    figures_note: str = ""
    # the loop's share of the program's run time, when too small for any variant to show
    # a gain on the whole program (its variants were then not measured)
    small_share: float | None = None
    # the original against the loop as written in the run-time selection build
    runtime_build: RuntimeBuildCheck | None = None
    # why no variant was measured for time ('' when the time budget left room)
    out_of_time: str = ""

    @property
    def id(self) -> str:
        return self.ranking.id

    def interval_of(self, rv: RankedVariant) -> RatioInterval | None:
        """The loop-time speedup of a measured variant over the original, with its
        interval (None without two runs of each)."""
        if self.baseline is None or not rv.times_s:
            return None
        return ratio_interval(self.baseline.times_s, rv.times_s)

    def to_dict(self) -> dict:
        """JSON-ready: the ranking, what was measured, the decision, the model's quality."""
        record = self.ranking.record
        return {
            "id": self.id,
            "tunable": not self.ranking.error,
            "reason": self.ranking.error,
            "baseline": self.baseline.measured_s if self.baseline else None,
            "baseline_status": self.baseline.status if self.baseline else None,
            "figures_valid": not self.figures_note,
            "run_share_too_small": self.small_share,
            "out_of_time": self.out_of_time or None,
            "figures_note": self.figures_note,
            "baseline_predicted_s": self.ranking.baseline_predicted_s,
            "variants": [
                v.to_dict() | {"speedup_interval": _interval_dict(self.interval_of(v))}
                for v in self.ranking.variants
            ],
            "best": self.best.variant.to_dict() | {"key": self.best.variant.key}
            if self.best
            else None,
            "speedup": self.speedup,
            "decision": self.decision,
            "measured_programs": self.measured_programs,
            "compiles": self.compiles,
            "quality": self.quality.to_dict() if self.quality else None,
            "search": self.search.to_dict() if self.search else None,
            "runtime_build": self.runtime_build.to_dict() if self.runtime_build else None,
            "kept": dict(record.kept),
            "reassociates": list(record.reassociates),
            "equivalent": [e.to_dict() for e in self.ranking.equivalent],
            "warnings": self.warnings or [],
            "facts": record.facts,
            "trip_count": record.trip_count,
        }


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


SEARCHES = ("sequential", "top")


def tune_loop(
    sweep: LoopMeasurer,
    ranking: LoopRanking,
    top: int,
    exhaustive: bool = False,
    search: str = "sequential",
    min_share: float = SHARE_FLOOR,
    deadline: float | None = None,
    budget_s: float | None = None,
) -> LoopTuneResult:
    """Measure the original and at most ``top`` variants; pick the winner.

    ``search="sequential"`` chooses the variants one at a time, each informed by
    what was measured so far (``tuning/search.py``); ``"top"`` measures the
    model's first ``top`` together; ``exhaustive`` measures every variant. The sequential
    search stops after the original when the loop takes less than ``min_share`` of the
    program's run time (a variant could not show on the whole program).
    """
    result = LoopTuneResult(ranking)
    if ranking.error:
        result.decision = f"not tuned: {ranking.error}"
        return result
    result.out_of_time = _budget_spent(deadline, budget_s)
    if result.out_of_time:  # nothing more is measured: the loop stays as written
        result.decision = f"not measured: {result.out_of_time} before this loop: original kept"
        for rv in ranking.variants:
            rv.status = "pruned"
        return result
    if search not in SEARCHES:
        raise ValueError(f"unknown search {search!r}")
    by_key: dict[str, VariantResult] = {}
    if exhaustive or search == "top":
        if not _check_build(sweep, result, by_key):
            return result
        candidates = ranking.variants if exhaustive else ranking.variants[:top]
        measured = sweep.measure_loop(ranking.record, [c.variant for c in candidates])
        if not _take(result, measured, by_key):
            return result
    elif not _search(sweep, result, top, by_key, min_share, deadline, budget_s):
        return result
    if result.runtime_build is not None:  # every stored run of the original, the check's too
        runs = max(TWIN_RUNS, sweep.options.repetitions)
        _take(result, sweep.measure_loop(ranking.record, [], repetitions=runs), by_key)
    for rv in ranking.variants:
        vr = by_key.get(rv.variant.key)
        rv.status = "pruned"  # not measured: the model (or the search) left it out
        if vr is not None:
            rv.measured_s, rv.status, rv.message = vr.measured_s, vr.status, vr.message
            rv.runs, rv.times_s = len(vr.times_s), list(vr.times_s)
    result.measured_programs = 1 + len(by_key) + (result.runtime_build is not None)
    result.quality = evaluate(
        [rv.predicted_s for rv in ranking.variants],
        [rv.measured_s if rv.status == "ok" else None for rv in ranking.variants],
        k=top,
        target=sweep.target,
        anchor=_anchor(result),
    )
    raced = _race(sweep, result, by_key)
    _merge_spread_warnings(result, by_key, sweep.options.spread_warn)
    _choose(result, by_key)
    if raced:
        runs = max(len(by_key[k].times_s) for k in raced)
        result.decision += (
            f" (confirmed with {runs} runs each)"
            if result.best
            else f" (after re-measuring with {runs} runs each)"
        )
    return result


def _anchor(result: LoopTuneResult) -> float | None:
    """measured / predicted time of the original (None when either is missing)."""
    base, pred = result.baseline, result.ranking.baseline_predicted_s
    if base is None or not base.ok or not base.measured_s or not pred:
        return None
    return base.measured_s / pred


def _merge_spread_warnings(
    result: LoopTuneResult, by_key: dict[str, VariantResult], limit: float
) -> None:
    """One "large spread" warning for the loop, from the final timings: the sequential
    search measures once per step, and each sweep would otherwise warn again."""
    kept = [w for w in result.warnings or [] if not w.startswith("large spread")]
    noisy = [
        vr.label
        for vr in [result.baseline, *by_key.values()]
        if vr is not None and vr.spread is not None and vr.spread > limit
    ]
    if noisy:
        kept.append(
            f"large spread (> {limit:.0%} of the median) for {len(noisy)} variant(s) "
            f"({', '.join(noisy[:5])}{', ...' if len(noisy) > 5 else ''}): timings "
            "are noisy, add --repetitions"
        )
    result.warnings = kept


def _take(result: LoopTuneResult, measured: LoopResult, by_key: dict[str, VariantResult]) -> bool:
    """Record one sweep's answer; False when the loop could not be measured at all."""
    if measured.skipped:
        result.decision = f"not tuned: {measured.skipped}"
        return False
    result.baseline = measured.baseline
    result.binaries = max(result.binaries, measured.binaries)
    result.compiles += measured.compiles
    result.warnings = list(dict.fromkeys([*(result.warnings or []), *measured.warnings]))
    by_key.update({vr.key: vr for vr in measured.variants})
    return True


def _search(
    sweep: LoopMeasurer,
    result: LoopTuneResult,
    budget: int,
    by_key: dict[str, VariantResult],
    min_share: float = SHARE_FLOOR,
    deadline: float | None = None,
    budget_s: float | None = None,
) -> bool:
    """The sequential search: the original first, then one variant per measurement,
    until the budget of variants or of time (``deadline``) is spent."""
    ranking = result.ranking
    if not _take(result, sweep.measure_loop(ranking.record, []), by_key):
        return False
    base = result.baseline
    if base is None or not base.ok or not base.measured_s:
        return True  # _choose explains it
    share = run_share(base)
    if share is not None and share < min_share:
        result.small_share = share  # no variant can pay for its runs: stop here
        return True
    result.out_of_time = _budget_spent(deadline, budget_s)
    if result.out_of_time:
        return True
    _check_build(sweep, result, by_key)
    base = result.baseline
    machine = sweep.machine
    try:
        cands = [
            Candidate(
                rv.variant, rv.predicted_s, variant_coords(ranking.record, rv.variant, machine)
            )
            for rv in ranking.variants
        ]
        origin = Candidate(
            BASELINE,
            ranking.baseline_predicted_s,
            variant_coords(ranking.record, BASELINE, machine),
        )
    except FeatureError:  # ranked without features: fall back to the model's order
        return _take(
            result,
            sweep.measure_loop(ranking.record, [rv.variant for rv in ranking.variants[:budget]]),
            by_key,
        )

    def measure(variant: Variant) -> float | None:
        if not _take(result, sweep.measure_loop(ranking.record, [variant]), by_key):
            return None
        vr = by_key.get(variant.key)
        return vr.measured_s if vr is not None and vr.ok and vr.measured_s else None

    def halt() -> str:
        mask = getattr(sweep, "output_mask", None)
        if mask is not None and mask.unstable:
            return "the original's own output differs between runs: no variant can be verified"
        return _budget_spent(deadline, budget_s)

    search = SequentialSearch.under(ranking.search_prior, budget, min_gain=MIN_GAIN)
    found = search.run(origin, base.measured_s, cands, measure, halt)
    result.search = found
    return True


def _budget_spent(deadline: float | None, budget_s: float | None) -> str:
    """Why the search stops for time ('' while there is time left)."""
    if deadline is None or time.monotonic() < deadline:
        return ""
    return f"the time budget ({budget_s:g} s, --time-budget) was spent"


def _check_build(sweep: LoopMeasurer, result: LoopTuneResult, by_key: dict) -> bool:
    """The original against its twin in the run-time selection build (the original first
    measured when it was not); False when the loop could not be measured at all."""
    if getattr(sweep, "use_own_binaries", None) is None:
        return True  # a measurer without builds to choose
    record = result.ranking.record
    if result.baseline is None and not _take(result, sweep.measure_loop(record, []), by_key):
        return False
    if result.baseline is None:
        return True
    check, measured = check_runtime_build(sweep, record, result.baseline)
    if check is not None:
        result.runtime_build = check
        result.compiles += measured.compiles
        result.binaries = max(result.binaries, measured.binaries)
        if measured.baseline is not None and measured.baseline.ok:
            result.baseline = measured.baseline  # with the runs the check added
    return True


def run_share(base: VariantResult) -> float | None:
    """The loop's largest share of the program's run time over the original's runs."""
    pairs = [(t, w) for t, w in zip(base.times_s, base.process_s, strict=False) if w and w > 0]
    return max(t / w for t, w in pairs) if pairs else None


def _fastest_ok(result: LoopTuneResult) -> RankedVariant | None:
    ok = [rv for rv in result.ranking.variants if rv.status == "ok" and rv.measured_s]
    return min(ok, key=lambda rv: rv.measured_s) if ok else None


def _race(
    sweep: LoopMeasurer,
    result: LoopTuneResult,
    by_key: dict[str, VariantResult],
) -> set[str]:
    """Settle near-ties and noisy timings with more interleaved runs; the keys raced.

    On a shared VM a few runs can be 10x slow, and a median of three then
    decides nothing. The original and every variant within the noise band of
    the fastest (or the fastest alone, when its timings are noisy) get
    ``CONFIRM_FACTOR`` times the repetitions, interleaved (stored runs count).
    When the fastest is then one that was not raced, it is raced too, so the
    decision is made on comparable medians and the printed table agrees with it.
    """
    raced: set[str] = set()
    for _ in range(3):
        base, fastest = result.baseline, _fastest_ok(result)
        if base is None or not base.ok or not base.measured_s or fastest is None:
            return raced
        if fastest.variant.key in raced:
            return raced
        if base.measured_s <= fastest.measured_s * (1 + MIN_GAIN) and not raced:
            return raced  # not even the median suggests a gain
        band = required_gain(base, by_key[fastest.variant.key])
        near = [
            rv
            for rv in result.ranking.variants
            if rv.status == "ok"
            and rv.measured_s
            and rv.measured_s <= fastest.measured_s * (1 + band)
        ]
        spread = max(robust_spread(base), *(robust_spread(by_key[rv.variant.key]) for rv in near))
        if not raced and len(near) == 1 and spread <= CONFIRM_SPREAD:
            return raced  # one clear, quiet winner
        raced |= {rv.variant.key for rv in near}
        if not _remeasure(sweep, result, by_key, sorted(raced)):
            return raced
    return raced


def _remeasure(
    sweep: LoopMeasurer,
    result: LoopTuneResult,
    by_key: dict[str, VariantResult],
    keys: list[str],
) -> bool:
    again: LoopResult = sweep.measure_loop(
        result.ranking.record,
        [by_key[k].variant for k in keys],
        repetitions=sweep.options.repetitions * CONFIRM_FACTOR,
    )
    if again.skipped or again.baseline is None or not again.variants:
        return False
    result.baseline = again.baseline
    for vr in again.variants:
        by_key[vr.key] = vr
    for rv in result.ranking.variants:
        vr = by_key.get(rv.variant.key)
        if vr is not None and rv.variant.key in keys:
            rv.measured_s, rv.status, rv.message = vr.measured_s, vr.status, vr.message
            rv.runs, rv.times_s = len(vr.times_s), list(vr.times_s)
    return True


def _choose(result: LoopTuneResult, by_key: dict[str, VariantResult]) -> None:
    """Pick the fastest verified variant that beats the original beyond noise."""
    base = result.baseline
    ok = [rv for rv in result.ranking.variants if rv.status == "ok" and rv.measured_s]
    if base is not None and base.ok and base.measured_s == 0:
        result.speedup = 1.0
        result.decision = (
            "the loop did not run in the measured runs (0 s; run the program with arguments "
            "that reach it: --args): original kept"
        )
        return
    if base is None or not base.ok or not base.measured_s:
        result.decision = "original could not be measured: nothing chosen"
        return
    if result.out_of_time:
        result.speedup = 1.0
        result.decision = f"variants not measured: {result.out_of_time}: original kept"
        return
    if result.small_share is not None:
        result.speedup = 1.0
        result.decision = (
            f"variants not measured: the loop takes {result.small_share:.1%} of the "
            f"program's run time, so no variant could make the program {MARGIN:.0%} "
            "faster: original kept"
        )
        return
    if not ok:
        result.speedup = 1.0
        unverifiable = any(rv.status == "not-verified" for rv in result.ranking.variants)
        result.decision = (
            "no variant could be verified: the original program's output differs between "
            "its own runs (see the warning): original kept"
            if unverifiable
            else "no measured variant passed verification: original kept"
        )
        return
    best = min(ok, key=lambda rv: rv.measured_s)
    gain = base.measured_s / best.measured_s - 1.0
    need = required_gain(base, by_key[best.variant.key])
    if gain <= 0:
        result.speedup = 1.0
        result.decision = (
            f"no measured variant beat the original (best {best.variant.label} "
            f"took {1 / (1 + gain):.2f}x its time): original kept"
        )
        return
    iv = ratio_interval(base.times_s, by_key[best.variant.key].times_s)
    if gain <= need or (iv is not None and not iv.faster()):
        result.speedup = 1.0
        shown = f"{iv.text()}" if iv is not None else f"{gain:.1%} faster"
        clears = f" and an interval clearing {1 + MARGIN:.2f}x" if iv is not None else ""
        result.decision = (
            f"best variant {best.variant.label} ran {shown}, within the noise (needs > "
            f"{need:.1%}{clears}): original kept"
        )
        return
    result.best = best
    result.speedup = base.measured_s / best.measured_s
    result.decision = f"{best.variant.label}: {result.speedup:.2f}x faster than the original" + (
        f" (loop time, {iv.text()})" if iv is not None else ""
    )


def _interval_dict(iv: RatioInterval | None) -> dict | None:
    return iv.to_dict() if iv is not None else None
