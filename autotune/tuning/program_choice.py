"""The loops' winners confirmed as one program, then the counts regions and steps share.

A loop's measurement chooses its variant; only the whole program, built plain and run
interleaved with the original, decides what ships (``confirm.py``), and a thread count
that several loops share (a region's, a time step's teams') is chosen there too
(``region_threads.py``). This module joins the two for a file's ``LoopTuneResult``s.
"""

from __future__ import annotations

from autotune.measure.intervals import difference_interval
from autotune.tuning.confirm import Choice, Confirmation, ProgramCheck
from autotune.tuning.region_threads import (
    RegionResult,
    step_groups,
    tunable_regions,
    tune_regions,
)
from autotune.tuning.tune import LoopTuneResult


def _saving_range(r: LoopTuneResult) -> tuple[float, float] | None:
    """The 95% interval of the loop time per program run the chosen variant saves."""
    d = difference_interval(r.baseline.times_s, r.best.times_s) if r.best else None
    return (d[0], d[2]) if d is not None else None


def confirm_results(
    check: ProgramCheck, results: list[LoopTuneResult], cores: int
) -> tuple[Confirmation | None, list[RegionResult]]:
    """Confirm the per-loop winners as one plain program, undo what it backs off, then
    choose the thread count of each region shared by several loops on the whole program.

    (None, []) when there is nothing to confirm or choose. A backed-off loop keeps
    its original, and its decision says why.
    """
    chosen = [r for r in results if r.best is not None]
    regions = tunable_regions(
        [
            r.ranking.record
            for r in results
            if (r.baseline is not None and r.speedup is not None) or r.ranking.as_written_only
        ]
    ) + step_groups([r.ranking.record for r in results if not r.ranking.error])
    if not chosen and not regions:
        return None, []
    by_id = {r.id: r for r in chosen}
    choices = [
        Choice(
            r.ranking.record,
            r.best.variant,
            (r.baseline.measured_s or 0.0) - (r.best.measured_s or 0.0),
            _saving_range(r),
        )
        for r in chosen
    ]
    confirmation = check.confirm(choices)
    for loop_id, why in confirmation.disagree.items():
        # figures the program contradicts neither judge the model nor rank its variants
        by_id[loop_id].figures_note = why
        by_id[loop_id].quality = None
        by_id[loop_id].decision += f"; {why}"
    for loop_id, why in confirmation.backed_off:
        r = by_id[loop_id]
        r.decision = (
            f"original kept: {r.best.variant.label} backed off ({why}); "
            f"loop measurement said: {r.decision}"
        )
        r.best, r.speedup = None, 1.0
    tune_regions(check, confirmation, regions, cores)
    return confirmation, regions
