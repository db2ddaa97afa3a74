"""Thread counts chosen per parallel region, by the whole program's time.

A region that runs several loops has one thread count for all of them
(``num_threads`` belongs to the region), so no loop's own measurement can
choose it: a count that helps one loop may slow the region's dominant loop.
The legality gate marks the loops of a region whose count may change as a
whole (``LoopRecord.region_threads``); here each such region gets each
candidate count in turn, applied on top of the loop choices already
confirmed, and the whole program is built plain, run interleaved with the
original and verified. A count is kept only when the program is faster than
the best so far beyond the noise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autotune.frontend.records import LoopRecord
from autotune.tuning.confirm import Confirmation, ProgramCheck, ProgramRuns, required_gain
from autotune.variants.space import Variant, default_thread_counts


@dataclass
class RegionTry:
    threads: int
    runs: ProgramRuns

    def to_dict(self) -> dict:
        return {"threads": self.threads, **self.runs.to_dict()}


@dataclass
class RegionResult:
    """One region: its loops, what was tried, and the count kept (None: as written)."""

    id: str  # the parallel directive's file:line
    records: list[LoopRecord]
    threads: int | None = None
    tries: list[RegionTry] = field(default_factory=list)
    decision: str = ""

    def to_dict(self) -> dict:
        return {
            "region": self.id,
            "loops": [r.id for r in self.records],
            "threads": self.threads,
            "decision": self.decision,
            "tries": [t.to_dict() for t in self.tries],
        }


def tunable_regions(records: list[LoopRecord]) -> list[RegionResult]:
    """Regions whose thread count the gate lets change as a whole, in file order."""
    by_region: dict[str, list[LoopRecord]] = {}
    for r in records:
        if r.region_threads and r.parallel is not None:
            key = f"{r.parallel.file}:{r.parallel.line}"
            by_region.setdefault(key, []).append(r)
    return [RegionResult(key, recs) for key, recs in by_region.items()]


def final_pairs(
    confirmation: Confirmation, regions: list[RegionResult]
) -> list[tuple[LoopRecord, Variant]]:
    """Every loop's variant as it ships: its own choice with its region's count merged in."""
    chosen = {c.record.id: (c.record, c.variant) for c in confirmation.kept}
    for region in regions:
        if region.threads is None:
            continue
        for r in region.records:
            _, v = chosen.get(r.id, (r, Variant(None, None, None)))
            chosen[r.id] = (r, Variant(v.schedule, v.chunk, region.threads))
    return list(chosen.values())


def tune_regions(
    check: ProgramCheck, confirmation: Confirmation, regions: list[RegionResult], cores: int
) -> None:
    """Try each region's candidate counts on the whole program; keep what is faster."""
    if not regions or confirmation.original.status != "ok":
        for region in regions:
            region.decision = "not tried: the original program could not be measured"
        return
    original = check.original_build()
    best = confirmation.tuned or confirmation.original
    for region in regions:
        base = final_pairs(confirmation, regions)
        for t in default_thread_counts(cores):
            pairs = [(r, v) for r, v in base if r.id not in {x.id for x in region.records}]
            owned = {r.id: v for r, v in base}
            for r in region.records:
                v = owned.get(r.id, Variant(None, None, None))
                pairs.append((r, Variant(v.schedule, v.chunk, t)))
            runs = check.try_choices(original, pairs, confirmation.original)
            region.tries.append(RegionTry(t, runs))
        region.decision = _decide(region, best)
        if region.threads is not None:
            best = next(x.runs for x in region.tries if x.threads == region.threads)


def _decide(region: RegionResult, best: ProgramRuns) -> str:
    ok = [x for x in region.tries if x.runs.status == "ok" and x.runs.median_s]
    bad = [x for x in region.tries if x.runs.status != "ok"]
    note = "; ".join(f"num_threads({x.threads}): {x.runs.status}" for x in bad)
    if not ok or not best.median_s:
        return "kept as written: no count could be measured" + (f" ({note})" if note else "")
    fastest = min(ok, key=lambda x: x.runs.median_s)
    gain = best.median_s / fastest.runs.median_s - 1.0
    need = required_gain(best, fastest.runs)
    if gain > need:
        region.threads = fastest.threads
        return (
            f"num_threads({fastest.threads}) for the region: the program is "
            f"{gain + 1:.2f}x faster than without it"
        )
    return (
        f"kept as written: the best count, {fastest.threads}, gave {gain:+.1%} (needs > {need:.1%})"
    )


def best_runs(confirmation: Confirmation, regions: list[RegionResult]) -> ProgramRuns:
    """The runs of the program as it ships (the last improvement kept)."""
    best = confirmation.tuned or confirmation.original
    for region in regions:
        if region.threads is not None:
            best = next(x.runs for x in region.tries if x.threads == region.threads)
    return best
